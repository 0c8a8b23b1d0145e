#!/bin/bash
# fxt synth: valid output covering every record kind, determinism, byte orders, sizes.
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1

"$FXT" synth --all-records --providers 3 --events 20000 --args 15 -o all.fxt; rc=$?
check "synth exits 0" '[ $rc -eq 0 ]'
"$FXT" dump --json all.fxt > all.jsonl; rc=$?
check "dump --json: exit 0" '[ $rc -eq 0 ]'
check "no error records" '[ -z "$(jq -c "select(.kind==\"error\")" all.jsonl)" ]'
check "every record kind but unknown" '[ "$(jq -r .kind all.jsonl | sort -u | tr "\n" " ")" = "blob context_switch event init kernel_object large_blob legacy_context_switch log magic provider_event provider_info provider_section string thread thread_wakeup trace_info userspace_object " ]'
check "all 11 event types" '[ $(jq -r "select(.kind==\"event\") | .event" all.jsonl | sort -u | wc -l) -eq 11 ]'
check "all 10 argument types" '[ $(jq -r "select(.args) | .args[].type" all.jsonl | sort -u | wc -l) -eq 10 ]'
check "no unresolved strings or threads" '[ -z "$(jq -c "select(.kind==\"event\" and (.name==null or .category==null or .pid==null))" all.jsonl)" ]'
check "three providers with their own tick rates" '[ "$(jq -c "select(.kind==\"init\") | [.provider,.ticks_per_second]" all.jsonl | tr -d "\n")" = "[1,1000000000][2,2000000000][3,3000000000]" ]'
check "durations balanced per thread" '[ -z "$(jq -r "select(.kind==\"event\" and (.event==\"duration_begin\" or .event==\"duration_end\")) | \"\(.provider) \(.tid) \(.event)\"" all.jsonl | awk "{k=\$1\" \"\$2; if (\$3==\"duration_begin\") d[k]++; else d[k]--; if (d[k]<0) print \"neg\"} END {for (k in d) if (d[k]) print \"open\"}")" ]'

"$FXT" synth --seed 7 --size 300k -o a.fxt && "$FXT" synth --seed 7 --size 300k -o b.fxt
check "deterministic for a seed" 'cmp -s a.fxt b.fxt'
"$FXT" synth --seed 8 --size 300k -o c.fxt
check "another seed differs" '! cmp -s a.fxt c.fxt'
size=$(stat -c %s a.fxt)
check "size honoured (300 KiB, within one record)" '[ $size -ge 307200 ] && [ $size -lt 340000 ]'
"$FXT" synth --seed 7 --size 300k --big-endian -o be.fxt
check "big-endian trace starts with the swapped magic" '[ "$(head -c 8 be.fxt | od -An -tx1 | tr -d " \n")" = "0016547846040010" ]'
check "big-endian dump equals little-endian dump" 'cmp -s <("$FXT" dump --json a.fxt) <("$FXT" dump --json be.fxt)'
"$FXT" synth --events 100 > stdout.fxt
check "writes to stdout" '[ $("$FXT" dump --json stdout.fxt | jq -r "select(.kind==\"event\") | .kind" | wc -l) -ge 100 ]'
"$FXT" synth --threads 0 > /dev/null 2>&1; rc=$?
check "bad option value: exit 2" '[ $rc -eq 2 ]'
"$FXT" synth --events 3000 --args 6 --args-mix int -o int.fxt
check "--args-mix int: no string or bool args on durations/instants" '[ -z "$("$FXT" dump --json int.fxt | jq -c "select(.kind==\"event\" and .event!=\"counter\") | select(.args) | .args[] | select(.type==\"string\" or .type==\"bool\" or .type==\"pointer\")")" ] && [ $("$FXT" dump --json int.fxt | jq -r "select(.kind==\"event\") | select(.args) | .args[].type" | grep -c int32) -gt 100 ]'
"$FXT" synth --events 3000 --args 6 --args-mix string -o str.fxt
check "--args-mix string: strings dominate" '[ "$("$FXT" dump --json str.fxt | jq -r "select(.kind==\"event\") | select(.args) | .args[].type" | sort | uniq -c | sort -rn | head -1 | awk "{print \$2}")" = string ]'
"$FXT" synth --args-mix bogus > /dev/null 2>&1; rc=$?
check "bad --args-mix: exit 2" '[ $rc -eq 2 ]'
exit $fail
