#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make test`: the four phases of the build matrix (see docs/testing.md). Every
# phase runs even when an earlier one failed, so one run shows every failure;
# the exit status is non-zero if any phase failed. The ASan phase runs last so
# the output ends with CTest's summary of the whole suite under sanitizers.
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
status=0
summary=""
t0=$(date +%s)
for phase in test-plain test-nocomp test-tsan test-asan; do
  if [ "$phase" = test-asan ]; then
    echo "== phases so far:$summary (total $(( $(date +%s) - t0 )) s)"
  fi
  echo "== make $phase"
  start=$(date +%s)
  if "$MAKE" --no-print-directory "$phase"; then r=ok; else r=FAILED; status=1; fi
  summary="$summary $phase $r $(( $(date +%s) - start )) s;"
done
exit $status
