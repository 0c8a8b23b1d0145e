# SPDX-License-Identifier: MIT
# fxt check: hand-built traces (tests/tools/fxtgen.py), one per rule that
# triggers that rule and only it, a valid one that triggers nothing; synth traces.
if have python3; then
  "$PYTHON" - <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
H = magic() + provider_info(1, "p") + init(1000000000) + string(1, "cat") + string(2, "name") + thread(1, 10, 11)
ok_kobj = kernel_object(10, 1, sref("proc")) + kernel_object(11, 2, sref("thr"), args=[arg(8, sref("process"), 10)])
def ev(t, ts, **kw):
    return event(t, ts, 1, 1, 2, **kw)
cases = {
  # rule: trace
  "valid": H + ok_kobj + ev(BEGIN, 1) + ev(END, 2) + ev(COMPLETE, 3, end_ts=9) + ev(ASYNC_BEGIN, 4, ident=7) + ev(ASYNC_END, 5, ident=7)
           + ev(FLOW_BEGIN, 6, ident=8) + ev(FLOW_STEP, 7, ident=8) + ev(FLOW_END, 8, ident=8) + ev(INSTANT, 9, extra=word(2))
           + ev(COUNTER, 10, ident=1, args=[arg(1, 2, -1), arg(6, 2, sref("v")), arg(9, 2, True)]) + log(11, 1, "hello"),
  "size-zero": H + word(0x4),
  "truncated": H + ev(INSTANT, 1)[:12],
  "damaged": H + event(INSTANT, 1, 1, 1, 2, args=[arg(3, 2, 5, size=1)]),
  "reserved-bits": H + string(3, "x", extra_bits=1 << 31),
  "bad-magic": magic() + word(0x0016547846040010 | (1 << 60)) + provider_info(1, "p"),
  "magic-first": provider_info(1, "p") + magic(),
  "index-zero": H + string(0, "zero"),
  "unresolved-string": H + event(INSTANT, 1, 1, 1, 9),
  "unresolved-thread": H + event(INSTANT, 1, 7, 1, 2),
  "string-too-long": H + string(3, "x" * 32001),
  "invalid-utf8": H + event(INSTANT, 1, 1, sref(b"\xc0\xaf"), 2),
  "arg-size": H + event(INSTANT, 1, 1, 1, 2, args=[arg(1, 2, 5, size=2) + word(0)]),
  "unknown-record": H + unknown_record(12, 2),
  "unknown-arg": H + event(INSTANT, 1, 1, 1, 2, args=[arg(13, 2)]),
  "init-zero-ticks": H + init(0),
  "ts-backwards": H + ev(INSTANT, 5) + ev(INSTANT, 4),
  # an end with no open begin after its thread's first begin: the trace started inside an
  # outer duration (a warning, like an end before any begin)
  "duration-unmatched": H + ev(BEGIN, 4) + ev(END, 5) + ev(END, 6),
  "duration-end-first": H + ev(END, 5),
  "duration-unclosed": H + ev(BEGIN, 5),
  "duration-name": H + ev(BEGIN, 5) + event(END, 6, 1, 1, 1),
  "complete-negative": H + ev(COMPLETE, 5, end_ts=4),
  "async-no-begin": H + ev(ASYNC_END, 5, ident=3),
  "async-never-ended": H + ev(ASYNC_BEGIN, 5, ident=3),
  "flow-no-begin": H + ev(FLOW_STEP, 5, ident=3) + ev(FLOW_END, 6, ident=3),
  "flow-never-ended": H + ev(FLOW_BEGIN, 5, ident=3),
  # a large record announcing 2^31 words (16 GiB): over the reassembly limit, then cut
  "too-large": H + word(15 | ((1 << 31) << 4)) + word(0) * 4,
  "thread-no-process": H + kernel_object(11, 2, sref("thr")),
  # after a buffer overflow provider event (e.g. a flight recorder that overwrote its
  # oldest data), ends without begins are expected: warnings, not errors
  "pair-after-loss": H + provider_event(1, 0) + ev(END, 5) + ev(ASYNC_END, 6, ident=3) + ev(FLOW_END, 7, ident=4),
  # the loss notice of another provider (2) excuses provider 1's async and flow ends (a chain's
  # begin may be in another provider: the chain-id rule), not its duration end (durations
  # never cross providers): that stays duration-end-first
  "other-lossy": H + provider_event(2, 0) + event(ASYNC_END, 5, 1, 1, 2, ident=3) + ev(FLOW_END, 6, ident=4) + ev(END, 7),
  # chains are matched in time order: ends written (by thread 12) before their begins
  # (thread 11) but later in time are fine; an end earlier in time than its begin is not
  "time-order": H + thread(2, 10, 12) + event(FLOW_STEP, 8, 2, 1, 2, ident=4) + event(ASYNC_END, 9, 2, 1, 2, ident=3)
                + event(FLOW_END, 9, 2, 1, 2, ident=4) + ev(ASYNC_BEGIN, 5, ident=3) + ev(FLOW_BEGIN, 5, ident=4),
  # 70 async instants read before their begin: the reorder window holds 64 per id
  "time-order-window": H + thread(2, 10, 12) + b"".join(event(ASYNC_INSTANT, 10 + k, 2, 1, 2, ident=3) for k in range(70))
                       + event(ASYNC_END, 100, 2, 1, 2, ident=3) + ev(ASYNC_BEGIN, 5, ident=3),
  "time-order-bad": H + thread(2, 10, 12) + event(ASYNC_END, 3, 2, 1, 2, ident=3) + ev(ASYNC_BEGIN, 5, ident=3),
  # a real collision: one id begun twice in its provider while open (the second begin is the error)
  "flow-id-reused": H + ev(FLOW_BEGIN, 5, ident=3) + ev(FLOW_BEGIN, 6, ident=3) + ev(FLOW_END, 7, ident=3),
  "async-id-reused": H + ev(ASYNC_BEGIN, 5, ident=3) + ev(ASYNC_BEGIN, 6, ident=3) + ev(ASYNC_END, 7, ident=3),
}
# What a crash leaves: chains begun (and stepped) but never ended. Warnings only.
# crash-stepped: begin, step/instant, nothing more; crash-cross-thread: the step and
# instant written (thread 12's chunk) before their begins (thread 11), later in time;
# crash-long: a flow with 100 steps (past the reorder window) never ended.
cases["crash-stepped"] = H + ev(FLOW_BEGIN, 5, ident=3) + ev(FLOW_STEP, 6, ident=3) + ev(ASYNC_BEGIN, 7, ident=4) \
                         + ev(ASYNC_INSTANT, 8, ident=4) + ev(ASYNC_INSTANT, 9, ident=4)
cases["crash-cross-thread"] = H + thread(2, 10, 12) + event(FLOW_STEP, 8, 2, 1, 2, ident=3) \
                              + event(ASYNC_INSTANT, 9, 2, 1, 2, ident=4) + ev(FLOW_BEGIN, 5, ident=3) + ev(ASYNC_BEGIN, 6, ident=4)
cases["crash-long"] = H + ev(FLOW_BEGIN, 5, ident=3) + b"".join(ev(FLOW_STEP, 6 + k, ident=3) for k in range(100))
# Chain ids across providers (docs/check.md#chain-ids): provider 1 and 2, one thread each.
def pv(p, body):
    return provider_section(p) + body
P2 = provider_info(2, "q") + init(1000000000) + string(1, "cat") + string(2, "name") + thread(1, 20, 21)
def ev2(t, ts, **kw):
    return event(t, ts, 1, 1, 2, **kw)
cases["ids-parent-child"] = H + ev(FLOW_BEGIN, 5, ident=9) + ev(ASYNC_BEGIN, 5, ident=9) + P2 + ev2(FLOW_STEP, 6, ident=9) \
                            + ev2(FLOW_END, 7, ident=9) + ev2(ASYNC_END, 8, ident=9)
# the child's end written before the parent's begin, later in time
cases["ids-parent-child-late"] = H + P2 + ev2(FLOW_END, 7, ident=9) + pv(1, ev(FLOW_BEGIN, 5, ident=9))
# two processes numbering flows from 1: independent, even interleaved in time
cases["ids-independent"] = H + ev(FLOW_BEGIN, 5, ident=1) + P2 + ev2(FLOW_BEGIN, 6, ident=1) + ev2(FLOW_STEP, 7, ident=1) \
                           + pv(1, ev(FLOW_STEP, 8, ident=1) + ev(FLOW_END, 9, ident=1)) + pv(2, ev2(FLOW_END, 10, ident=1))
# a third provider's end with the id open in two others: ambiguous, no begin
P3 = provider_info(3, "r") + init(1000000000) + string(1, "cat") + string(2, "name") + thread(1, 30, 31)
cases["ids-ambiguous"] = H + ev(FLOW_BEGIN, 5, ident=1) + P2 + ev2(FLOW_BEGIN, 6, ident=1) + P3 + event(FLOW_END, 7, 1, 1, 2, ident=1)
# many chains closed in order: the id table stays small (FXT_CHECK_STATS)
cases["many-ids"] = H + b"".join(ev(FLOW_BEGIN, 10 * k, ident=k) + ev(FLOW_END, 10 * k + 5, ident=k) for k in range(1, 5001))
for k, v in cases.items():
    write(k + ".fxt", v)
PY
fi

"$FXT" synth --all-records --providers 2 --events 20000 -o synth.fxt
"$FXT" synth --big-endian --all-records --providers 2 --events 3000 -o be.fxt
