# SPDX-License-Identifier: MIT
# A record that cannot be re-encoded (an unknown record of the other byte
# order) is dropped and reported with its offset; exit status 1.
rc=0
"$FXT" merge be.fxt --offset be.fxt=10 -o "$T/be.m.fxt" 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "exit status" $rc 1
grep -q "1 record(s) could not be re-encoded.*offset $(< be.at)" "$T/err" || fail "refused record not reported with its offset"
