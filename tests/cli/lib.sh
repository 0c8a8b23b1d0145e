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
    sqlite) ! "$FXT" sql /nonexistent "select 1" 2>&1 | grep -q "without SQLite" ;;
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
    sqlite) echo "fxt built without SQLite (libsqlite3-dev)" ;;
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

# damage_last_event IN OUT: copies IN to OUT with its last event record damaged (15 arguments
# in the header, which run past the record's size: reported, then reading goes on) and prints
# that record's offset. Needs python3 and jq.
damage_last_event() {
  local last
  last=$("$FXT" dump --json "$1" | jq -r 'select(.kind=="event") | .offset' | tail -1)
  "$PYTHON" - "$1" "$last" "$2" << 'PY'
import sys
s = bytearray(open(sys.argv[1], "rb").read())
s[int(sys.argv[2]) + 2] |= 0xf0
open(sys.argv[3], "wb").write(bytes(s))
PY
  echo "$last"
}

# stops_on_write_error LAST ARGS...: `fxt ARGS -j N -o /dev/full` for N = 1 and 3 (64 KiB
# ranges) exits 3 with "error writing output" and says nothing of the record at offset LAST
# (damage_last_event's, past the first failed write: the read ended before it).
stops_on_write_error() {
  local last=$1 j rc
  shift
  for j in 1 3; do
    rc=0
    FXT_RANGE_BYTES=65536 "$FXT" "$@" -j $j -o /dev/full 2> "$T/err$j" || rc=$?
    cat "$T/err$j" >&2
    expect_eq "-j $j exit status" $rc 3
    grep -q "error writing output" "$T/err$j" || fail "-j $j: no 'error writing output' message"
    if grep -q "$last" "$T/err$j"; then
      fail "-j $j: read on to the end after the write error"
    fi
  done
}
