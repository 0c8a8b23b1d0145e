#!/bin/bash
# fxt json: valid JSON checked event by event against fxt dump --json (timestamps
# to the nanosecond, per-provider tick rates), the mapping on hand-built traces,
# filters, pipes and damaged input.
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1

"$FXT" synth --providers 3 --ticks-per-second 999999937 --all-records --events 30000 -o s.fxt
"$FXT" json s.fxt -o s.json 2> s.err; rc=$?
check "exit 0" '[ $rc -eq 0 ]'
check "parses with python and jq" 'python3 -m json.tool s.json > /dev/null && jq -e ".traceEvents|length > 1000" s.json > /dev/null'
"$FXT" dump --json s.fxt > s.jsonl
cat > cmp.py <<'PY'
import json, sys, decimal
dump = [json.loads(l) for l in open("s.jsonl")]
out = json.load(open("s.json"), parse_float=decimal.Decimal)
events = [e for e in out["traceEvents"] if e["ph"] != "M"]
tps = {}
expected = []
PH = {"instant": "i", "counter": "C", "duration_begin": "B", "duration_end": "E", "duration_complete": "X",
      "async_begin": "b", "async_instant": "n", "async_end": "e", "flow_begin": "s", "flow_step": "t", "flow_end": "f"}
def us(ticks, rate):
    ns = ticks * 10**9 // rate
    return decimal.Decimal("%d.%03d" % (ns // 1000, ns % 1000))
for r in dump:
    if r["kind"] == "init":
        tps[r["provider"]] = r["ticks_per_second"]
    elif r["kind"] == "event":
        expected.append((r, tps.get(r["provider"], 10**9)))
    elif r["kind"] == "log":
        expected.append((r, tps.get(r["provider"], 10**9)))
bad = 0
if len(events) != len(expected):
    print("count", len(events), len(expected)); sys.exit(1)
for e, (r, rate) in zip(events, expected):
    ok = e["ts"] == us(r["ts"], rate) and e["pid"] == r["pid"] and e["tid"] == r["tid"]
    if r["kind"] == "log":
        ok = ok and e["name"] == "log" and e["args"]["message"] == r["message"]
    else:
        ok = ok and e["ph"] == PH[r["event"]] and e["name"] == r["name"] and e["cat"] == r["category"]
        if r["event"] == "duration_complete":
            ok = ok and e["dur"] == us(r["end_ts"], rate) - us(r["ts"], rate)
        if r["event"].startswith("async"):
            ok = ok and e["id"] == "0x%x" % r["id"]
        if r["event"].startswith("flow"):
            ok = ok and e["id"] == str(r["id"]) and (r["event"] != "flow_end" or e["bp"] == "e")
        last = {a["name"]: a for a in r["args"]}  # duplicate names: the last one wins in JSON
        for a in last.values():
            v = e["args"][a["name"]]
            t = a["type"]
            if t in ("int32", "uint32", "int64", "uint64", "bool", "string"): ok = ok and v == a["value"]
            elif t == "null": ok = ok and v is None
            elif t == "pointer": ok = ok and v == "0x%x" % a["value"]
            elif t == "koid": ok = ok and v == "#%d" % a["value"]
            elif t == "double": ok = ok and float(v) == a["value"]
    if not ok:
        bad += 1
        if bad < 4: print("mismatch", e, r)
names = [e for e in out["traceEvents"] if e["ph"] == "M"]
ok_names = len([n for n in names if n["name"] == "thread_name"]) == 12 and len([n for n in names if n["name"] == "process_name"]) == 3
sysev = out["systemTraceEvents"]["events"]
print("events", len(events), "bad", bad, "names ok", ok_names, "system", len(sysev))
sys.exit(1 if bad or not ok_names or len(sysev) != 9 else 0)
PY
check "every event matches the dump (ts exact to the ns, ph, ids, args)" 'python3 cmp.py'
check "deterministic output" 'cmp -s s.json <("$FXT" json s.fxt 2>/dev/null)'
check "stdin to stdout" 'cat s.fxt | "$FXT" json - 2>/dev/null | cmp -s - s.json'
check "buffer-overflow reports on stderr" 'grep -q "reported a full buffer" s.err'

# filters
"$FXT" json --category gfx s.fxt 2>/dev/null > gfx.json
check "--category keeps only that category" '[ "$(jq -r "[.traceEvents[] | select(.ph != \"M\") | .cat] | unique | join(\",\")" gfx.json)" = gfx ]'
"$FXT" json --name "Poll*" --category "*" s.fxt 2>/dev/null > poll.json
check "--name glob" '[ "$(jq -r "[.traceEvents[] | select(.ph != \"M\") | .name | startswith(\"Poll\")] | all" poll.json)" = true ] && [ $(jq "[.traceEvents[] | select(.ph != \"M\")] | length" poll.json) -gt 10 ]'
"$FXT" json --time-range 1ms:2ms --no-system-events s.fxt 2>/dev/null > tr.json
check "--time-range relative to the first event" 'python3 -c "
import json,decimal
d=json.load(open(\"tr.json\"),parse_float=decimal.Decimal)
ev=[e for e in d[\"traceEvents\"] if e[\"ph\"]!=\"M\"]
allev=[e for e in json.load(open(\"s.json\"),parse_float=decimal.Decimal)[\"traceEvents\"] if e[\"ph\"]!=\"M\"]
base=allev[0][\"ts\"]
want=[e for e in allev if base+1000 <= e[\"ts\"] <= base+2000]
assert ev==want and len(ev)>10 and \"systemTraceEvents\" not in d, (len(ev), len(want))
"'

# hand-built: scope word, null/NaN args, koid/pointer, unknown types, per-provider rates
python3 - <<PY
import sys; sys.path.insert(0, "$SRC/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "a") + init(3) + string(1, "c") + thread(1, 5, 6)
t += event(INSTANT, 7, 1, 1, sref("inst"), args=[arg(0, sref("nul")), arg(5, sref("nan"), float("nan")), arg(8, sref("k"), 77), arg(7, sref("p"), 0xdeadbeef), arg(12, sref("u"))], extra=word(2))
t += event(INSTANT, 8, 1, 1, sref("inst2"), extra=word(1))
t += provider_info(2, "b") + event(BEGIN, 1000, (5, 6), sref("c"), sref("x"))
t += kernel_object(5, 1, sref("proc")) + kernel_object(6, 2, sref("thr"), args=[arg(8, sref("process"), 5)])
t += event(COUNTER, 1001, (5, 6), sref("c"), sref("ctr"), args=[arg(3, sref("v"), -3)], ident=2**63 + 5)
t += unknown_record(11, 3)
write("hand.fxt", t)
PY
"$FXT" json hand.fxt > hand.json 2>/dev/null; rc=$?
check "hand trace: exit 0" '[ $rc -eq 0 ]'
check "instant scope from the scope word" '[ "$(jq -c "[.traceEvents[] | select(.ph==\"i\") | .s]" hand.json)" = "[\"g\",\"p\"]" ]'
check "ticks at 3/s converted exactly (7 ticks = 2333333.333 us)" 'grep -q "\"ts\":2333333.333," hand.json'
check "provider 2 uses its own default rate" '[ "$(jq -c "[.traceEvents[] | select(.ph==\"B\") | .ts]" hand.json)" = "[1]" ]'
check "null, NaN, koid, pointer args; unknown arg type dropped" '[ "$(jq -c "[.traceEvents[] | select(.name==\"inst\") | .args]" hand.json)" = "[{\"nul\":null,\"nan\":\"NaN\",\"k\":\"#77\",\"p\":\"0xdeadbeef\"}]" ]'
check "64-bit counter id as a string" '[ "$(jq -r ".traceEvents[] | select(.ph==\"C\") | .id" hand.json)" = "0x8000000000000005" ]'
check "process and thread names as M events" '[ "$(jq -c "[.traceEvents[] | select(.ph==\"M\") | [.name,.pid,.tid,.args.name]]" hand.json)" = "[[\"process_name\",5,0,\"proc\"],[\"thread_name\",5,6,\"thr\"]]" ]'

# exactness at the extremes: 3 ticks per microsecond, timestamps near 2^63 and 2^64,
# ids above 2^53 (checked with integer arithmetic, never floats)
python3 - <<PY
import sys; sys.path.insert(0, "$SRC/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "big") + init(3000000) + string(1, "c") + thread(1, 7, 8)
t += event(BEGIN, 2**63 - 1, 1, 1, sref("b"))
t += event(COMPLETE, 2**63 + 2, 1, 1, sref("x"), end_ts=2**64 - 1)
t += event(ASYNC_BEGIN, 2**63 + 4, 1, 1, sref("a"), ident=2**53 + 1)
t += event(FLOW_STEP, 2**63 + 5, 1, 1, sref("f"), ident=2**64 - 1)
t += event(INSTANT, 10, 1, 1, sref("small"), args=[arg(4, sref("u"), 2**64 - 1), arg(3, sref("i"), -2**63)])
write("big.fxt", t)
PY
"$FXT" json big.fxt > big.json 2>/dev/null; rc=$?
check "huge timestamps: exit 0, valid JSON" '[ $rc -eq 0 ] && jq . big.json > /dev/null'
cat > big.py <<'PY'
import json, decimal, sys
d = json.load(open("big.json"), parse_float=decimal.Decimal, parse_int=decimal.Decimal)
ev = {e["name"]: e for e in d["traceEvents"]}
def us(ticks):  # exact: ticks * 1e6 / 3e6 us, floor to the ns
    ns = ticks * 10**9 // 3000000
    return decimal.Decimal(ns) / 1000
ok = ev["b"]["ts"] == us(2**63 - 1) and ev["b"]["ph"] == "B"
ok &= ev["x"]["ts"] == us(2**63 + 2) and ev["x"]["dur"] == us(2**64 - 1) - us(2**63 + 2)
ok &= ev["a"]["ts"] == us(2**63 + 4) and ev["a"]["id"] == "0x%x" % (2**53 + 1)
ok &= ev["f"]["id"] == str(2**64 - 1) and ev["f"]["ph"] == "t"
ok &= ev["small"]["ts"] == decimal.Decimal("3.333") and ev["small"]["args"] == {"u": 2**64 - 1, "i": -2**63}
ok &= str(ev["b"]["ts"]) == "3074457345618258602.333"
print(ev["b"]["ts"], ev["x"]["dur"], ok)
sys.exit(0 if ok else 1)
PY
check "ts/dur exact to the ns near 2^63 at 3 ticks/us; ids above 2^53 exact" 'python3 big.py'

# system events, log, fidl:blob large blob, invalid UTF-8: exact expected output
python3 - <<PY
import sys; sys.path.insert(0, "$SRC/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "sys") + init(2000000000) + thread(1, 100, 101) + thread(2, 100, 102)
t += context_switch(3000, 2, 3, 101, 102, args=[arg(1, sref("outgoing_weight"), 7), arg(1, sref("incoming_weight"), 9)])
t += thread_wakeup(4000, 1, 102, args=[arg(1, sref("weight"), 5)])
t += legacy_context_switch(5000, 3, 2, 1, (200, 201), 20, 31)
t += log(6000, 2, "hello \"world\"")
t += large_blob0(7000, 1, sref("fidl:blob"), sref("msg"), b"hello")
t += large_blob0(7001, 1, sref("other"), sref("skipped"), b"x")
t += event(INSTANT, 8000, 1, sref(b"c\xff"), sref(b"bad\xe2\x82"), args=[arg(6, sref("s"), sref(b"\xc0\xafok"))])
write("sys.fxt", t)
PY
"$FXT" json sys.fxt > sys.json 2> sys.err; rc=$?
check "system events: exit 0, valid JSON" '[ $rc -eq 0 ] && jq . sys.json > /dev/null'
check "context switch with weights as prio" '[ "$(jq -c ".systemTraceEvents.events[0]" sys.json)" = "{\"ph\":\"k\",\"ts\":1.5,\"cpu\":2,\"out\":{\"tid\":101,\"state\":3,\"prio\":7},\"in\":{\"tid\":102,\"prio\":9}}" ]'
check "thread wakeup" '[ "$(jq -c ".systemTraceEvents.events[1]" sys.json)" = "{\"ph\":\"w\",\"ts\":2,\"cpu\":1,\"tid\":102,\"prio\":5}" ]'
check "legacy context switch with indexed and inline threads" '[ "$(jq -c ".systemTraceEvents.events[2]" sys.json)" = "{\"ph\":\"k\",\"ts\":2.5,\"cpu\":3,\"out\":{\"pid\":100,\"tid\":101,\"state\":2,\"prio\":20},\"in\":{\"pid\":200,\"tid\":201,\"prio\":31}}" ]'
check "log as a global instant named log" '[ "$(jq -c ".traceEvents[] | select(.name==\"log\")" sys.json)" = "{\"name\":\"log\",\"ts\":3,\"pid\":100,\"tid\":102,\"ph\":\"i\",\"s\":\"g\",\"args\":{\"message\":\"hello \\\"world\\\"\"}}" ]'
check "fidl:blob large blob as ph O with base64; other large blobs skipped" '[ "$(jq -c "[.traceEvents[] | select(.ph==\"O\")]" sys.json)" = "[{\"cat\":\"fidl:blob\",\"name\":\"msg\",\"ts\":3.5,\"pid\":100,\"tid\":101,\"ph\":\"O\",\"id\":\"\",\"blob\":\"aGVsbG8=\"}]" ] && grep -q "1 records without a JSON form" sys.err'
cat > utf8.jq <<'JQ'
[.traceEvents[] | select(.ph=="i" and .name!="log") | [.cat,.name,.args.s]] == [["c\ufffd","bad\ufffd","\ufffd\ufffdok"]]
JQ
check "invalid UTF-8 replaced by U+FFFD (maximal subparts)" 'jq -e -f utf8.jq sys.json > /dev/null'
"$FXT" json --time-range @3000:3500 --no-system-events sys.fxt 2>/dev/null > abs.json
check "--time-range @FROM:TO is absolute" '[ "$(jq -c "[.traceEvents[] | .ts]" abs.json)" = "[3,3.5]" ]'
"$FXT" json --time-range @3.0us:3.5us --no-system-events sys.fxt 2>/dev/null > absd.json
check "--time-range takes decimals with units, like fxt cut" 'cmp -s abs.json absd.json'
"$FXT" json --time-range 1x:2 sys.fxt > /dev/null 2>&1; rc=$?
check "--time-range: a malformed time is a usage error" '[ $rc -eq 2 ]'

# byte order: a big-endian trace converts exactly like the same trace little-endian
"$FXT" synth --big-endian --all-records --events 3000 -o be.fxt && "$FXT" synth --all-records --events 3000 -o le.fxt
check "big-endian trace: same JSON as little-endian" '"$FXT" json be.fxt 2>/dev/null > be.json && "$FXT" json le.fxt 2>/dev/null | cmp -s - be.json && jq -e ".traceEvents | length > 100" be.json > /dev/null'

# damaged input: still valid JSON, exit 1
"$FXT" json "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > mal.json 2> mal.err; rc=$?
check "damaged trace: exit 1, valid JSON, errors counted" '[ $rc -eq 1 ] && jq . mal.json > /dev/null && grep -q "1996 damaged records" mal.err'
head -c 1000 s.fxt | "$FXT" json > cut.json 2>/dev/null; rc=$?
check "cut trace: exit 1, valid JSON" '[ $rc -eq 1 ] && jq . cut.json > /dev/null'
for f in "$SHARED"/samples/foreign/*.fxt; do
  "$FXT" json "$f" 2>/dev/null | jq -e .traceEvents > /dev/null
  check "$(basename $f) converts to valid JSON" '[ $? -eq 0 ]'
done
if [ -w /dev/full ]; then
  "$FXT" json s.fxt -o /dev/full 2> full.err; rc=$?
  check "write error (disk full): exit 3 with a message" '[ $rc -eq 3 ] && grep -q "error writing output" full.err'
fi
"$FXT" json --bogus > /dev/null 2>&1; rc=$?
check "usage error: exit 2" '[ $rc -eq 2 ]'
exit $fail
