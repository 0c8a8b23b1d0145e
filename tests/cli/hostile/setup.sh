# SPDX-License-Identifier: MIT
# Damaged traces for the few real launches kept beside the in-process hostile
# test (tests/test_hostile.c): a synth trace cut mid-record, and one with a
# record header overwritten by random bytes.
"$FXT" synth --seed 7 --events 400 --all-records -o base.fxt
size=$(wc -c < base.fxt)
head -c $((size / 2 + 3)) base.fxt > cut.fxt
cp base.fxt overwritten.fxt
printf '\377\377\377\377\377\377\377\377' | dd of=overwritten.fxt bs=1 seek=$((size / 3 / 8 * 8)) conv=notrunc 2> /dev/null
