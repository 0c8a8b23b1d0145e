# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Interned strings and thread refs are formatted once and cached (docs/json.md,
# Performance): a string index registered again, the same index in another
# provider, provider sections switching back and forth, a thread index
# registered again, strings needing escapes or U+FFFD, and lengths around the
# cache's slot size (46 bytes of plain text) all print what the trace says at
# each event, with any -j and range size.
"$PYTHON" - "$T/c.fxt" "$T/want.json" <<'PY'
import json, os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
out, want_path = sys.argv[1], sys.argv[2]
want = []
t = magic()
def inst(ts, thr, cat, name, args, expect):
    # expect: (cat, name, {arg name: value}, pid, tid) as JSON reads it
    global t
    t += event(INSTANT, ts, thr, cat, name, args=args)
    want.append(expect)

t += provider_info(1, "one") + init(1000000000) + thread(1, 5, 6)
t += string(1, "alpha") + string(2, "cat")
for ts in (10, 11):  # a miss, then a hit
    inst(ts, 1, 2, 1, [arg(6, 1, 1)], ["cat", "alpha", {"alpha": "alpha"}, 5, 6])
t += string(1, "beta") + thread(1, 5, 7)  # the same indices, new values
inst(12, 1, 2, 1, [arg(6, 1, 1)], ["cat", "beta", {"beta": "beta"}, 5, 7])
t += thread(1, 50, 7)  # another pid, the same tid
inst(12, 1, 2, 1, [], ["cat", "beta", {}, 50, 7])
# many times: a range context reused for a later range must not keep what it cached
# (ranges mostly start among a value's events, which then come before any string record)
for k in range(40):
    t += string(1, "v%d" % k) + thread(1, 5, 1000 + k % 3)
    for _ in range(8):
        inst(12, 1, 2, 1, [], ["cat", "v%d" % k, {}, 5, 1000 + k % 3])
t += string(1, "beta") + thread(1, 5, 7)
# provider 8193's string slots are provider 1's (the cache's hash): told apart by the key
t += provider_info(8193, "two") + thread(1, 8, 9) + string(1, "gamma") + string(2, "cat2")
inst(13, 1, 2, 1, [arg(6, 1, 1)], ["cat2", "gamma", {"gamma": "gamma"}, 8, 9])
t += provider_section(1)
inst(14, 1, 2, 1, [arg(6, 1, 1)], ["cat", "beta", {"beta": "beta"}, 5, 7])
t += provider_section(8193)
inst(15, 1, 2, 1, [arg(6, 1, 1)], ["cat2", "gamma", {"gamma": "gamma"}, 8, 9])
# escapes and invalid UTF-8 (cached as escaped), re-registered with another escape
t += string(3, 'q"\\\n\x01\x7f') + string(4, b"x\xffy\xc3\xa9")
for ts in (16, 17):
    inst(ts, (3, 4), 3, 4, [arg(6, 4, 3)], ['q"\\\n\x01\x7f', "x\ufffdy\u00e9", {"x\ufffdy\u00e9": 'q"\\\n\x01\x7f'}, 3, 4])
t += string(3, "tab\there")
inst(18, (3, 4), 3, 4, [], ["tab\there", "x\ufffdy\u00e9", {}, 3, 4])
# plain and escaped strings of 40..50 bytes: literals on both sides of the slot size
ix = 10
for n in range(40, 51):
    for s in ("a" * n, "\n" + "b" * (n - 1), "c" * (n - 1) + "\"", "d" * (n - 2) + "\xc3\xa9"):
        text = s.encode("latin-1") if "\xc3" in s else s.encode()
        value = text.decode("utf-8")
        t += string(ix, text)
        for ts in (20, 21):
            inst(ts, 1, ix, ix, [arg(6, ix, ix)], [value, value, {value: value}, 8, 9])
        ix += 1
t += string(1, "delta")  # provider 8193's index 1 again
inst(30, 1, 2, 1, [], ["cat2", "delta", {}, 8, 9])
write(out, t)
json.dump(want, open(want_path, "w"))
PY
# With --time-base=trace-start a probe converts the first records (caching "alpha") before
# the parallel read, and its context is reused by the first range after range 0: one that
# kept its cache would print "alpha" there.
same_any_jobs "$T/c.fxt" --time-base=trace-start
same_any_jobs "$T/c.fxt"
"$PYTHON" - "$T/one.out" "$T/want.json" <<'PY' || fail "cached strings differ from the trace's (see above)"
import json, sys
got = [[e["cat"], e["name"], e["args"], e["pid"], e["tid"]]
       for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "I"]
want = json.load(open(sys.argv[2]))
bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
for b in bad[:5]:
    print("event %d: got %r, want %r" % b)
sys.exit(1 if bad or len(got) != len(want) else 0)
PY
