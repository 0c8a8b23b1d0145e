# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# ts and dur exact to the ns near 2^63 at 3 ticks/us; async ids above 2^53 exact
# (checked with integer arithmetic, never floats).
"$PYTHON" - <<'PY'
import json, decimal, sys
d = json.load(open("big.json"), parse_float=decimal.Decimal, parse_int=decimal.Decimal)
ev = {e["name"]: e for e in d["traceEvents"]}
def us(ticks):  # exact: ticks * 1e6 / 3e6 us, floor to the ns
    ns = ticks * 10**9 // 3000000
    return decimal.Decimal(ns) / 1000
ok = ev["b"]["ts"] == us(2**63 - 1) and ev["b"]["ph"] == "B"
ok &= ev["x"]["ts"] == us(2**63 + 2) and ev["x"]["dur"] == us(2**64 - 1) - us(2**63 + 2)
ok &= ev["a"]["ts"] == us(2**63 + 4) and ev["a"]["id"] == "0x%x" % (2**53 + 1)
ok &= "f" not in ev  # a flow step without a begin: dropped (counted)
ok &= ev["small"]["ts"] == decimal.Decimal("3.333") and ev["small"]["args"] == {"u": 2**64 - 1, "i": -2**63}
ok &= str(ev["b"]["ts"]) == "3074457345618258602.333"
print(ev["b"]["ts"], ev["x"]["dur"], ok)
sys.exit(0 if ok else 1)
PY
grep -q "1 flow steps/ends without a begin dropped" big.err || fail "summary: $(cat big.err)"
