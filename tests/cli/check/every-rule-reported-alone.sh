# SPDX-License-Identifier: MIT
# needs: python3
# For every rule of `fxt check --rules` a hand-built trace (setup.sh) triggers
# that rule and no other (too-large: also truncated, the record being cut);
# exit status 1 for an error rule, 0 for a warning; counted in the summary.
"$FXT" check --rules > "$T/rules"
"$PYTHON" - "$T/rules" <<'PY'
import json, os, subprocess, sys
rules = [l.split()[:2] for l in open(sys.argv[1]) if l.strip()]
if not rules:
    sys.exit("fxt check --rules lists nothing")
failed = 0
for rule, sev in rules:
    def bad(why):
        global failed
        print("FAIL rule %s (%s): %s" % (rule, sev, why))
        failed = 1
    if not os.path.exists(rule + ".fxt"):
        bad("no test trace (add one to setup.sh)")
        continue
    p = subprocess.run([os.environ["FXT"], "check", "--json", rule + ".fxt"], capture_output=True, text=True)
    lines = [json.loads(l) for l in p.stdout.splitlines()]
    got = sorted({r["rule"] for r in lines if r.get("rule")})
    want = ["too-large", "truncated"] if rule == "too-large" else [rule]
    counted = lines[-1].get("summary", {}).get("rules", {}).get(rule, 0) if lines else 0
    if sorted(got) != sorted(want):
        bad("reported %s, expected %s" % (got, want))
    elif p.returncode != (1 if sev == "error" else 0):
        bad("exit status %d" % p.returncode)
    elif not counted >= 1:
        bad("summary count %r" % counted)
    else:
        print("ok   rule", rule)
sys.exit(failed)
PY
