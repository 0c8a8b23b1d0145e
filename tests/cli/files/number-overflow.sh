# SPDX-License-Identifier: MIT
# Numbers that would wrap are usage errors (exit 2), never wrapped values: synth's tick
# rate times the provider count (provider k ticks at N*k), and its timestamps' ns * rate;
# merge --offset beyond what a timestamp can be shifted by.
bad() { # WHAT CMD...
  local what=$1 rc=0
  shift
  "$@" -o "$T/out.fxt" 2> "$T/err" || rc=$?
  expect_eq "$what: exit status" $rc 2
  expect_eq "$what: stderr lines" "$(wc -l < "$T/err")" 1
  [ ! -e "$T/out.fxt" ] || fail "$what: wrote an output"
}
bad "rate x 2 providers" "$FXT" synth --events 10 --providers 2 --ticks-per-second 18446744073709551615
bad "rate x 1000 providers" "$FXT" synth --events 10 --providers 1000 --ticks-per-second 18446744073709552
bad "rate past ns x rate" "$FXT" synth --events 10 --ticks-per-second 20000000000
bad "offset INT64_MIN" "$FXT" merge a.fxt --offset a.fxt=-9223372036854775808
bad "offset INT64_MAX" "$FXT" merge a.fxt --offset a.fxt=9223372036854775807
bad "offset past int64" "$FXT" merge a.fxt --offset a.fxt=-9223372036854775809
# the largest accepted values work
"$FXT" synth --events 10 --providers 2 --ticks-per-second 9223372036 -o "$T/ok.fxt"
"$FXT" merge a.fxt --offset a.fxt=-500000000000000000 -o "$T/ok2.fxt" 2> /dev/null
bad "offset past 5e17 ns" "$FXT" merge a.fxt --offset a.fxt=-500000000000000001
