# SPDX-License-Identifier: MIT
# Sourced by run_case.sh before every case and setup script of tests/cli,
# which run under `set -eu`: helpers, and a trap that records which command
# ended a script early.
PYTHON=${PYTHON:-python3}
# an area's own helpers, if it has any
if [ -n "${AREA_DIR:-}" ] && [ -f "$AREA_DIR/common.bash" ]; then
  # shellcheck source=/dev/null
  . "$AREA_DIR/common.bash"
fi

# Where `set -e` stops a script, note the line and the command (run_case.sh
# shows the note when the case fails).
trap 'echo "stopped at ${BASH_SOURCE[0]##*/} line $LINENO by exit status $? of: $BASH_COMMAND" >> "${FXT_CASE_TRAP:-/dev/stderr}"' ERR

# fail MESSAGE...: end the case as failed, saying what was wrong.
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}

# expect_eq WHAT GOT WANT: GOT must be exactly WANT.
expect_eq() {
  [ "$2" = "$3" ] && return 0
  printf 'FAIL: %s\n  got:  %s\n  want: %s\n' "$1" "$2" "$3" >&2
  exit 1
}

# record NAME CMD...: run CMD, keeping its stderr in NAME.err and its exit
# status in NAME.rc (its stdout goes where the caller redirects it). Never
# fails: for setup scripts that run a command under test once for several
# cases to examine.
record() {
  local name=$1 rc=0
  shift
  "$@" 2> "$name.err" || rc=$?
  echo "$rc" > "$name.rc"
}

# have NEED: whether a `# needs:` word holds (see README.md). Setup scripts use
# it to generate what they can.
have() {
  case $1 in
    shared) [ -d "$SHARED/samples/foreign" ] ;;
    compression) fxt_has_zio ;;
    no-compression) ! fxt_has_zio ;;
    devfull) [ -w /dev/full ] ;;
    python3) command -v "$PYTHON" > /dev/null 2>&1 ;;
    *) command -v "$1" > /dev/null 2>&1 ;;
  esac
}

# why_not NEED: one line saying what is missing.
why_not() {
  case $1 in
    shared) echo "$SHARED/samples/foreign absent" ;;
    compression) echo "fxt built without compression support" ;;
    no-compression) echo "fxt built with compression support" ;;
    devfull) echo "/dev/full not writable" ;;
    python3) echo "python3 ($PYTHON) not found" ;;
    *) echo "$1 not found" ;;
  esac
}

# fxt_has_zio: FXT_HAVE_ZIO as CMake passes it (ON/OFF); when unset, ask fxt.
fxt_has_zio() {
  case ${FXT_HAVE_ZIO-probe} in
    ON | on | TRUE | true | YES | yes | 1) return 0 ;;
    probe) ! "$FXT" synth --events 1 --compress gzip 2>&1 > /dev/null | grep -q "without compression support" ;;
    *) return 1 ;;
  esac
}
