# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# SIGSEGV after the events: each mode keeps every committed record; the
# archive says the provider was killed by signal 11.
# (a sanitizer build's handler would turn the signal into an exit status: let it kill)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0"
crash_case segv 139
"$FXT" dump "$T/circular.fxt" | grep -q 'name="provider_killed" args={"signal": int32 11' ||
  fail "no provider_killed instant with signal 11"
