# SPDX-License-Identifier: MIT
# cmake --install into a prefix exits 0.
if [ "$(< install.rc)" != 0 ]; then
  tail -20 install.log install.err
  fail "cmake --install: exit status $(< install.rc)"
fi
