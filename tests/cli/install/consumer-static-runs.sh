# SPDX-License-Identifier: MIT
# The consumer linked with the static library runs.
consumer-build/consumer
