# SPDX-License-Identifier: MIT
# needs: shared python3
# not under ASan: unit.hostile/foreign_samples runs the command on every sample in-process there
# Every foreign sample converts to valid JSON with a traceEvents array.
for f in "$SHARED"/samples/foreign/*.fxt; do
  "$FXT" json "$f" > "$T/$(basename "$f").json" 2> /dev/null || true
done
"$PYTHON" - "$T"/*.fxt.json <<'PY'
import json, os, sys
def constant(c):
    raise ValueError(c + " is not JSON")
failed = 0
for f in sys.argv[1:]:
    name = os.path.basename(f)[:-5]
    try:
        d = json.load(open(f), parse_constant=constant)
        assert isinstance(d.get("traceEvents"), list), "no traceEvents array"
        print("ok  ", name)
    except Exception as e:
        print("FAIL", name + ":", e)
        failed = 1
sys.exit(failed)
PY
