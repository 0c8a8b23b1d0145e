# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Async ids follow the chain-id rule (docs/check.md#chain-ids), as flows do: an
# instant or end joins the open chain of its id in its own provider, else the
# one other provider's that has it open (a parent-to-child async: one slice).
# Two processes with the same async id and category stay apart: while another
# provider's chain of the id is open, a chain's id gets ":<slot>" (before: one
# "0x1" for both, and viewers merged them into one track, nested wrong). An
# end takes its begin's category and name (Perfetto ends a slice only by an
# "e" of its name), an instant its begin's category; an end with no begin is
# dropped (also an ambiguous one: id 9, open in two other providers), an
# instant with no begin kept alone (":0"); both counted.
"$PYTHON" - "$T/prov.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
p1, p2, p3 = (10, 11), (20, 21), (30, 31)
def a(kind, ts, th, ident, name="op", cat="c"):
    return event(kind, ts, th, sref(cat), sref(name), ident=ident)
t = magic() + provider_info(1, "one")
t += a(ASYNC_BEGIN, 100, p1, 1) + a(ASYNC_END, 300, p1, 1)
t += a(ASYNC_BEGIN, 400, p1, 7, name="fork")
t += a(ASYNC_BEGIN, 500, p1, 9)
t += provider_info(2, "two")
t += a(ASYNC_BEGIN, 150, p2, 1) + a(ASYNC_INSTANT, 160, p2, 1, name="mark") + a(ASYNC_END, 250, p2, 1)
t += a(ASYNC_END, 450, p2, 7, name="fork-end", cat="other")
t += a(ASYNC_BEGIN, 510, p2, 9)
t += provider_info(3, "three")
t += a(ASYNC_END, 600, p3, 9)
t += a(ASYNC_INSTANT, 50, p3, 3, name="lone")
t += a(ASYNC_END, 60, p3, 3)
write(sys.argv[1], t)
PY
"$FXT" json "$T/prov.fxt" -o "$T/prov.json" 2> "$T/prov.err"
expect_eq "async" "$(jq -c '.traceEvents[] | select(.ph == "b" or .ph == "n" or .ph == "e") | [.ph,.pid,.ts,.cat,.name,.id]' "$T/prov.json")" \
'["b",10,0.1,"c","op","0x1"]
["b",20,0.15,"c","op","0x1:2"]
["n",20,0.16,"c","mark","0x1:2"]
["e",20,0.25,"c","op","0x1:2"]
["e",10,0.3,"c","op","0x1"]
["n",30,0.05,"c","lone","0x3:0"]
["b",10,0.4,"c","fork","0x7"]
["e",20,0.45,"c","fork","0x7"]
["b",10,0.5,"c","op","0x9"]
["b",20,0.51,"c","op","0x9:2"]'
grep -q "2 async ends without a begin dropped; 1 async instants without a begin (kept alone)" "$T/prov.err" ||
  fail "summary: $(cat "$T/prov.err")"
same_any_jobs "$T/prov.fxt"
# Perfetto's JSON importer: the two id-1 operations are two slices of their own durations, the
# parent-to-child one is one slice of 50 ns (skipped without tp)
TP=$SHARED/tools/perfetto/tp
if [ -x "$TP" ] && echo "select 1;" | "$TP" -q /dev/stdin "$T/prov.json" > /dev/null 2>&1; then
  got=$(echo "select name, ts, dur from slice order by ts;" | "$TP" -q /dev/stdin "$T/prov.json" 2> /dev/null |
    sed -e '0,/^"name"/d' -e '/^$/d' | tr '\n' ' ')
  expect_eq "perfetto slices" "$got" '"lone",50,0 "op",100,200 "op",150,100 "mark",160,0 "fork",400,50 "op",500,-1 "op",510,-1 '
else
  echo "perfetto part skipped: $TP absent or does not start"
fi
