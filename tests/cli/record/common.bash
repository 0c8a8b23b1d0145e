# SPDX-License-Identifier: MIT
# Helpers of the `fxt record` cases: the traced helper program, the archive checks.
PROG=$BUILD/record_prog
# the cases read archives with python3; without it they skip (`# needs: python3`)

# verify FILE WHAT ARGS...: run verify.py on FILE's JSON dump (fails the case when it fails)
verify() {
  local f=$1
  shift
  "$FXT" dump --json "$f" > "$f.jsonl" || fail "fxt dump --json $f failed"
  "$PYTHON" "$AREA_DIR/verify.py" "$@" < "$f.jsonl"
}

# check_clean FILE: fxt check finds no error
check_clean() {
  "$FXT" check "$1" > "$1.check" || fail "fxt check $1: $(tail -3 "$1.check")"
  grep -q " 0 errors" "$1.check" || fail "fxt check $1: $(tail -1 "$1.check")"
}

# crash_case END STATUS: K events on T threads then END, under each mode; every
# committed record is in the archive, which checks clean
crash_case() {
  local end=$1 want=$2 mode size rc
  for mode in oneshot circular streaming; do
    size=1M
    # small buffers: oneshot drops, circular overwrites (what is kept is checked)
    [ $mode = streaming ] || size=64k
    rc=0
    "$FXT" record --mode $mode --buffer-size $size -o "$T/$mode.fxt" -- "$PROG" emit 1000 4 "$end" \
      2> "$T/$mode.err" || rc=$?
    expect_eq "$mode: exit status" $rc "$want"
    check_clean "$T/$mode.fxt"
    verify "$T/$mode.fxt" threads $mode 1000 4
  done
}

# snap_check FILE REASON LAST POST_NS [PROVIDERS]: a snapshot checks clean and holds the
# recent past up to its cut, gap-free (snapshot.py)
snap_check() {
  local f=$1
  shift
  check_clean "$f"
  "$FXT" dump --json "$f" > "$f.jsonl" || fail "fxt dump --json $f failed"
  "$PYTHON" "$AREA_DIR/snapshot.py" "$@" < "$f.jsonl" || fail "$f: snapshot check failed"
}
