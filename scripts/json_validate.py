#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validate a large `fxt json` output as JSON with bounded memory.

Uses json.JSONDecoder.raw_decode on a sliding window: the top-level object and
its two arrays are walked token by token, each array element is parsed fully
by the real JSON parser. No assumption about line structure. Prints the number
of elements of traceEvents and systemTraceEvents.events; exit 1 if invalid.
Usage: json_validate.py FILE
"""
import json
import sys

WS = " \t\n\r"
dec = json.JSONDecoder()


class Stream:
    def __init__(self, f):
        self.f = f
        self.buf = ""
        self.pos = 0
        self.eof = False

    def fill(self, need=1 << 20):
        if self.eof:
            return
        if self.pos > (1 << 22):
            self.buf = self.buf[self.pos:]
            self.pos = 0
        chunk = self.f.read(need)
        if not chunk:
            self.eof = True
        self.buf += chunk

    def skip_ws(self):
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in WS:
                self.pos += 1
            if self.pos < len(self.buf) or self.eof:
                return
            self.fill()

    def peek(self):
        self.skip_ws()
        return self.buf[self.pos] if self.pos < len(self.buf) else ""

    def expect(self, c):
        if self.peek() != c:
            raise ValueError("expected %r at %d, got %r" % (c, self.pos, self.peek()))
        self.pos += 1

    def value(self):
        self.skip_ws()
        while True:
            try:
                v, end = dec.raw_decode(self.buf, self.pos)
                # a number at the window's end may continue in the next chunk
                if end == len(self.buf) and not self.eof:
                    raise ValueError
                self.pos = end
                return v
            except ValueError:
                if self.eof:
                    raise
                self.fill()


def array(s, count_only=True):
    s.expect("[")
    n = 0
    if s.peek() == "]":
        s.pos += 1
        return n
    while True:
        s.value()
        n += 1
        c = s.peek()
        s.pos += 1
        if c == "]":
            return n
        if c != ",":
            raise ValueError("expected , or ] after element %d" % n)


def main():
    with open(sys.argv[1], encoding="utf-8", errors="strict") as f:
        s = Stream(f)
        s.fill()
        s.expect("{")
        counts = {}
        while True:
            key = s.value()
            s.expect(":")
            if key == "traceEvents":
                counts[key] = array(s)
            elif key == "systemTraceEvents":
                s.expect("{")
                while True:
                    k2 = s.value()
                    s.expect(":")
                    if k2 == "events":
                        counts["systemTraceEvents.events"] = array(s)
                    else:
                        s.value()
                    c = s.peek()
                    s.pos += 1
                    if c == "}":
                        break
                    if c != ",":
                        raise ValueError("bad systemTraceEvents")
            else:
                s.value()
            c = s.peek()
            s.pos += 1
            if c == "}":
                break
            if c != ",":
                raise ValueError("expected , or } in the top-level object")
        if s.peek() != "":
            raise ValueError("trailing data")
    print(" ".join("%s=%d" % kv for kv in counts.items()))


if __name__ == "__main__":
    try:
        main()
    except (ValueError, UnicodeDecodeError) as e:
        print("invalid JSON:", e)
        sys.exit(1)
