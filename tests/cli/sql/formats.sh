# SPDX-License-Identifier: MIT
# needs: sqlite
# --csv (RFC 4180: quotes doubled, fields with , " or newlines quoted, NULL an empty field, ""
# an empty string) and --json (JSON Lines; blobs as hex, NULL null); reals round-trip.
q="select 1 as i, 0.1 as r, 'a,\"b\"' as t, null as n, x'00ff' as b, 'x'||char(10)||'y' as nl, '' as e"
expect_eq csv "$("$FXT" sql --csv s.fxt "$q")" 'i,r,t,n,b,nl,e
1,0.1,"a,""b""",,00ff,"x
y",""'
expect_eq json "$("$FXT" sql --json s.fxt "$q")" '{"i":1,"r":0.1,"t":"a,\"b\"","n":null,"b":"00ff","nl":"x\ny","e":""}'
# a table escapes control characters (one line per row) and shows blobs as x'hex'
expect_eq table "$("$FXT" sql s.fxt "$q")" 'i    r  t      n     b        nl    e
-  ---  -----  ----  -------  ----  -
1  0.1  a,"b"  NULL  x'"'"'00ff'"'"'  x\ny  '
rc=0
"$FXT" sql --csv --json s.fxt "$q" 2> "$T/err" || rc=$?
expect_eq "--csv with --json" "$rc $(cat "$T/err")" "2 fxt sql: --csv and --json exclude each other"
