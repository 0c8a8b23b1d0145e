# SPDX-License-Identifier: MIT
# needs: python3
# fxt cut reports on stderr what it kept, closed and dropped.
cat abs.err
grep -q "kept 11 events" abs.err || fail "no 'kept 11 events'"
grep -q "closed 2" abs.err || fail "no 'closed 2'"
grep -q "dropped 1 unmatched" abs.err || fail "no 'dropped 1 unmatched'"
