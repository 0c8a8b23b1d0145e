# SPDX-License-Identifier: MIT
# Damaged traces for the few real launches kept beside the in-process hostile
# test (tests/test_hostile.c): a synth trace cut mid-record, and one with a
# record header overwritten by random bytes.
"$FXT" synth --seed 7 --events 400 --all-records -o base.fxt
size=$(wc -c < base.fxt)
head -c $((size / 2 + 3)) base.fxt > cut.fxt
cp base.fxt overwritten.fxt
# the header of the first record past a third of the file (a fixed offset could fall inside a
# record's payload, whose bytes no reader can tell from data)
hdr=$("$FXT" dump base.fxt | awk -v t=$((size / 3)) '$1 + 0 >= t { print $1; exit }')
printf '\377\377\377\377\377\377\377\377' | dd of=overwritten.fxt bs=1 seek="$hdr" conv=notrunc 2> /dev/null
