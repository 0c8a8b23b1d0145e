#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CPU seconds (user + sys, the test and every process it waited for) of each
CTest entry of a build tree, run one at a time (fixture setups first), to see
where the CPU of `make test` goes. Not a test; docs/testing.md says how to use it.

  tests/tools/test_cpu.py BUILD_DIR [CTEST ARGS...]    e.g. -LE slow, -L threads

Prints one line per test (cpu user sys wall status name), sorted by CPU, then
the total. Extra environment (ASAN_OPTIONS...) is taken from the caller's.
"""
import json
import os
import resource
import subprocess
import sys
import time

sys.dont_write_bytecode = True


def main():
    build = os.path.abspath(sys.argv[1])
    sel = sys.argv[2:]
    info = json.loads(subprocess.run(["ctest", "--show-only=json-v1", *sel], cwd=build,
                                     check=True, capture_output=True, text=True).stdout)
    tests = []
    for t in info["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        tests.append((t["name"], t["command"], props))
    # fixture setups first: the cases read what they made
    tests.sort(key=lambda x: 0 if "FIXTURES_SETUP" in x[2] else 1)
    rows = []
    for name, cmd, props in tests:
        env = dict(os.environ)
        for kv in props.get("ENVIRONMENT", []):
            k, _, v = kv.partition("=")
            env[k] = v
        cwd = props.get("WORKING_DIRECTORY", build)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        try:
            rc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, timeout=600).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        wall = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        u = after.ru_utime - before.ru_utime
        s = after.ru_stime - before.ru_stime
        skip = props.get("SKIP_RETURN_CODE")
        st = "ok" if rc == 0 else ("skip" if skip is not None and rc == int(skip) else f"rc={rc}")
        rows.append((u + s, u, s, wall, st, name))
        print(f"{u + s:7.2f} {u:7.2f} {s:7.2f} {wall:7.2f} {st:8} {name}", file=sys.stderr, flush=True)
    rows.sort(reverse=True)
    print(f"{'cpu':>7} {'user':>7} {'sys':>7} {'wall':>7} {'status':8} test")
    for r in rows:
        print(f"{r[0]:7.2f} {r[1]:7.2f} {r[2]:7.2f} {r[3]:7.2f} {r[4]:8} {r[5]}")
    tot = [sum(r[i] for r in rows) for i in range(4)]
    print(f"{tot[0]:7.2f} {tot[1]:7.2f} {tot[2]:7.2f} {tot[3]:7.2f} {'':8} TOTAL ({len(rows)} tests)")


if __name__ == "__main__":
    main()
