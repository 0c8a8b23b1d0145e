#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages libfxt needs, installed when missing: the one list used by
# scripts/setup-and-demo (SET=demo: build and run the demo) and
# scripts/setup-and-test (SET=test: every test phase; .ci/run calls it).
#
#   bash scripts/deps.sh demo|test
#
# Installs with apt-get as root, or through sudo when it needs no password;
# otherwise prints the exact apt-get line. Exit status 1 (after that line) only
# when a package the build cannot do without is missing (a compiler, make,
# cmake); a missing optional package is named with what it enables, and the
# build goes on without it (CMake's configure summary says what was built).
set -u
set_name=${1:-}
case $set_name in
  demo | test) ;;
  *) echo "usage: bash scripts/deps.sh demo|test" >&2; exit 2 ;;
esac

# "package|commands that stand for it (all must exist)|required|what it enables"
# A package counts as present when dpkg has it installed or, if commands are
# given, when they all exist (another distribution, Node.js from elsewhere: npm
# is then not Debian's, and installing Debian's would conflict with it).
build_pkgs=(
  "build-essential|cc c++ make|yes|the C and C++ compilers, make"
  "cmake|cmake|yes|the build"
  "ninja-build|ninja|no|faster builds (make otherwise)"
  "pkg-config|pkg-config|no|finding libtracefs (fxt record --sched)"
  "zlib1g-dev||no|gzip traces (libfxt_zio)"
  "libzstd-dev||no|zstd traces (libfxt_zio)"
  "libtracefs-dev||no|fxt record --sched (Linux scheduling records)"
  "libtraceevent-dev||no|fxt record --sched (Linux scheduling records)"
  "libsqlite3-dev||no|SQL output (libsqlite3)"
)
test_pkgs=(
  "clang|clang|no|the TSan and ASan+UBSan phases with clang (gcc otherwise)"
  "libclang-rt-dev||no|clang's sanitizer runtimes"
  "lld|ld.lld|no|a faster link of the sanitizer phases' programs (gold otherwise)"
  "clang-format|clang-format|no|the style test"
  "gzip|gzip|no|compression tests"
  "zstd|zstd|no|compression tests"
  "jq|jq|no|the CLI tests that read JSON"
  "python3|python3|no|the CLI tests in Python, the Perfetto and viewer tests"
  "nodejs|node|no|the viewer test (DevTools trace engine)"
  "npm|npm|no|the viewer test (npm ci in tests/viewer)"
  "libprotobuf32||no|Perfetto's trace_processor (../shared/tools/perfetto/tp)"
  "libsqlite3-0||no|Perfetto's trace_processor (../shared/tools/perfetto/tp)"
  "sqlite3|sqlite3|no|the SQL tests"
)
pkgs=("${build_pkgs[@]}")
[ "$set_name" = demo ] || pkgs+=("${test_pkgs[@]}")

have_dpkg=0
command -v dpkg-query > /dev/null 2>&1 && have_dpkg=1

present() { # package commands
  local c
  if [ $have_dpkg = 1 ] &&
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; then
    return 0
  fi
  [ -n "$2" ] || return 1
  for c in $2; do command -v "$c" > /dev/null 2>&1 || return 1; done
}

missing=() missing_req=() notes=()
for entry in "${pkgs[@]}"; do
  IFS='|' read -r pkg cmds req what <<< "$entry"
  present "$pkg" "$cmds" && continue
  missing+=("$pkg")
  [ "$req" = yes ] && missing_req+=("$pkg")
  notes+=("  $pkg: $what")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: missing Debian packages (${set_name}):"
printf '%s\n' "${notes[@]}"
line="apt-get install -y --no-install-recommends ${missing[*]}"
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo > /dev/null 2>&1 && sudo -n true 2> /dev/null; then sudo="sudo "; else sudo=none; fi
fi
if [ $have_dpkg = 0 ] || ! command -v apt-get > /dev/null 2>&1; then
  echo "deps: not a Debian system: install the equivalents of these packages yourself."
elif [ "$sudo" = none ]; then
  echo "deps: not root, and no password-less sudo: install them with"
  echo "  sudo apt-get update && sudo $line"
else
  echo "deps: ${sudo}apt-get update && ${sudo}$line"
  export DEBIAN_FRONTEND=noninteractive
  apt_install() { ${sudo}apt-get install -y -q --no-install-recommends "$@" > /dev/null < /dev/null; }
  # quiet, but apt-get's own errors (a package it cannot find) stay visible; when
  # the whole list fails, one package at a time, so one unknown name blocks no other
  ${sudo}apt-get update -q > /dev/null < /dev/null || echo "deps: apt-get update failed (above)"
  if ! apt_install "${missing[@]}"; then
    for pkg in "${missing[@]}"; do apt_install "$pkg" || echo "deps: $pkg not installed"; done
  fi
  missing=() missing_req=()
  for entry in "${pkgs[@]}"; do
    IFS='|' read -r pkg cmds req what <<< "$entry"
    present "$pkg" "$cmds" && continue
    missing+=("$pkg")
    [ "$req" = yes ] && missing_req+=("$pkg")
  done
fi
if [ ${#missing_req[@]} -gt 0 ]; then
  echo "deps: cannot go on without: ${missing_req[*]}"
  exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: going on without: ${missing[*]} (the configure summary says what is not built)"
else
  echo "deps: installed"
fi
exit 0
