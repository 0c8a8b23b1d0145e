# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# A program that aborts after 1000 events on each of 4 threads, under fxt record
# in each mode: every committed record is in the archive, exit status 128+6.
crash_case abort 134
grep -q "killed by signal 6" "$T/oneshot.err" || fail "summary does not say signal 6: $(cat "$T/oneshot.err")"
