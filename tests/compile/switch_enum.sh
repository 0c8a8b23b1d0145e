#!/bin/sh
# SPDX-License-Identifier: MIT
# Adding a record kind must warn at every switch that has to handle it: the project's C flags
# include -Wswitch-enum. Builds the probe target whose switch misses FXT_KIND_UNKNOWN (with a
# default:) and expects the compiler to name the missing kind (gcc says
# [-Werror=switch-enum] when warnings are errors, [-Wswitch-enum] otherwise). Its complete twin is in the
# normal build (the control: a switch listing every real kind compiles).
# usage: switch_enum.sh BUILD_DIR PROBE_SOURCE
set -u
B=$1 SRC=$2
touch "$SRC" # rebuilt every time, also when warnings are not errors (FXT_WERROR=OFF)
out=$(cmake --build "$B" --target fxt_switch_enum_missing 2>&1)
if printf '%s\n' "$out" | grep -q 'FXT_KIND_UNKNOWN.*switch-enum'; then
    echo "ok: a switch missing a record kind is reported"
    exit 0
fi
echo "FAIL: a switch missing FXT_KIND_UNKNOWN compiled without a -Wswitch-enum diagnostic"
printf '%s\n' "$out" | tail -20
exit 1
