# SPDX-License-Identifier: MIT
# needs: python3
# SIGSEGV after the events: each mode keeps every committed record; the
# archive says the provider was killed by signal 11.
crash_case segv 139
"$FXT" dump "$T/circular.fxt" | grep -q 'name="provider_killed" args={"signal": int32 11' ||
  fail "no provider_killed instant with signal 11"
