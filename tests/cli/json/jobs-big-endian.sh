# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# labels: threads
# -j 3 gives the output of -j 1 byte for byte on a big-endian synth trace with every record kind.
"$FXT" synth --big-endian --all-records --providers 2 --events 2000 -o "$T/be.fxt"
same_any_jobs "$T/be.fxt"
grep -q '"ph":"X"' "$T/one.out" || fail "no complete events"
