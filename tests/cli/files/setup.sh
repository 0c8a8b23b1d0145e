# SPDX-License-Identifier: MIT
# Inputs for the file-safety cases (tools/cli/cli_io.c): two small traces and a
# bigger one for the pipe cases.
"$FXT" synth --seed 1 --events 500 -o a.fxt
"$FXT" synth --seed 2 --events 500 -o b.fxt
"$FXT" synth --seed 3 --size 4M -o big.fxt
