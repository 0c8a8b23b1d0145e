# SPDX-License-Identifier: MIT
# fxt help dump prints the usage of fxt dump (see .stdout.glob).
"$FXT" help dump
