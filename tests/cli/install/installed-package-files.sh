# SPDX-License-Identifier: MIT
# Installed: the CMake package and the pkg-config file.
libdir=$(< libdir)
[ -n "$libdir" ] || fail "no libfxt.a under $SCRATCH/prefix"
[ -f "$libdir/cmake/fxt/fxtConfig.cmake" ] || fail "no cmake/fxt/fxtConfig.cmake"
[ -f "$libdir/pkgconfig/fxt.pc" ] || fail "no pkgconfig/fxt.pc"
