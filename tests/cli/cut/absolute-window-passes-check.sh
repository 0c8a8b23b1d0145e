# SPDX-License-Identifier: MIT
# needs: python3
# The cut output passes fxt check with no error.
"$FXT" check abs.fxt
