# SPDX-License-Identifier: MIT
# The consumer linked with the shared library runs (found through the build rpath).
consumer-build/consumer_shared
