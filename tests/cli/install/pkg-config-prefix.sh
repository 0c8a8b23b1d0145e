# SPDX-License-Identifier: MIT
# needs: pkg-config
# pkg-config: the .pc file finds the prefix it was installed into (relocatable).
libdir=$(< libdir)
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
inc=$(pkg-config --variable=includedir fxt)
[ "$inc" -ef "$SCRATCH/prefix/include" ] || fail "includedir $inc is not $SCRATCH/prefix/include"
