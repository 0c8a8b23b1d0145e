# SPDX-License-Identifier: MIT
# needs: pkg-config cc
# pkg-config fxt: a consumer built the plain way (`pkg-config --cflags --libs fxt`, no rpath
# of its own, no --static) runs from a non-system prefix without LD_LIBRARY_PATH: fxt.pc
# links the static library, as fxt::fxt does (libfxt.so.0 was not found before).
libdir=$(< libdir)
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046 # pkg-config prints several words
cc -std=c11 "$SRC/tests/install/consumer.c" $(pkg-config --cflags fxt) -o "$T/pc_consumer" \
  $(pkg-config --libs fxt)
env -u LD_LIBRARY_PATH "$T/pc_consumer"
