# SPDX-License-Identifier: MIT
# needs: python3 compression gzip zstd
# From a gzip pipe to a zstd pipe: the same result as from and to files.
gzip -c in.fxt | "$FXT" cut - --from 500 --to 2000 --absolute --compress zstd > "$T/pipe.fxt.zst"
zstd -q -dc "$T/pipe.fxt.zst" > "$T/pipe.fxt"
cmp abs.fxt "$T/pipe.fxt" || fail "piped cut differs"
