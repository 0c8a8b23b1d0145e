# SPDX-License-Identifier: MIT
# needs: compression
# The consumer of fxt::zio runs a zstd round trip.
consumer-build/consumer_zio
