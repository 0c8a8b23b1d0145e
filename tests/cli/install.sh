#!/bin/bash
# `make install` into a scratch prefix, then use what it installed the way a
# user would: the fxt command, find_package(fxt) (fxt::fxt, fxt::fxt_shared,
# fxt::zio) and pkg-config (fxt, fxt-zio).
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1
rm -rf prefix consumer-build
cmake --install "$BUILD" --prefix "$SCRATCH/prefix" > install.log 2>&1; rc=$?
check "cmake --install into a prefix" '[ $rc -eq 0 ]'
P="$SCRATCH/prefix"
libdir=$(dirname "$(find "$P" -name libfxt.a | head -1)")
check "installed: fxt command, headers, static and shared libfxt, libfxt_zio" \
  '[ -x "$P/bin/fxt" ] && [ -f "$P/include/fxt/reader.h" ] && [ -f "$P/include/fxt/trace.h" ] && [ -f "$libdir/libfxt.a" ] && ls "$libdir"/libfxt.so* > /dev/null && [ -f "$libdir/libfxt_zio.a" ]'
check "installed: CMake package and pkg-config files" \
  '[ -f "$libdir/cmake/fxt/fxtConfig.cmake" ] && [ -f "$libdir/cmake/fxt/fxtZioTargets.cmake" ] && [ -f "$libdir/pkgconfig/fxt.pc" ] && [ -f "$libdir/pkgconfig/fxt-zio.pc" ]'
check "the installed fxt command runs" '"$P/bin/fxt" version | grep -q "^fxt "'

cmake -S "$SRC/tests/install" -B consumer-build -DCMAKE_PREFIX_PATH="$P" > consumer.log 2>&1 &&
  cmake --build consumer-build >> consumer.log 2>&1; rc=$?
check "find_package(fxt): a consumer builds against fxt::fxt, fxt::fxt_shared and fxt::zio" '[ $rc -eq 0 ] && [ -x consumer-build/consumer_zio ]'
[ $rc -eq 0 ] || tail -20 consumer.log
check "it runs: static" 'consumer-build/consumer | grep -q "events 1"'
check "it runs: shared (found through the build rpath)" 'consumer-build/consumer_shared | grep -q "events 1"'
check "it runs: zstd round trip through fxt::zio" 'consumer-build/consumer_zio | grep -q "events 1"'

export PKG_CONFIG_PATH="$libdir/pkgconfig"
check "pkg-config: relocatable prefix" '[ "$(pkg-config --variable=includedir fxt)" -ef "$P/include" ]'
cc -std=c11 "$SRC/tests/install/consumer.c" $(pkg-config --cflags fxt) -o pc_consumer $(pkg-config --libs --static fxt) -Wl,-rpath,"$libdir" 2> pc.log
check "pkg-config fxt: a consumer builds and runs" '[ -x pc_consumer ] && ./pc_consumer | grep -q "events 1"'
cc -std=c11 -DWITH_ZIO "$SRC/tests/install/consumer.c" $(pkg-config --cflags fxt-zio) -o pc_zio \
  $(pkg-config --libs fxt-zio) -Wl,-rpath,"$libdir" 2>> pc.log
check "pkg-config fxt-zio: a consumer builds and runs" '[ -x pc_zio ] && ./pc_zio | grep -q "events 1"'
[ -s pc.log ] && cat pc.log
exit $fail
