#!/bin/bash
# fxt stats: figures checked against a hand-built trace with known durations,
# per-provider tick rates, names, counters, dropped-record reports; synth traces.
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1

python3 - <<PY
import sys; sys.path.insert(0, "$SRC/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "first") + init(1000000000) + string(1, "cat") + string(2, "A") + string(3, "B") + string(4, "C")
t += thread(1, 10, 11) + kernel_object(10, 1, sref("proc")) + kernel_object(11, 2, sref("main"), args=[arg(8, sref("process"), 10)])
t += event(BEGIN, 1000, 1, 1, 2) + event(END, 2000, 1, 1, 2)
t += event(BEGIN, 3000, 1, 1, 2) + event(BEGIN, 3100, 1, 1, 3) + event(END, 3400, 1, 1, 3) + event(END, 6000, 1, 1, 2)
t += event(COMPLETE, 7000, 1, 1, 4, end_ts=7500) + event(COMPLETE, 8000, 1, 1, 4, end_ts=10000)
for v, d in ((5, 0.5), (-2, 2.25), (3, 1.0)):
    t += event(COUNTER, 4000, 1, 1, sref("ctr"), args=[arg(3, sref("v"), v), arg(5, sref("d"), d), arg(6, sref("s"), sref("str"))], ident=1)
t += provider_event(1, 0)
t += provider_info(2, "second") + init(2000000000) + event(COMPLETE, 2000, (20, 21), sref("cat"), sref("D"), end_ts=4000)
t += string(1, "x") + string(1, "y")
write("known.fxt", t)
PY
"$FXT" stats --json known.fxt > known.json; rc=$?
check "exit 0, valid JSON" '[ $rc -eq 0 ] && jq . known.json > /dev/null'
q() { jq -c "$1" known.json; }
check "A: 4 events, 2 durations, total/min/mean/max" '[ "$(q ".names[] | select(.name==\"A\") | [.count,.durations,.total_ns,.min_ns,.mean_ns,.max_ns]")" = "[4,2,4000,1000,2000,3000]" ]'
check "B nested inside A measured on its own" '[ "$(q ".names[] | select(.name==\"B\") | [.count,.durations,.total_ns]")" = "[2,1,300]" ]'
check "C from duration complete events" '[ "$(q ".names[] | select(.name==\"C\") | [.count,.durations,.total_ns,.min_ns,.max_ns]")" = "[2,2,2500,500,2000]" ]'
check "D converted with its provider's 2 GHz rate" '[ "$(q ".names[] | select(.name==\"D\") | [.total_ns]")" = "[1000]" ]'
check "percentiles within 6.25%" '[ "$(q ".names[] | select(.name==\"A\") | [(.p50_ns-3000|fabs) < 188, (.p99_ns-3000|fabs) < 188]")" = "[true,true]" ]'
check "sorted by total duration" '[ "$(q "[.names[].name]")" = "[\"A\",\"C\",\"D\",\"B\",\"ctr\"]" ]'
check "time span in ns across providers" '[ "$(q "[.first_ns,.last_ns,.span_ns]")" = "[1000,10000,9000]" ]'
check "providers with names, rates, table use, dropped-record reports" '[ "$(q "[.providers[] | select(.id != null) | [.id,.name,.ticks_per_second,.buffer_full_reports,.string_records,.string_reregistrations]]")" = "[[1,\"first\",1000000000,1,4,0],[2,\"second\",2000000000,0,2,1]]" ]'
check "process and thread names" '[ "$(q "[.objects[] | [.type,.koid,.name]]")" = "[[\"process\",10,\"proc\"],[\"thread\",11,\"main\"]]" ]'
check "counter samples" '[ "$(q "[.counters[] | [.name,.id,.samples]]")" = "[[\"ctr\",1,3]]" ]'
check "counter series: min/max/last per numeric argument" '[ "$(q "[.counters[].series[] | [.name,.samples,.min,.max,.last]]")" = "[[\"v\",3,-2,5,3],[\"d\",3,0.5,2.25,1]]" ]'
check "records by kind" '[ "$(q "[.kinds.event.count, .kinds.string.count, .kinds.kernel_object.count]")" = "[12,6,2]" ]'
"$FXT" stats known.fxt > known.txt; rc=$?
check "text output" '[ $rc -eq 0 ] && grep -q "DROPPED RECORDS: 1" known.txt && grep -q "thread  11 (process 10): main" known.txt'
"$FXT" stats --top 1 --json known.fxt > top.json
check "--top limits the table" '[ $(jq ".names | length" top.json) -eq 1 ]'
"$FXT" synth --events 20000 --providers 2 -o s.fxt
"$FXT" stats --json s.fxt > s.json; rc=$?
check "synth trace: events add up" '[ $rc -eq 0 ] && [ "$(jq "[.categories[]] | add" s.json)" = "$("$FXT" dump --json s.fxt | jq -s "[.[] | select(.kind==\"event\")] | length")" ]'
"$FXT" stats "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > /dev/null 2>&1; rc=$?
check "damaged trace: exit 1" '[ $rc -eq 1 ]'
for f in "$SHARED"/samples/foreign/fxtcpp_*.fxt "$SHARED"/samples/foreign/ftr_complete_2threads.fxt; do
  "$FXT" stats --json "$f" > foreign.json; rc=$?
  check "$(basename $f): exit 0, events counted" '[ $rc -eq 0 ] && [ "$(jq "[.categories[]] | add" foreign.json)" = "$("$FXT" dump --json "$f" | jq -s "[.[] | select(.kind==\"event\")] | length")" ]'
done
"$FXT" stats --json "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > mal.json 2>/dev/null; rc=$?
check "damaged trace: still a JSON summary" '[ $rc -eq 1 ] && jq -e .records mal.json > /dev/null'
if [ -w /dev/full ]; then
  "$FXT" stats "$SHARED/samples/foreign/ftr_complete_2threads.fxt" > /dev/full 2> full.err; rc=$?
  check "stats: write error (disk full): exit 3 with a message" '[ $rc -eq 3 ] && grep -q "error writing output" full.err'
  "$FXT" stats --json "$SHARED/samples/foreign/ftr_complete_2threads.fxt" > /dev/full 2> full.err; rc=$?
  check "stats --json: write error (disk full): exit 3 with a message" '[ $rc -eq 3 ] && grep -q "error writing output" full.err'
fi
exit $fail
