#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Which CLI cases the sanitizer phases need: the lines of src/ and tools/ each CTest
entry executes, from a clang source-coverage build, then a greedy choice of CLI cases
(cheapest first per new line) covering every line that the CLI cases cover and the unit
tests (which the ASan phase runs in-process) do not. Not a test; docs/testing.md says
when to run it.

  CC=clang cmake -G Ninja -S . -B build-cov -DCMAKE_BUILD_TYPE=Debug -DFXT_BUILD_BENCH=OFF \\
    -DCMAKE_{C,CXX}_FLAGS='-fprofile-instr-generate -fcoverage-mapping' \\
    -DCMAKE_{EXE,SHARED}_LINKER_FLAGS='-fprofile-instr-generate -fcoverage-mapping'
  cmake --build build-cov
  tests/tools/cover_select.py build-cov [CPU_TABLE]

CPU_TABLE: tests/tools/test_cpu.py's output for an ASan build (the cost of each case
there); without it every case costs 1. Prints the cases the sanitizers need, then those
whose every line is covered by the unit tests or the cases above ("not needed").
"""
import glob
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True


def tests_of(build):
    info = json.loads(subprocess.run(["ctest", "--show-only=json-v1", "-LE", "slow"], cwd=build,
                                     check=True, capture_output=True, text=True).stdout)
    out = []
    for t in info["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        out.append((t["name"], t["command"], props))
    out.sort(key=lambda x: 0 if "FIXTURES_SETUP" in x[2] else 1)
    return out


def lines_of(profdir, objects, src):
    raws = glob.glob(profdir + "/*.profraw")
    if not raws:
        return set()
    prof = profdir + "/all.profdata"
    subprocess.run(["llvm-profdata", "merge", "-sparse", "-o", prof, *raws], check=True)
    objs = [o for o in objects if os.path.exists(o)]
    args = ["llvm-cov", "export", "-format=lcov", "-instr-profile", prof, objs[0]]
    for o in objs[1:]:
        args += ["-object", o]
    lcov = subprocess.run(args, capture_output=True, text=True).stdout
    got, keep = set(), None
    for ln in lcov.splitlines():
        if ln.startswith("SF:"):
            f = os.path.relpath(ln[3:], src)
            keep = f if f.startswith(("src/", "tools/")) else None
        elif keep and ln.startswith("DA:"):
            n, c = ln[3:].split(",")[:2]
            if int(c) > 0:
                got.add((keep, int(n)))
    return got


def main():
    build = os.path.abspath(sys.argv[1])
    cost = {}
    if len(sys.argv) > 2:
        for ln in open(sys.argv[2]):
            p = ln.split()
            if len(p) == 6 and p[0][0].isdigit():
                cost[p[5]] = float(p[0])
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    work = build + "/cover-select"
    shutil.rmtree(work, ignore_errors=True)
    cli_objs = [build + "/fxt", build + "/record_prog", build + "/tests/fxt_xthread_trace"] + \
        glob.glob(build + "/examples/*")
    cli_objs = [o for o in cli_objs if os.path.isfile(o) and os.access(o, os.X_OK)]
    unit_objs = set()
    cases = {}
    for name, cmd, props in tests_of(build):
        unit = not name.startswith(("cli.", "perfetto.", "viewer."))
        d = work + "/" + ("unit" if unit else name)
        os.makedirs(d, exist_ok=True)
        env = dict(os.environ)
        for kv in props.get("ENVIRONMENT", []):
            k, _, v = kv.partition("=")
            env[k] = v
        env["LLVM_PROFILE_FILE"] = d + "/%p.profraw"
        rc = subprocess.run(cmd, cwd=props.get("WORKING_DIRECTORY", build), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if unit:
            if os.path.isfile(cmd[0]):
                unit_objs.add(cmd[0])
        elif name.startswith("cli.") and not name.endswith(".setup"):
            cases[name] = rc
        print(f"ran {name}: {rc}", file=sys.stderr, flush=True)
    base = lines_of(work + "/unit", sorted(unit_objs), src)
    print(f"unit tests: {len(base)} lines of src/ and tools/", file=sys.stderr)
    cov = {}
    for name in cases:
        cov[name] = lines_of(work + "/" + name, cli_objs, src) - base
    want = set().union(*cov.values()) if cov else set()
    print(f"CLI cases add {len(want)} lines", file=sys.stderr)
    chosen, left = [], set(want)
    while left:
        best = max(cov, key=lambda n: (len(cov[n] & left) / max(cost.get(n, 1.0), 0.01), -len(n)))
        gain = len(cov[best] & left)
        if gain == 0:
            break
        chosen.append((best, gain))
        left -= cov[best]
    print("# needed under sanitizers (case, lines only it adds at its turn, cost)")
    for n, g in chosen:
        print(f"need {n} {g} {cost.get(n, 0):.2f}")
    print("# not needed: every line covered by the unit tests or the cases above")
    for n in sorted(set(cases) - {c for c, _ in chosen}):
        st = "" if cases[n] == 0 else f" (exit {cases[n]})"
        print(f"skip {n} {cost.get(n, 0):.2f}{st}")


if __name__ == "__main__":
    main()
