# SPDX-License-Identifier: MIT
# Installed: the fxt command, the headers, static and shared libfxt.
P=$SCRATCH/prefix
libdir=$(< libdir)
[ -n "$libdir" ] || fail "no libfxt.a under $P"
[ -x "$P/bin/fxt" ] || fail "no bin/fxt"
[ -f "$P/include/fxt/reader.h" ] || fail "no include/fxt/reader.h"
[ -f "$P/include/fxt/trace.h" ] || fail "no include/fxt/trace.h"
[ -f "$libdir/libfxt.a" ] || fail "no libfxt.a"
ls "$libdir"/libfxt.so* > /dev/null || fail "no libfxt.so"
