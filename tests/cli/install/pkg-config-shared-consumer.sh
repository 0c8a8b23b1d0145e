# SPDX-License-Identifier: MIT
# needs: pkg-config cc
# pkg-config fxt-shared: a consumer linked with the shared libfxt the plain way runs from a
# non-system prefix without LD_LIBRARY_PATH (the .pc carries an rpath to its libdir), and
# does use the installed libfxt.so.0.
libdir=$(< libdir)
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046 # pkg-config prints several words
cc -std=c11 "$SRC/tests/install/consumer.c" $(pkg-config --cflags fxt-shared) -o "$T/pc_shared" \
  $(pkg-config --libs fxt-shared)
env -u LD_LIBRARY_PATH "$T/pc_shared"
so=$(env -u LD_LIBRARY_PATH ldd "$T/pc_shared" | awk '/libfxt\.so/ {print $3}')
[ -n "$so" ] || fail "not linked with the shared libfxt: $(ldd "$T/pc_shared")"
[ "$so" -ef "$libdir/${so##*/}" ] || fail "libfxt.so from $so, not from $libdir"
