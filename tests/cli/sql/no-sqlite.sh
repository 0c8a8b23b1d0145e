# SPDX-License-Identifier: MIT
# needs: no-sqlite
# Built without SQLite, fxt sql is there and says in one line what it lacks (exit 2).
"$FXT" sql s.fxt "select 1"
