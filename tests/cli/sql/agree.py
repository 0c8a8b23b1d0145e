# SPDX-License-Identifier: MIT
"""fxt sql held to independent answers to the same questions (docs/sql.md#fxt-sql).

    agree.py stats TRACE...   fxt sql vs fxt stats --json: durations per (category, name)
                              (count, total, self via parent_id, min, max), busy time per
                              thread (top-level durations), records, damaged records, logs,
                              kernel objects, counter samples, records and events per provider
    agree.py tp TRACE...      the same queries, unchanged, on Perfetto's trace_processor ($TP)
                              and on fxt sql: the same rows

Environment: FXT (the fxt binary), TP (trace_processor_shell; `tp` mode skips without it).
Prints one `ok`/`FAIL` line per comparison; exit 0 when all agree, 1 otherwise, 77 (after a
SKIP line) when tp is absent or does not start.
"""
import csv
import io
import json
import os
import subprocess
import sys

FXT = os.environ.get("FXT", "fxt")
TP = os.environ.get("TP", "")
failed = []


def run(args, data=None):
    r = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=100)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def sql_batch(trace, queries):
    """{name: rows} of one `fxt sql --json TRACE` run over the named queries (exit 1, damaged
    records, is allowed): each row is tagged with its query's name."""
    text = "".join("select '%s' as q, * from (%s);\n" % (k, v) for k, v in queries.items())
    rc, out, err = run([FXT, "sql", "--json", trace], text.encode())
    if rc not in (0, 1):
        raise SystemExit("FAIL fxt sql %s: exit %d: %s" % (trace, rc, err))
    res = {k: [] for k in queries}
    for line in out.splitlines():
        row = list(json.loads(line).values())
        res[row[0]].append(row[1:])
    return res


def expect(what, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, ": " + detail if detail else ""))
    if not ok:
        failed.append(what)


def diff_maps(what, got, want):
    bad = sorted((k for k in set(got) | set(want) if got.get(k) != want.get(k)), key=str)
    expect(what, not bad, "%d entries" % len(want) if not bad else
           "%d differ, e.g. %s" % (len(bad), "; ".join("%s: sql %s, stats %s" % (k, got.get(k), want.get(k))
                                                        for k in bad[:4])))


# ---------------------------------------------------------------- fxt stats

# Durations: slices of begin/end pairs and complete events (fxt_type; an instant and a
# zero-length duration both have dur 0), ended (a begin never ended has dur -1).
DUR = "s.fxt_type in ('duration', 'complete') and s.dur >= 0"
NAMES = ("with kids as (select parent_id as id, sum(dur) as d from slice "
         "where parent_id is not null and dur > 0 group by 1) "
         "select s.category, s.name, count(*), sum(s.dur), sum(s.dur - coalesce(k.d, 0)), min(s.dur), max(s.dur) "
         "from slice s left join kids k on k.id = s.id where " + DUR + " group by 1, 2")
BUSY = ("select p.pid, t.tid, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id "
        "join thread t on t.utid = tt.utid left join process p on p.upid = t.upid "
        "where s.depth = 0 and " + DUR + " group by 1, 2")
TOTALS = ("select (select sum(records) from trace_file), (select sum(errors) from trace_file), "
          "(select count(*) from error), (select count(*) from log), (select count(*) from kernel_object), "
          "(select count(*) from counter)")
# the records before any provider section: stats' provider null, the provider row 0 without a name
PROVIDERS = ("select case when provider_id = 0 and name is null then 'before' else provider_id end, "
             "records, events from provider")


def check_durations(rows, st, name):
    nest_exact = not any(st["nesting"].values())
    want = {(n["category"], n["name"]): [n["count"], n["total_ns"], n["self_ns"], n["min_ns"], n["max_ns"]]
            for n in st["names"] if n.get("count")}
    got = {(cat or "", nm or ""): [count, total, self_ns, lo, hi]
           for cat, nm, count, total, self_ns, lo, hi in rows["names"]}
    if not nest_exact:  # stats' own report says its self time is clamped somewhere
        for v in list(want.values()) + list(got.values()):
            v[2] = None
    diff_maps("%s: durations per (category, name): count, total, self, min, max%s" % (
        name, "" if nest_exact else " (self not compared: stats nesting %s)" % st["nesting"]), got, want)


def check_busy(rows, st, name):
    want = {}
    for t in st["threads"]:
        if t["busy_ns"]:
            key = (t["pid"], t["tid"])
            want[key] = want.get(key, 0) + t["busy_ns"]
    got = {(p, t): b for p, t, b in rows["busy"] if b}
    diff_maps("%s: busy time per thread" % name, got, want)


def check_totals(rows, st, name):
    kinds = st["kinds"]
    records, errors, error_rows, logs, kobj, counters = rows["totals"][0]
    samples = sum(s["samples"] for c in st["counters"] for s in c["series"])
    got = {"records": records, "errors": errors, "error rows": error_rows, "logs": logs,
           "kernel objects": kobj, "counter samples": counters}
    want = {"records": st["records"], "errors": st["errors"], "error rows": st["errors"],
            "logs": kinds.get("log", {}).get("count", 0),
            "kernel objects": kinds.get("kernel_object", {}).get("count", 0), "counter samples": samples}
    if st["counters_total"] > len(st["counters"]):
        del want["counter samples"], got["counter samples"]
    diff_maps("%s: totals" % name, got, want)
    want_p = {"before" if p["id"] is None else p["id"]: [p["records"], p["events"]] for p in st["providers"]}
    got_p = {i: [r, e] for i, r, e in rows["providers"]}
    diff_maps("%s: records and events per provider" % name, got_p, want_p)


def agree_stats(arg):
    """TRACE, or TRACE:totals for only the totals and providers (a trace whose durations
    stats and slice are known to pair differently: said in the caller)."""
    only = arg.endswith(":totals")
    trace = arg[:-len(":totals")] if only else arg
    # --top bounds the names and threads listed (and costs time with the slowest events kept)
    rc, out, err = run([FXT, "stats", "-j", "1", "--json", "--top", "2000", trace])
    if rc not in (0, 1):
        raise SystemExit("FAIL fxt stats %s: exit %d: %s" % (trace, rc, err))
    st = json.loads(out)
    if st["names_total"] > len(st["names"]) or st["threads_total"] > len(st["threads"]):
        raise SystemExit("FAIL %s: more than 2000 names or threads: raise --top here" % trace)
    name = os.path.basename(trace)
    rows = sql_batch(trace, {"names": NAMES, "busy": BUSY, "totals": TOTALS, "providers": PROVIDERS})
    if not only:
        check_durations(rows, st, name)
        check_busy(rows, st, name)
    check_totals(rows, st, name)


# ---------------------------------------------------------------- tp

# Queries run unchanged on both. Restrictions, each for a difference of model, not of data:
# tp makes a thread for tid 0 (swapper) and one per process (tid = pid) even without events,
# and a process for pid 0: threads and processes are compared where they have slices.
TP_QUERIES = [
    "select t.name, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id "
    "join thread t using(utid) group by 1 order by 2 desc",
    "select category, name, count(*), sum(dur) from slice group by 1, 2 order by 1, 2",
    "select depth, count(*), sum(dur) from slice group by 1 order by 1",
    "select t.tid, count(*), sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id "
    "join thread t using(utid) where s.depth = 0 group by 1 order by 1",
    "select p.name, count(*), sum(s.dur) from slice s join slice p on s.parent_id = p.id group by 1 order by 1",
    "select t.tid, t.name from thread t where t.utid in (select tt.utid from thread_track tt "
    "join slice s on s.track_id = tt.id) order by 1, 2",
    "select p.pid, p.name from process p where p.upid in (select t.upid from thread t join thread_track tt "
    "using(utid) join slice s on s.track_id = tt.id) order by 1, 2",
    "select count(*) from flow",
    "select a.name, b.name, count(*) from flow f join slice a on f.slice_out = a.id "
    "join slice b on f.slice_in = b.id group by 1, 2 order by 1, 2",
    "select ct.name, count(*), sum(c.value), min(c.ts), max(c.ts) from counter c "
    "join counter_track ct on c.track_id = ct.id group by 1 order by 1",
    # tp's FXT importer makes no scheduling slices for the idle thread (tid 0)
    "select t.tid, count(*), sum(s.dur), min(s.ts), max(s.cpu) from sched_slice s join thread t using(utid) "
    "where t.tid != 0 group by 1 order by 1",
]


def num(v):
    if v in ("", None):
        return None
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def same_row(a, b):
    """Equal rows; times within 2 ns per slice of the row (tp converts ticks with its own
    fixed-point arithmetic: tests/perfetto/tp_compare.py), reals within 1e-9 relative."""
    if len(a) != len(b):
        return False
    counts = [v for v in a if isinstance(v, int) and v > 0]
    slack = 2 * max(counts) if counts else 2
    for x, y in zip(a, b):
        if isinstance(x, int) and isinstance(y, int):
            if abs(x - y) > slack:
                return False
        elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if abs(x - y) > 1e-9 * max(abs(x), abs(y), 1):
                return False
        elif x != y:
            return False
    return True


def tagged(trace, cmd, data):
    """Rows of every TP_QUERIES query, by index: one run of cmd (tp or fxt sql) with the
    queries on its standard input, each row tagged with its query's index."""
    rc, out, err = run(cmd, data)
    if rc not in (0, 1):
        raise SystemExit("FAIL %s on %s: exit %d: %s" % (cmd[0], trace, rc, err[-1000:]))
    res = {i: [] for i in range(len(TP_QUERIES))}
    for row in csv.reader(io.StringIO(out)):
        if row and row[0].isdigit() and int(row[0]) in res:
            res[int(row[0])].append([num(None if v == "[NULL]" else v) for v in row[1:]])
    return res


def agree_tp(arg):
    """TRACE, or TRACE:nocounters: the counter query left out (ftr_counter_malformed: tp reads
    the counter records that the spec makes damaged, as its README says of its importer)."""
    nocounters = arg.endswith(":nocounters")
    trace = arg[:-len(":nocounters")] if nocounters else arg
    name = os.path.basename(trace)
    queries = "".join("select %d as q, * from (%s);\n" % (i, q) for i, q in enumerate(TP_QUERIES)).encode()
    ours = tagged(trace, [FXT, "sql", "--csv", trace], queries)
    theirs = tagged(trace, [TP, "-q", "/dev/stdin", trace], queries)
    for i, q in enumerate(TP_QUERIES):
        if nocounters and "from counter" in q:
            continue
        mine, tps = ours[i], theirs[i]
        bad = len(mine) != len(tps) or not all(same_row(a, b) for a, b in zip(mine, tps))
        detail = "%d rows" % len(mine)
        if bad:
            first = next((k for k, (a, b) in enumerate(zip(mine, tps)) if not same_row(a, b)),
                         min(len(mine), len(tps)))
            detail = "%d rows vs tp %d; row %d: sql %s, tp %s" % (
                len(mine), len(tps), first, mine[first] if first < len(mine) else None,
                tps[first] if first < len(tps) else None)
        expect("%s: %s" % (name, q[:70]), not bad, detail)


def main():
    mode, traces = sys.argv[1], sys.argv[2:]
    if mode == "tp":
        if not TP or not os.access(TP, os.X_OK):
            print("SKIP: trace_processor not found (TP=%s)" % TP)
            sys.exit(77)
        try:
            if run([TP, "-q", "/dev/stdin", "/dev/null"], b"select 1;")[0] != 0:
                raise OSError("exit status not 0")
        except (OSError, subprocess.TimeoutExpired) as e:
            print("SKIP: trace_processor does not start (needs libprotobuf32, libsqlite3-0): %s" % e)
            sys.exit(77)
    for t in traces:
        (agree_tp if mode == "tp" else agree_stats)(t)
    sys.exit(1 if failed else 0)


main()
