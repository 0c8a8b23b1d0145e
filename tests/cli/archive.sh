#!/bin/bash
# fxt merge / fxt cut / compressed traces.
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1

"$FXT" synth --seed 1 --events 4000 -o a.fxt
"$FXT" synth --seed 2 --events 4000 --ticks-per-second 19200000 -o b.fxt.zst
"$FXT" synth --seed 3 --events 4000 --providers 2 --ticks-per-second 3000000000 --big-endian --all-records -o c.fxt
cp "$SHARED/samples/foreign/ftr_complete_2threads.fxt" ftr.fxt

# compression: identical dumps from plain, gzip, zstd, pipes
"$FXT" synth --seed 9 --events 3000 -o p.fxt
gzip -c p.fxt > p.fxt.gz; zstd -q -c p.fxt > p.fxt.zst
"$FXT" dump --json p.fxt > p.jsonl
check "gzip input (gzip CLI) gives the same dump" 'cmp -s p.jsonl <("$FXT" dump --json p.fxt.gz)'
check "zstd input (zstd CLI) gives the same dump" 'cmp -s p.jsonl <("$FXT" dump --json p.fxt.zst)'
check "compressed input from a pipe" 'cmp -s p.jsonl <(cat p.fxt.zst | "$FXT" dump --json -) && cmp -s p.jsonl <(cat p.fxt.gz | "$FXT" dump --json)'
"$FXT" synth --seed 9 --events 3000 -o w.fxt.gz && "$FXT" synth --seed 9 --events 3000 --compress zstd -o w.zz
check "written compressed: gzip and zstd CLIs read them back" 'gzip -dc w.fxt.gz | cmp -s - p.fxt && zstd -dc w.zz | cmp -s - p.fxt'
head -c 5000 p.fxt.zst > cut.zst
"$FXT" dump cut.zst > /dev/null 2>cut.err; rc=$?
check "a cut compressed stream is an error" '[ $rc -ne 0 ] && grep -q "cut short\|inside a record" cut.err'

# merge
"$FXT" merge a.fxt b.fxt.zst c.fxt ftr.fxt --offset a.fxt=1500 -o m.fxt.gz 2> m.err; rc=$?
check "merge exits 0" '[ $rc -eq 0 ]'
"$FXT" check m.fxt.gz > m.check; rc=$?
check "merged archive passes fxt check with no error" '[ $rc -eq 0 ] && grep -q " 0 errors" m.check'
"$FXT" dump --json m.fxt.gz > m.jsonl
check "one magic record, first" '[ "$(jq -r .kind m.jsonl | grep -c magic)" = 1 ] && [ "$(head -1 m.jsonl | jq -r .kind)" = magic ]'
check "providers remapped and named (own name or file name)" '[ "$(jq -c "select(.kind==\"provider_info\") | [.id,.name]" m.jsonl | tr -d "\n")" = "[1,\"synth-provider-1\"][2,\"synth-provider-1\"][3,\"synth-provider-1\"][4,\"synth-provider-2\"][5,\"ftr\"]" ]'
check "init records kept per section" '[ "$(jq -c "select(.kind==\"init\") | [.provider,.ticks_per_second]" m.jsonl | tr -d "\n")" = "[1,1000000000][2,19200000][3,3000000000][4,6000000000][5,2595382466]" ]'
check "buffer-overflow provider events preserved (remapped)" '[ "$(jq -c "select(.kind==\"provider_event\") | [.provider,.id]" m.jsonl | tr -d "\n")" = "[3,3][4,4]" ]'
# every event at the right time with the right names: merged JSON == inputs' JSON, in order
cat > cmpjson.py <<'PY'
import json, decimal, sys
def ev(path, shift=0):
    d = json.load(open(path), parse_float=decimal.Decimal)
    return [(e.get("cat"), e["name"], e["ts"] + shift, e["ph"], e.get("pid"), e.get("tid")) for e in d["traceEvents"] if e["ph"] != "M"]
want = ev("a.json", decimal.Decimal("1.5")) + ev("b.json") + ev("c.json") + ev("ftr.json")
got = ev("m.json")
print(len(want), len(got))
sys.exit(0 if want == got else 1)
PY
for f in a.fxt b.fxt.zst c.fxt ftr.fxt; do "$FXT" json "$f" -o "${f%%.*}.json" 2>/dev/null; done
"$FXT" json m.fxt.gz -o m.json 2>/dev/null
check "fxt json of the merge: each event at the right time (offset applied) with the right names" 'python3 cmpjson.py'
"$FXT" merge a.fxt a.fxt -o aa.fxt 2>/dev/null
check "merging a trace with itself: ids remapped, strings resolved per provider" '[ "$("$FXT" check aa.fxt | grep -c " 0 errors")" = 1 ] && [ "$("$FXT" dump --json aa.fxt | jq -r "select(.kind==\"event\" and .name==null) | .kind" | wc -l)" = 0 ]'

# cut
"$FXT" synth --seed 5 --providers 2 --events 20000 -o big.fxt
"$FXT" cut big.fxt --from 2ms --to 6ms -o win.fxt.zst 2>/dev/null; rc=$?
check "cut exits 0" '[ $rc -eq 0 ]'
"$FXT" check win.fxt.zst > win.check; rc=$?
check "cut output passes fxt check with no error" '[ $rc -eq 0 ] && grep -q " 0 errors" win.check'
cat > cmpcut.py <<'PY'
import json, sys
def events(path):
    tps, out = {}, []
    for l in open(path):
        r = json.loads(l)
        if r["kind"] == "init": tps[r["provider"]] = r["ticks_per_second"]
        if r["kind"] == "event":
            ns = r["ts"] * 10**9 // tps.get(r["provider"], 10**9)
            out.append((ns, r["event"], r["category"], r["name"], r["pid"], r["tid"], json.dumps(r["args"], sort_keys=True)))
    return out
inp, cut = events("big.jsonl"), events("win.jsonl")
base = inp[0][0]
simple = ("instant", "counter", "duration_complete")
want = [e for e in inp if e[1] in simple and base + 2000000 <= e[0] <= base + 6000000]
got = [e for e in cut if e[1] in simple]
ok = want == got and len(want) > 100
ok = ok and all(base + 2000000 <= e[0] <= base + 6000000 for e in cut)
print(len(want), len(got), ok)
sys.exit(0 if ok else 1)
PY
"$FXT" dump --json big.fxt > big.jsonl; "$FXT" dump --json win.fxt.zst > win.jsonl
check "cut keeps exactly the events in the window (vs dump of the input)" 'python3 cmpcut.py'
"$FXT" cut big.fxt --category gfx --name "Poll*" -o cat.fxt 2>/dev/null
check "category/name filters, output valid" '[ "$("$FXT" dump --json cat.fxt | jq -r "select(.kind==\"event\") | .category" | sort -u | tr "\n" " ")" = "gfx " ] && "$FXT" check cat.fxt > /dev/null'
# a record that cannot be re-encoded (an unknown record of the other byte order) is
# dropped and reported, with its offset; everything else is kept and the exit status is 1
"$FXT" synth --seed 4 --events 200 --big-endian -o be.fxt
be_at=$(stat -c %s be.fxt)
printf '\0\0\0\0\0\0\0\056\1\2\3\4\5\6\7\10' >> be.fxt
# more records after it: a second trace minus its magic record
"$FXT" synth --seed 4 --events 200 --big-endian -o be.tail && tail -c +9 be.tail >> be.fxt
check "the hand-made unknown record reads as one (big-endian)" '[ "$("$FXT" dump --json be.fxt | jq -r "select(.kind==\"unknown\") | .offset")" = "$be_at" ]'
"$FXT" merge be.fxt --offset be.fxt=10 -o be.m.fxt 2> be.m.err; rc=$?
check "merge: refused record reported with its offset, exit 1" '[ $rc -eq 1 ] && grep -q "1 record(s) could not be re-encoded.*offset $be_at" be.m.err'
check "merge: every event of the input kept" '[ "$("$FXT" dump --json be.m.fxt | jq -c "select(.kind==\"event\")" | wc -l)" = "$("$FXT" dump --json be.fxt | jq -c "select(.kind==\"event\")" | wc -l)" ]'
"$FXT" cut be.fxt -o be.c.fxt 2> be.c.err; rc=$?
check "cut: refused record reported with its offset, exit 1" '[ $rc -eq 1 ] && grep -q "offset $be_at: record not re-encodable" be.c.err && grep -q "1 records not re-encodable" be.c.err'
check "cut: every event of the input kept" '[ "$("$FXT" dump --json be.c.fxt | jq -c "select(.kind==\"event\")" | wc -l)" = "$("$FXT" dump --json be.fxt | jq -c "select(.kind==\"event\")" | wc -l)" ]'
"$FXT" merge /nonexistent.fxt -o x.fxt 2>/dev/null; rc=$?
check "merge: missing input is an I/O error" '[ $rc -eq 3 ]'
exit $fail
