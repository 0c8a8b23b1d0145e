# SPDX-License-Identifier: MIT
# `cmake --install` of the build tree into prefix/ (install.log, install.err,
# install.rc; the library dir in libdir), then a consumer project
# (tests/install) built against it with find_package(fxt) in consumer-build/
# (consumer.log, consumer.rc). The cases use what was installed the way a
# user would: the fxt command, find_package(fxt) (fxt::fxt, fxt::fxt_shared,
# fxt::zio) and pkg-config (fxt, fxt-zio).
[ -n "$BUILD" ] || fail "BUILD (the build tree to install) is not set"
record install cmake --install "$BUILD" --prefix "$SCRATCH/prefix" > install.log
lib=$(find prefix -name libfxt.a | head -1)
if [ -n "$lib" ]; then
  echo "$SCRATCH/${lib%/*}" > libdir
else
  : > libdir
fi
# shellcheck disable=SC2016 # expanded by sh, from the environment
record consumer sh -c 'cmake -S "$SRC/tests/install" -B consumer-build -DCMAKE_PREFIX_PATH="$SCRATCH/prefix" &&
  cmake --build consumer-build' > consumer.log
