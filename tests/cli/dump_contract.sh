#!/bin/bash
# fxt dump --json against the dump contract (../shared/contracts/dump-jsonl.md):
# every kind, both byte orders, damaged and cut input, stdin, UTF-8 repair.
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1
C="$SRC/fuzz/corpus/reader"

"$FXT" dump --json "$C/all_records_le.fxt" > le.jsonl; rc=$?
check "exit 0 on a valid trace" '[ $rc -eq 0 ]'
check "every line parses as JSON" 'jq -c . le.jsonl > /dev/null'
check "36 records" '[ $(wc -l < le.jsonl) -eq 36 ]'
check "kinds in order" '[ "$(jq -r .kind le.jsonl | tr "\n" " ")" = "magic provider_info provider_section provider_event trace_info init string string thread event event event event event event event event event event event blob userspace_object userspace_object kernel_object context_switch thread_wakeup legacy_context_switch log large_blob large_blob unknown unknown unknown unknown unknown unknown " ]'
check "provider null before any provider record" '[ "$(jq -c "select(.offset==0) | .provider" le.jsonl)" = null ]'
check "provider_info makes its id current" '[ "$(jq -c "select(.kind==\"provider_info\") | [.provider,.id,.name]" le.jsonl)" = "[7,7,\"prov\"]" ]'
check "instant: resolved refs and all arg types" '[ "$(jq -c "select(.offset==120) | [.event,.ts,.pid,.tid,.category,.name,[.args[].type]]" le.jsonl)" = "[\"instant\",4096,16,32,\"cat\",\"name\",[\"null\",\"int32\",\"uint32\",\"int64\",\"uint64\",\"double\",\"string\",\"pointer\",\"koid\",\"bool\",\"unknown\"]]" ]'
check "64-bit integers exact" 'grep -q "\"value\":18446744073709551615" le.jsonl && grep -q "\"value\":-2}" le.jsonl'
check "unknown arg has arg_type" '[ "$(jq -c "select(.offset==120) | .args[10]" le.jsonl)" = "{\"name\":\"name\",\"type\":\"unknown\",\"arg_type\":10}" ]'
check "counter id after args" '[ "$(jq -c "select(.offset==296) | [.id,.pid,.tid,.category,.name]" le.jsonl)" = "[42,49,50,\"c\",\"cnt\"]" ]'
check "duration complete end_ts" '[ "$(jq -c "select(.event==\"duration_complete\") | [.ts,.end_ts]" le.jsonl)" = "[12288,13568]" ]'
check "async/flow ids" '[ "$(jq -c "select(.event != null and (.event|test(\"async|flow\"))) | .id" le.jsonl | tr -d "\n")" = "101010151515" ]'
check "large blob formats" '[ "$(jq -c "select(.kind==\"large_blob\") | [.format,.category,.name,.size,.ts]" le.jsonl | tr -d "\n")" = "[0,\"cat\",\"lb\",3,28672][1,\"\",\"name\",9,null]" ]'
check "unknown subtypes" '[ "$(jq -c "select(.kind==\"unknown\") | [.type,.subtype,.size_words]" le.jsonl | tr -d "\n")" = "[10,null,2][4,11,2][8,3,1][0,5,1][15,1,1][15,2,1]" ]'
check "legacy context switch threads" '[ "$(jq -c "select(.kind==\"legacy_context_switch\") | [.out_pid,.out_tid,.in_pid,.in_tid,.out_prio,.in_prio]" le.jsonl)" = "[16,32,65,66,10,20]" ]'
check "extra keys only x_" '[ -z "$(jq -r "keys[]" le.jsonl | sort -u | grep -vxE "offset|kind|provider|id|name|event|info_type|ticks_per_second|index|value|pid|tid|ts|category|args|end_ts|blob_type|size|ptr|koid|obj_type|cpu|out_state|out_tid|in_tid|out_pid|in_pid|out_prio|in_prio|message|format|type|subtype|size_words|x_.*")" ]'

"$FXT" dump --json "$C/all_records_be.fxt" > be.jsonl
check "big-endian trace decodes the same" 'cmp -s le.jsonl be.jsonl'
"$FXT" dump --json - < "$C/all_records_le.fxt" > stdin.jsonl
check "stdin gives the same output" 'cmp -s le.jsonl stdin.jsonl'

"$FXT" dump --json "$C/all_records_cut.fxt" > cut.jsonl; rc=$?
check "cut trace: exit 1" '[ $rc -eq 1 ]'
check "cut trace: records before the cut, then one error" '[ $(wc -l < cut.jsonl) -eq 35 ] && [ "$(tail -1 cut.jsonl | jq -r .kind)" = error ] && [ "$(tail -1 cut.jsonl | jq .offset)" = 952 ]'

"$FXT" dump --json "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > mal.jsonl; rc=$?
check "damaged foreign trace: exit 1" '[ $rc -eq 1 ]'
check "damaged foreign trace: each bad counter is an error, reading goes on" '[ $(jq -r "select(.kind==\"error\") | .kind" mal.jsonl | wc -l) -eq 1996 ] && [ "$(tail -1 mal.jsonl | jq -r .kind)" = error ] && [ $(jq -r .kind mal.jsonl | grep -vc error) -eq 4 ]'
for f in "$SHARED"/samples/foreign/fxtcpp_*.fxt "$SHARED"/samples/foreign/ftr_complete_2threads.fxt; do
  "$FXT" dump --json "$f" > s.jsonl; rc=$?
  check "$(basename $f): exit 0, valid JSON, no null names" '[ $rc -eq 0 ] && [ -z "$(jq -c "select(.kind==\"event\" and (.name==null or .pid==null))" s.jsonl)" ]'
done

# size 0 record: one error at its offset, then stop
printf '\x10\x00\x04\x46\x78\x54\x16\x00\x04\x00\x00\x00\x00\x00\x00\x00\x10\x00\x04\x46\x78\x54\x16\x00' > zero.fxt
"$FXT" dump --json zero.fxt > zero.jsonl; rc=$?
check "size-0 record: error at 8, then stop" '[ $rc -eq 1 ] && [ $(wc -l < zero.jsonl) -eq 2 ] && [ "$(tail -1 zero.jsonl | jq -c "[.kind,.offset]")" = "[\"error\",8]" ]'

# UTF-8 repair and escaping: string 1 = "a" FF E0 80 "b" TAB 01 (len 8)
printf '\x22\x00\x01\x00\x08\x00\x00\x00a\xff\xe0\x80b\t\x01"' > utf.fxt
"$FXT" dump --json utf.fxt > utf.jsonl
check "ill-formed UTF-8 replaced per maximal subpart, controls escaped" '[ "$(jq -r .value utf.jsonl | od -An -tx1 | tr -d " \n")" = "61efbfbdefbfbdefbfbd620901220a" ] && grep -q "\\\\u0001" utf.jsonl'

# text mode and usage
"$FXT" dump "$C/all_records_le.fxt" > text.txt; rc=$?
check "text dump: one line per record with offsets" '[ $rc -eq 0 ] && [ $(wc -l < text.txt) -eq 36 ] && grep -q "^       120  \[p7\] event instant ts=4096" text.txt'
"$FXT" dump --bogus > /dev/null 2>&1; rc=$?
check "unknown option: exit 2" '[ $rc -eq 2 ]'
"$FXT" dump /nonexistent/file > /dev/null 2>&1; rc=$?
check "missing file: exit 3" '[ $rc -eq 3 ]'
"$FXT" help dump | grep -q "usage: fxt dump"
check "help" '[ $? -eq 0 ]'
exit $fail
