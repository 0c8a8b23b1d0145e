# SPDX-License-Identifier: MIT
# The merged archive passes fxt check with no error.
"$FXT" check m.fxt
