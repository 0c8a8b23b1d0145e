# SPDX-License-Identifier: MIT
# needs: python3
# --time-range takes decimals with units, like fxt cut.
"$FXT" json --time-range @3000:3500 --no-system-events sys.fxt > "$T/abs.json" 2> /dev/null
"$FXT" json --time-range @3.0us:3.5us --no-system-events sys.fxt > "$T/absd.json" 2> /dev/null
cmp "$T/abs.json" "$T/absd.json" || fail "@3.0us:3.5us differs from @3000:3500"
