# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# fxt cut reports on stderr what it kept, closed and dropped: kept counts input events only,
# the 2 ends cut adds are "closed" (the end of outer, past the window, is dropped).
cat abs.err
grep -q "kept 10 events" abs.err || fail "no 'kept 10 events'"
grep -q "closed 2" abs.err || fail "no 'closed 2'"
grep -q "dropped 1 unmatched" abs.err || fail "no 'dropped 1 unmatched'"
