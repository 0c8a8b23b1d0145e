# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# One process_name / thread_name per process and thread, the last name given:
# under `fxt record` the manager names a process first with its name cut to 63
# bytes, its stream later with the whole name (before: both were written).
# Sort indexes count processes and threads in the order their names first
# appear. The same with ranges of one record (-j 3), and Perfetto's importer
# shows the whole names (skipped without tp).
"$PYTHON" - "$T/n.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
long = "a-program-with-a-rather-long-name-that-the-manager-cuts-at-63-bytes-exactly"
t = magic() + provider_info(1, "p") + thread(1, 5, 6) + thread(2, 8, 9)
t += kernel_object(5, 1, sref(long[:63]))
t += kernel_object(6, 2, sref("main"), args=[arg(8, sref("process"), 5)])
t += kernel_object(8, 1, sref("other"))
t += event(INSTANT, 100, 1, sref("c"), sref("i"))
t += event(INSTANT, 110, 2, sref("c"), sref("j"))
t += kernel_object(5, 1, sref(long))
t += kernel_object(6, 2, sref("main-renamed"), args=[arg(8, sref("process"), 5)])
write(sys.argv[1], t)
PY
"$FXT" json "$T/n.fxt" -o "$T/n.json" 2> /dev/null
expect_eq "names" "$(jq -c '.traceEvents[] | select(.ph == "M") | [.name, .pid, .tid, .args.name // .args.sort_index]' "$T/n.json")" \
'["process_name",5,0,"a-program-with-a-rather-long-name-that-the-manager-cuts-at-63-bytes-exactly"]
["process_sort_index",5,0,0]
["thread_name",5,6,"main-renamed"]
["thread_sort_index",5,6,0]
["process_name",8,0,"other"]
["process_sort_index",8,0,1]'
same_any_jobs "$T/n.fxt"
TP=$SHARED/tools/perfetto/tp
if [ -x "$TP" ] && echo "select 1;" | "$TP" -q /dev/stdin "$T/n.json" > /dev/null 2>&1; then
  got=$(echo "select pid, name from process where pid != 0 order by pid;" | "$TP" -q /dev/stdin "$T/n.json" 2> /dev/null |
    sed -e '0,/^"pid"/d' -e '/^$/d' | tr '\n' ' ')
  expect_eq "perfetto processes" "$got" '5,"a-program-with-a-rather-long-name-that-the-manager-cuts-at-63-bytes-exactly" 8,"other" '
  got=$(echo "select tid, name from thread where tid = 6;" | "$TP" -q /dev/stdin "$T/n.json" 2> /dev/null |
    sed -e '0,/^"tid"/d' -e '/^$/d')
  expect_eq "perfetto thread" "$got" '6,"main-renamed"'
else
  echo "perfetto part skipped: $TP absent or does not start"
fi
