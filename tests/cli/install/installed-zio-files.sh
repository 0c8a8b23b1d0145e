# SPDX-License-Identifier: MIT
# needs: compression
# Installed with compression support: libfxt_zio, its CMake targets and its
# pkg-config file.
libdir=$(< libdir)
[ -n "$libdir" ] || fail "no libfxt.a under $SCRATCH/prefix"
[ -f "$libdir/libfxt_zio.a" ] || fail "no libfxt_zio.a"
[ -f "$libdir/cmake/fxt/fxtZioTargets.cmake" ] || fail "no cmake/fxt/fxtZioTargets.cmake"
[ -f "$libdir/pkgconfig/fxt-zio.pc" ] || fail "no pkgconfig/fxt-zio.pc"
