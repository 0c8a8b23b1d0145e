# SPDX-License-Identifier: MIT
# fxt merge, records that cannot be re-encoded (merge and cut), compressed traces.
# m.fxt: four traces merged once here (m.err, m.rc), dumped to m.jsonl.
"$FXT" synth --seed 1 --events 1000 -o a.fxt
"$FXT" synth --seed 2 --events 1000 --ticks-per-second 19200000 -o b.fxt
"$FXT" synth --seed 3 --events 1000 --providers 2 --ticks-per-second 3000000000 --big-endian --all-records -o c.fxt
# a foreign trace without provider records (so named after its file): the
# whole records of the reader corpus's head of a trace written by another tool
head -c 2992 "$SRC/fuzz/corpus/reader/ftr_complete_2threads_head.fxt" > ftr.fxt
record m "$FXT" merge a.fxt b.fxt c.fxt ftr.fxt --offset a.fxt=1500 -o m.fxt
record m.dump "$FXT" dump --json m.fxt > m.jsonl

# be.fxt: a big-endian trace with an unknown record (which cannot be re-encoded:
# its byte order is not the output's) at offset be.at, and more records after it
"$FXT" synth --seed 4 --events 200 --big-endian -o be.fxt
stat -c %s be.fxt > be.at
printf '\0\0\0\0\0\0\0\056\1\2\3\4\5\6\7\10' >> be.fxt
# a second trace minus its magic record
"$FXT" synth --seed 4 --events 200 --big-endian -o be.tail
tail -c +9 be.tail >> be.fxt

# p.fxt and its compressed copies, made by the gzip and zstd commands
"$FXT" synth --seed 9 --events 3000 -o p.fxt
"$FXT" dump --json p.fxt > p.jsonl
if have gzip; then gzip -c p.fxt > p.fxt.gz; fi
if have zstd; then zstd -q -c p.fxt > p.fxt.zst; fi
