# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A fidl:blob large blob becomes a ph O event with its bytes in base64; other
# large blobs are skipped and counted on stderr.
expect_eq "O events" "$(jq -c '[.traceEvents[] | select(.ph=="O")]' sys.json)" \
  '[{"cat":"fidl:blob","name":"msg","ts":3.5,"pid":100,"tid":101,"ph":"O","id":"","blob":"aGVsbG8="}]'
grep -q "1 records without a JSON form" sys.err || fail "stderr does not count 1 record without a JSON form"
