# SPDX-License-Identifier: MIT
# needs: python3
# Standalone processes (no manager, FXT_TRACE_OUTPUT with %p) on the TSC use
# one rate per boot (the first measurement is cached, here in $T): merged, their
# traces show no receive before its send. The cache holds the boot id and rate.
unset FXT_TRACE_MANAGER FXT_TRACE_CLOCK
export XDG_RUNTIME_DIR=$T
FXT_TRACE_OUTPUT="$T/r-%p.fxt" "$PROG" ring 3 100
"$FXT" merge "$T"/r-*.fxt -o "$T/merged.fxt" 2> /dev/null
check_clean "$T/merged.fxt"
verify "$T/merged.fxt" ring 3 100
if grep -q constant_tsc /proc/cpuinfo && grep -q nonstop_tsc /proc/cpuinfo; then
  read -r id rate < "$T/fxt-tsc-rate"
  expect_eq "boot id" "$id" "$(cat /proc/sys/kernel/random/boot_id)"
  [ "$rate" -gt 100000000 ] || fail "rate $rate"
  expect_eq "cache mode" "$(stat -c %a "$T/fxt-tsc-rate")" 600
fi
