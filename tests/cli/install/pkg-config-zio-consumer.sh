# SPDX-License-Identifier: MIT
# needs: compression pkg-config cc
# pkg-config fxt-zio: a consumer of the compression API builds and runs.
libdir=$(< libdir)
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046 # pkg-config prints several words
cc -std=c11 -DWITH_ZIO "$SRC/tests/install/consumer.c" $(pkg-config --cflags fxt-zio) -o "$T/pc_zio" \
  $(pkg-config --libs fxt-zio)
env -u LD_LIBRARY_PATH "$T/pc_zio"
