#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every source, script and build file carries an SPDX licence line near its top.
set -u
cd "$1" || exit 1
mapfile -t files < <(find include src tools tests fuzz bench examples scripts cmake .ci \
  -type f \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.sh' -o -name '*.py' -o -name '*.cmake' \
  -o -name '*.txt' -o -name '*.in' -o -name run -o -name '*.bash' -o -name '*.mjs' \) -not -path '*/node_modules/*' | sort)
files+=(CMakeLists.txt Makefile)
# one awk over all files: those without the line in their first 5 lines
awk 'FNR == 1 { n++; name[n] = FILENAME } FNR <= 5 && /SPDX-License-Identifier: MIT/ { ok[FILENAME] = 1 }
     END { bad = 0; for (i = 1; i <= n; i++) if (!(name[i] in ok)) { print "no SPDX line: " name[i]; bad = 1 }
           exit bad }' "${files[@]}"
