# SPDX-License-Identifier: MIT
"""Build FXT traces for tests, independently of the C library.

Every field is placed from the spec's bit layouts (../shared/spec/trace-format.md),
so tests built with this module check the C code against a second derivation.
Usage from a test script:

    import sys; sys.path.insert(0, SRC + "/tests/tools"); from fxtgen import *
    t = magic() + init(1000) + string(1, "cat") + thread(1, 10, 11)
    t += event(BEGIN, ts=5, thread=1, cat=1, name=sref("x"))
    open("x.fxt", "wb").write(t)

String refs: an int is an index; sref("text") is an inline string; "" is empty (0).
Thread refs: an int is an index; a (pid, tid) tuple is inline.
"""
import struct

INSTANT, COUNTER, BEGIN, END, COMPLETE = 0, 1, 2, 3, 4
ASYNC_BEGIN, ASYNC_INSTANT, ASYNC_END = 5, 6, 7
FLOW_BEGIN, FLOW_STEP, FLOW_END = 8, 9, 10
M64 = (1 << 64) - 1


def word(v):
    return struct.pack("<Q", v & M64)


def stream(b):
    if isinstance(b, str):
        b = b.encode("utf-8", "surrogateescape")
    return b + b"\0" * (-len(b) % 8)


class sref:
    """An inline string reference."""

    def __init__(self, text):
        self.data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text


def _ref(r):
    """(16-bit ref, inline bytes) for a string ref spec."""
    if isinstance(r, sref):
        return 0x8000 | len(r.data), stream(r.data)
    if r == "" or r is None:
        return 0, b""
    return int(r), b""


def _thread(t):
    if isinstance(t, tuple):
        return 0, word(t[0]) + word(t[1])
    return int(t), b""


def record(rtype, body_words, data=0):
    """A record: header with type, size (header + body) and data bits [16..63]."""
    assert len(body_words) % 8 == 0
    size = 1 + len(body_words) // 8
    return word(rtype | (size << 4) | (data << 16)) + body_words


def magic():
    return word(0x0016547846040010)


def provider_info(pid, name):
    n = name.encode()
    return record(0, stream(n), 1 | (pid << 4) | (len(n) << 36))


def provider_section(pid):
    return record(0, b"", 2 | (pid << 4))


def provider_event(pid, ev=0):
    return record(0, b"", 3 | (pid << 4) | (ev << 36))


def init(tps):
    return record(1, word(tps))


def string(index, text, extra_bits=0):
    b = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    return record(2, stream(b), index | (len(b) << 16) | extra_bits)


def thread(index, pid, tid, extra_bits=0):
    return record(3, word(pid) + word(tid), index | extra_bits)


# arguments: (type, name, value)
def arg(atype, name, value=None, size=None):
    nref, nbytes = _ref(name)
    data, tail = 0, b""
    if atype in (1, 2):
        data = value & 0xFFFFFFFF
    elif atype in (3, 4, 7, 8):
        tail = word(value)
    elif atype == 5:
        tail = struct.pack("<d", value)
    elif atype == 6:
        vref, vbytes = _ref(value)
        data, tail = vref, vbytes
    elif atype == 9:
        data = 1 if value else 0
    body = nbytes + tail
    words = 1 + len(body) // 8 if size is None else size
    return word(atype | (words << 4) | (nref << 16) | (data << 32)) + body


def event(etype, ts, thread, cat, name, args=(), ident=None, end_ts=None, extra=b""):
    tref, twords = _thread(thread)
    cref, cbytes = _ref(cat)
    nref, nbytes = _ref(name)
    body = word(ts) + twords + cbytes + nbytes + b"".join(args)
    if etype in (COUNTER, ASYNC_BEGIN, ASYNC_INSTANT, ASYNC_END, FLOW_BEGIN, FLOW_STEP, FLOW_END):
        body += word(ident)
    if etype == COMPLETE:
        body += word(end_ts)
    body += extra
    data = etype | (len(args) << 4) | (tref << 8) | (cref << 16) | (nref << 32)
    return record(4, body, data)


def kernel_object(koid, otype, name, args=()):
    nref, nbytes = _ref(name)
    return record(7, word(koid) + nbytes + b"".join(args), otype | (nref << 8) | (len(args) << 24))


def log(ts, thread, message):
    tref, twords = _thread(thread)
    m = message.encode()
    return record(9, word(ts) + twords + stream(m), len(m) | (tref << 16))


def unknown_record(rtype=10, words=1):
    return record(rtype, b"\0" * 8 * (words - 1))


def context_switch(ts, cpu, out_state, out_tid, in_tid, args=()):
    data = len(args) | (cpu << 4) | (out_state << 20) | (1 << 44)
    return record(8, word(ts) + word(out_tid) + word(in_tid) + b"".join(args), data)


def thread_wakeup(ts, cpu, tid, args=()):
    data = len(args) | (cpu << 4) | (2 << 44)
    return record(8, word(ts) + word(tid) + b"".join(args), data)


def legacy_context_switch(ts, cpu, out_state, out_thread, in_thread, out_prio, in_prio):
    oref, owords = _thread(out_thread)
    iref, iwords = _thread(in_thread)
    data = cpu | (out_state << 8) | (oref << 12) | (iref << 20) | (out_prio << 28) | (in_prio << 36)
    return record(8, word(ts) + owords + iwords, data)


def large_blob0(ts, thread, cat, name, payload, args=()):
    """In-band large blob with metadata (record type 15, large type 0, format 0)."""
    cref, cbytes = _ref(cat)
    nref, nbytes = _ref(name)
    tref, twords = _thread(thread)
    body = word(cref | (nref << 16) | (len(args) << 32) | (tref << 36)) + cbytes + nbytes + word(ts) + twords
    body += b"".join(args) + word(len(payload)) + stream(payload)
    size = 1 + len(body) // 8
    return word(15 | (size << 4)) + body


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
