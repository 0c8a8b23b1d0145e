#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs one CLI test case, or the setup of an area (see README.md here).
#
#   run_case.sh setup AREA_DIR   empty $SCRATCH, then run AREA_DIR/setup.sh in it
#   run_case.sh case CASE.sh     run CASE.sh in $SCRATCH (after setup), then check
#                                its exit status and output against CASE.sh.exit,
#                                CASE.sh.{stdout,stderr}.{exact,glob}
#
# Environment: FXT (the fxt binary) and SCRATCH (the area's scratch dir) are
# required; SRC (source tree, default: two levels up from here), SHARED (shared
# data dir, default $SRC/../shared), BUILD (build tree), FXT_HAVE_ZIO (ON/OFF,
# probed when unset), PYTHON (default python3) are optional.
# Exit status: 0 pass, 1 fail, 77 skip (after one "SKIP: reason" line).
set -u
here=${BASH_SOURCE[0]%/*}
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
case $here in /*) ;; *) here=$PWD/$here ;; esac
mode=${1:-}
target=${2:-}
usage() {
  echo "usage: run_case.sh setup AREA_DIR | run_case.sh case CASE.sh" >&2
  exit 2
}
[ -n "$target" ] || usage
: "${FXT:?FXT (the fxt binary) is not set}" "${SCRATCH:?SCRATCH (the area scratch dir) is not set}"
SRC=${SRC:-$here/../..}
SHARED=${SHARED:-$SRC/../shared}
BUILD=${BUILD:-}
PYTHON=${PYTHON:-python3}
# the scripts run elsewhere: make relative paths absolute
for v in FXT SRC SHARED SCRATCH BUILD; do
  case ${!v} in /* | "") ;; *) printf -v "$v" '%s' "$PWD/${!v}" ;; esac
done
export FXT SRC SHARED SCRATCH BUILD PYTHON
[ -z "${FXT_HAVE_ZIO+x}" ] || export FXT_HAVE_ZIO
lib=$here/lib.sh
# shellcheck source=lib.sh
. "$lib"
trap - ERR
[ -x "$FXT" ] || { echo "FAIL: FXT=$FXT is not an executable" >&2; exit 1; }

# show FILE TITLE: print a captured stream, at most 200 lines
show() {
  local lines
  [ -s "$1" ] || return 0
  echo "--- $2"
  mapfile -n 201 lines < "$1"
  printf '%s' "${lines[@]:0:200}"
  [ "${lines[-1]: -1}" = $'\n' ] || echo
  [ ${#lines[@]} -le 200 ] || echo "[... more lines in $1]"
}

case $mode in
  setup)
    area_dir=$(cd "$target" && pwd) || exit 1
    rm -rf "$SCRATCH"
    mkdir -p "$SCRATCH/t" || exit 1
    cd "$SCRATCH" || exit 1
    export AREA_DIR=$area_dir
    if [ -f "$area_dir/setup.sh" ]; then
      # a plain statement: on the left of || or && set -e would not apply
      (
        set -eu
        # shellcheck source=lib.sh
        . "$lib"
        # shellcheck source=/dev/null
        . "$area_dir/setup.sh"
      )
      rc=$?
      if [ $rc -ne 0 ]; then
        echo "FAIL: $area_dir/setup.sh exited with status $rc"
        exit 1
      fi
    fi
    touch .setup-done
    exit 0
    ;;
  case) ;;
  *) usage ;;
esac

[ -f "$target" ] || { echo "FAIL: no case $target" >&2; exit 1; }
case $target in
  /*) case_file=$target ;;
  *) case_file=$PWD/$target ;;
esac
case_name=${case_file##*/}
case_name=${case_name%.sh}
export AREA_DIR=${case_file%/*}

# needs: every word of every "# needs:" line must hold, or the case is skipped
while IFS= read -r line; do
  [[ $line == "# needs:"* ]] || continue
  for need in ${line#"# needs:"}; do
    if ! have "$need"; then
      echo "SKIP: $(why_not "$need")"
      exit 77
    fi
  done
done < "$case_file"

if [ ! -f "$SCRATCH/.setup-done" ]; then
  echo "FAIL: the setup of this area has not run (ctest runs it as the fixture cli.<area>.setup; by hand: run_case.sh setup $AREA_DIR)"
  exit 1
fi

# T: the case's own empty directory for whatever it writes
export T=$SCRATCH/t/$case_name
[ ! -e "$T" ] || rm -rf "$T"
mkdir -p "$T" || exit 1
out=$T/.stdout err=$T/.stderr
export FXT_CASE_TRAP=$T/.stopped
stamp=$T/.started
: > "$stamp"
cd "$SCRATCH" || exit 1
# a subshell of this one (cheaper than a new bash), as a plain statement: on
# the left of || or && set -e would not apply inside
(
  set -eu
  # shellcheck source=lib.sh
  . "$lib"
  # shellcheck source=/dev/null
  . "$case_file"
) > "$out" 2> "$err" < /dev/null
rc=$?

if [ $rc -eq 77 ] && grep -q '^SKIP:' "$out"; then
  grep -m1 '^SKIP:' "$out"
  exit 77
fi

problems=()
want_rc=0
[ ! -f "$case_file.exit" ] || read -r want_rc < "$case_file.exit"
[ "$rc" = "$want_rc" ] || problems+=("exit status $rc, expected $want_rc")
diffs=$T/.diffs
for s in stdout stderr; do
  got=$T/.$s
  if [ -f "$case_file.$s.exact" ]; then
    if ! cmp -s "$case_file.$s.exact" "$got"; then
      problems+=("$s differs from $case_name.sh.$s.exact")
      diff -u --label "expected $s" --label "actual $s" "$case_file.$s.exact" "$got" >> "$diffs"
    fi
  elif [ -f "$case_file.$s.glob" ]; then
    pattern=$(< "$case_file.$s.glob")
    text=$(< "$got")
    # shellcheck disable=SC2053 # the pattern is a glob on purpose
    if [[ $text != $pattern ]]; then
      problems+=("$s does not match $case_name.sh.$s.glob")
      { echo "--- pattern ($s)"; cat "$case_file.$s.glob"; } >> "$diffs"
    fi
  fi
done

# a case writes only under $T: anything newer elsewhere in the scratch dir
# would make cases depend on each other
shopt -s globstar dotglob nullglob
stray=()
[[ ! $SCRATCH -nt $stamp ]] || stray+=("$SCRATCH/ (entries added or removed)")
for f in "$SCRATCH"/*; do
  [ "$f" != "$SCRATCH/t" ] || continue
  for g in "$f" "$f"/**; do
    [[ ! $g -nt $stamp ]] || stray+=("$g")
  done
done
[ ${#stray[@]} -eq 0 ] || problems+=("wrote outside \$T: ${stray[*]}")

echo "case ${AREA_DIR##*/}/$case_name: exit status $rc"
show "$out" stdout
show "$err" stderr
if [ ${#problems[@]} -eq 0 ]; then
  echo "PASS"
  exit 0
fi
show "$FXT_CASE_TRAP" "where it stopped"
show "$diffs" "expected vs actual"
for p in "${problems[@]}"; do echo "FAIL: $p"; done
exit 1
