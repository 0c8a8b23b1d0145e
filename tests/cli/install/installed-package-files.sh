# SPDX-License-Identifier: MIT
# Installed: the CMake package and the pkg-config files.
libdir=$(< libdir)
[ -n "$libdir" ] || fail "no libfxt.a under $SCRATCH/prefix"
[ -f "$libdir/cmake/fxt/fxtConfig.cmake" ] || fail "no cmake/fxt/fxtConfig.cmake"
[ -f "$libdir/pkgconfig/fxt.pc" ] || fail "no pkgconfig/fxt.pc"
[ -f "$libdir/pkgconfig/fxt-shared.pc" ] || fail "no pkgconfig/fxt-shared.pc"
