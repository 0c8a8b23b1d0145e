# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: compression gzip zstd
# Compressed input is recognized on a pipe too ("-" or no file name).
# shellcheck disable=SC2002 # a pipe, not a file, on purpose
cat p.fxt.zst | "$FXT" dump --json - > "$T/zst.jsonl"
cmp p.jsonl "$T/zst.jsonl" || fail "zstd from a pipe (-) differs"
cat p.fxt.gz | "$FXT" dump --json > "$T/gz.jsonl"
cmp p.jsonl "$T/gz.jsonl" || fail "gzip from a pipe (no file name) differs"
