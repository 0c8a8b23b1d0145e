# SPDX-License-Identifier: MIT
# Inputs of the fxt sql cases: synth traces (one provider; three providers numbering their flows
# alike; every record type) and, where fxt record runs, a record archive (three processes'
# durations; a flow from a parent to its forked child).
"$FXT" synth --events 3000 --threads 3 -o s.fxt
"$FXT" synth --size 300k --providers 3 -o p3.fxt
"$FXT" synth --all-records --size 64k -o all.fxt
if [ -x "$BUILD/record_prog" ]; then
  record rec "$FXT" record -o rec.fxt -- "$BUILD/record_prog" emit 300 3 return
  record recflow "$FXT" record -o recflow.fxt -- "$BUILD/record_prog" flow
fi
