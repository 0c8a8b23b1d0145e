# SPDX-License-Identifier: MIT
# A short option's value may be attached: "-j2" is "--jobs 2"; a bad attached value is a
# usage error (exit 2) naming the option.
"$FXT" stats -j2 s.fxt > "$T/attached.out"
"$FXT" stats --jobs 2 s.fxt > "$T/long.out"
cmp -s "$T/attached.out" "$T/long.out" || fail "-j2 differs from --jobs 2"
rc=0
"$FXT" stats -jx s.fxt 2> "$T/err" || rc=$?
expect_eq "exit for -jx" "$rc" 2
grep -q "bad value for --jobs: 'x'" "$T/err" || fail "no clear message for -jx: $(cat "$T/err")"
