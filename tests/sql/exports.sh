#!/bin/sh
# SPDX-License-Identifier: MIT
# The loadable module exports its entry point and fxt_sqlite_register, nothing of the libfxt it
# carries: exports.sh MODULE. Exit 77 (skipped) without nm.
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
got=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRW]$/ { print $3 }' | sort | tr '\n' ' ')
want="fxt_sqlite_register sqlite3_fxtsqlite_init "
[ "$got" = "$want" ] || { echo "exports: $got"; echo "expected: $want"; exit 1; }
