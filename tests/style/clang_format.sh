#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every C/C++ source of the project is formatted by .clang-format: prints the
# files that differ (fix with `clang-format -i FILE`). Skips (77) when
# clang-format is absent.
set -u
cd "$1" || exit 1
command -v clang-format > /dev/null 2>&1 || { echo "SKIP: clang-format not found"; exit 77; }
# one clang-format process for every file: it names each file that differs
mapfile -t files < <(find include src tools tests fuzz bench examples -name '*.[ch]' -o -name '*.cpp' | sort)
clang-format --dry-run --Werror "${files[@]}" 2>&1 | grep -o "^[^:]*:[0-9]*:[0-9]*: error" | cut -d: -f1 | sort -u | sed 's/^/not formatted: /' | grep . && exit 1
exit 0
