# SPDX-License-Identifier: MIT
# The rules of `fxt check --rules` (tools/cmd_check.c's CHECK_RULES list) are docs/check.md's
# rule table: the same ids with the same severities, in the same order.
"$FXT" check --rules | awk '{ print $1, $2 }' > "$T/code"
awk '/^## Rules/ { on = 1; next } /^## / { on = 0 }
     on && /^\| `/ { split($0, c, "|"); id = c[2]; gsub(/[ `]/, "", id); sev = c[3]; gsub(/ /, "", sev); print id, sev }' \
    "$SRC/docs/check.md" > "$T/docs"
[ -s "$T/code" ] || fail "fxt check --rules lists nothing"
diff "$T/docs" "$T/code" > "$T/diff" || { cat "$T/diff"; fail "docs/check.md's rule table (<) differs from fxt check --rules (>)"; }
