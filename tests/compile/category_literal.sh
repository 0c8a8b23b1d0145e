#!/bin/sh
# SPDX-License-Identifier: MIT
# A trace macro's category must be a string literal: a call site keeps its
# category for the whole run, so a runtime one would silently stay the first
# value. Checks that C and C++ reject a runtime category at compile time, and
# (the control) accept a literal one.
# usage: category_literal.sh CC CXX INCLUDE_DIR SCRATCH
set -u
CC=$1 CXX=$2 INC=$3 T=$4
mkdir -p "$T"
cat >"$T/ok.c" <<'SRC'
#include <fxt/trace.h>
#define CAT "io"
void f(const char *name) { FXT_INSTANT("io", name); FXT_INSTANT(CAT, "x"); { FXT_DURATION("io", name); } }
SRC
cat >"$T/bad.c" <<'SRC'
#include <fxt/trace.h>
void f(const char *cat) { FXT_INSTANT(cat, "x"); }
SRC
for lang in c c++; do
    cc=$CC
    [ "$lang" = c++ ] && cc=$CXX
    "$cc" -x "$lang" -fsyntax-only -I"$INC" "$T/ok.c" || { echo "FAIL: $lang rejects a literal category"; exit 1; }
    if "$cc" -x "$lang" -fsyntax-only -I"$INC" "$T/bad.c" 2>"$T/err.txt"; then
        echo "FAIL: $lang accepts a runtime category"
        exit 1
    fi
    grep -q 'bad.c:2' "$T/err.txt" || { echo "FAIL: $lang: the error does not point at the call"; cat "$T/err.txt"; exit 1; }
done
echo "ok: runtime categories are rejected in C and C++"
