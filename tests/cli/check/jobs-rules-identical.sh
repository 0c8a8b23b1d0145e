# SPDX-License-Identifier: MIT
# needs: python3
# labels: slow
# (slow: the sanitizer phases run the lighter -j comparisons of this area)
# -j 3 with every record its own range (FXT_RANGE_BYTES=8) reports like -j 1 on the rule traces
# whose verdicts depend on earlier records: per-thread order and nesting, async/flow chains
# matched in time order (also past the reorder window) and across providers, id reuse, chains
# left open by a crash, losses, the first record, the end. A reorder pool of 64 events (so
# time-order-window fills it).
export FXT_CHECK_POOL=64
for f in valid magic-first size-zero truncated too-large ts-backwards duration-unmatched \
         duration-end-first duration-unclosed duration-name async-no-begin async-never-ended \
         flow-no-begin flow-never-ended pair-after-loss other-lossy time-order time-order-window \
         time-order-bad flow-id-reused async-id-reused crash-stepped crash-cross-thread crash-long \
         ids-parent-child ids-parent-child-late ids-independent ids-ambiguous; do
  same_jobs "$f.fxt" 8 -- --json
  # each trace reports its own rule (valid and the time-order one none)
  case $f in
    valid | time-order | ids-parent-*| ids-independent) expect_eq "$f reports" "$(grep -c '"rule"' "$T/one.out" || true)" 0 ;;
    other-lossy) grep -q '"rule":"pair-after-loss"' "$T/one.out" || fail "$f: no pair-after-loss" ;;
    crash-*) grep -q 'never-ended"' "$T/one.out" || fail "$f: no never-ended" ;;
    ids-ambiguous) grep -q '"rule":"flow-no-begin"' "$T/one.out" || fail "$f: no flow-no-begin" ;;
    time-order-*) grep -q '"rule":"async-no-begin"' "$T/one.out" || fail "$f: no async-no-begin" ;;
    *) grep -q "\"rule\":\"$f\"" "$T/one.out" || fail "$f: no $f report" ;;
  esac
done
