# SPDX-License-Identifier: MIT
# fxt synth. all.fxt: every record kind, 3 providers, up to 15 arguments per
# event, made (all.err, all.rc) and dumped (all.jsonl, dump.rc) once here.
# a.fxt: 300 KiB for seed 7.
record all "$FXT" synth --all-records --providers 3 --events 3000 --args 15 -o all.fxt
record dump "$FXT" dump --json all.fxt > all.jsonl
"$FXT" synth --seed 7 --size 300k -o a.fxt
