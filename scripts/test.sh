#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make test`: the four phases of the build matrix (see docs/testing.md). Every
# phase runs even when an earlier one failed, so one run shows every failure;
# the exit status is non-zero if any phase failed. The output ends with the
# phase summary (each phase's result, wall time and CPU time, the total), the tests that
# skipped (a banner for those that should have run on this machine), then
# CTest's summary of the last phase (ASan+UBSan: the whole suite minus `slow`),
# held back from that phase's output so that it stays the last lines.
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
logs=$(mktemp -d) || exit 1
trap 'rm -rf "$logs"' EXIT
phases=(test-plain test-nocomp test-tsan test-asan)
declare -A dir=([test-plain]=build [test-nocomp]=build-nocomp [test-tsan]=build-tsan [test-asan]=build-asan)
# the tests write nothing into the source tree: checked at the end
find tests -name __pycache__ -type d -prune -exec rm -rf {} + 2> /dev/null
# cpu VAR: CPU time (user + system, in tenths of a second) of every process this script waited
# for so far, as `times` says in this shell (a subshell's count starts at zero)
cpu() {
  times > "$logs/times"
  printf -v "$1" '%s' "$(awk 'END { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] }
    printf "%.0f", s * 10 }' "$logs/times")"
}
secs() { echo "$(($1 / 10)).$(($1 % 10))"; } # tenths -> seconds
status=0 summary="" t0=$SECONDS
cpu c0
for phase in "${phases[@]}"; do
  echo "== make $phase"
  start=$SECONDS
  cpu cstart
  if [ "$phase" = "${phases[-1]}" ]; then
    # from CTest's "N% tests passed" line on, kept for the very end
    "$MAKE" --no-print-directory "$phase" 2>&1 | tee "$logs/$phase" |
      awk -v held="$logs/tail" '/^[0-9]+% tests passed/ { h = 1 } h { print > held; next } { print; fflush() }'
  else
    "$MAKE" --no-print-directory "$phase" 2>&1 | tee "$logs/$phase"
  fi
  if [ "${PIPESTATUS[0]}" = 0 ]; then r=ok; else r=FAILED; status=1; fi
  cpu cnow
  summary="$summary $phase $r $((SECONDS - start)) s (CPU $(secs $((cnow - cstart))) s);"
done
echo "== phases:$summary total $((SECONDS - t0)) s (CPU $(secs $((cnow - c0))) s)"

# Skips that follow from the phase or the machine, by the reason the test
# printed ("SKIP: ..."); any other skip is a test that should have run here.
expected_skip() { # phase reason
  case $2 in
    *"without compression support"*) [ "$1" = test-nocomp ] || [ "$1" = test-tsan ] ;;
    *"with compression support"*) [ "$1" = test-plain ] || [ "$1" = test-asan ] ;;
    *"address-space limit (a sanitizer build)"*) [ "$1" = test-asan ] || [ "$1" = test-tsan ] ;;
    *"needs root"* | *"--sched:"* | *"no scheduling capture here"*) [ "$(id -u)" != 0 ] ;;
    *"a directory above it is private"*) true ;; # the checkout's place: user nobody cannot reach it
    *) false ;;
  esac
}
loud=() by_design=()
for phase in "${phases[@]}"; do
  # CTest's list: "   123 - name (Skipped)" under "The following tests did not run:"
  names=$(awk '/^The following tests did not run:/ { l = 1; next }
    l && /^[ \t]+[0-9]+ - / { print $3; next } l { l = 0 }' "$logs/$phase")
  [ -n "$names" ] || continue
  # the reason each skipped test printed, from the phase's CTest log
  reasons=$(awk '/^[0-9]+\/[0-9]+ Testing: / { n = $3; got = 0 }
    /^SKIP/ && n != "" && !got { print n "\t" $0; got = 1 }' \
    "${dir[$phase]}/Testing/Temporary/LastTest.log" 2> /dev/null)
  for n in $names; do
    why=$(awk -F '\t' -v n="$n" '$1 == n { print $2; exit }' <<< "$reasons")
    if expected_skip "$phase" "$why"; then
      by_design+=("$phase: ${why:-no reason given}")
    else
      loud+=("$phase $n: ${why:-no reason given}")
    fi
  done
done
left=$(find tests -name __pycache__ -type d 2> /dev/null)
[ -z "$left" ] || { echo "!!! the tests left Python bytecode in the source tree: $left"; status=1; }
if [ ${#by_design[@]} -gt 0 ]; then
  echo "== skipped by design (phase or machine):"
  printf '%s\n' "${by_design[@]}" | sort | uniq -c | sed 's/^ */   /'
fi
if [ ${#loud[@]} -gt 0 ]; then
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!!! ${#loud[@]} TEST(S) THAT SHOULD RUN ON THIS MACHINE SKIPPED:"
  printf '!!!   %s\n' "${loud[@]}"
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
fi
[ ! -f "$logs/tail" ] || cat "$logs/tail"
exit $status
