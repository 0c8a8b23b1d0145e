# SPDX-License-Identifier: MIT
# A trace of libfxt's engine where the main thread begins 60 async operations and
# flows and worker threads end them (tests/viewer/xthread_trace.c): the engine
# writes one thread's chunks after another, so ends come before their begins in
# the file. fxt check matches in time order: no error, no warning.
[ -x "$BUILD/tests/fxt_xthread_trace" ] || { echo "SKIP: $BUILD/tests/fxt_xthread_trace not built"; exit 77; }
"$BUILD/tests/fxt_xthread_trace" "$T/x.fxt" 60
"$FXT" check "$T/x.fxt" > "$T/out.txt"
expect_eq "summary" "$(tail -1 "$T/out.txt" | sed 's/^fxt check: [0-9]* records, [0-9]* bytes: //')" "0 errors, 0 warnings"
