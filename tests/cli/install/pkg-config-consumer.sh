# SPDX-License-Identifier: MIT
# needs: pkg-config cc
# pkg-config fxt: a consumer builds (static flags) and runs.
libdir=$(< libdir)
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046 # pkg-config prints several words
cc -std=c11 "$SRC/tests/install/consumer.c" $(pkg-config --cflags fxt) -o "$T/pc_consumer" \
  $(pkg-config --libs --static fxt) -Wl,-rpath,"$libdir"
"$T/pc_consumer"
