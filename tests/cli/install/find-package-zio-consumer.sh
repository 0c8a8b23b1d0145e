# SPDX-License-Identifier: MIT
# needs: compression
# find_package(fxt) with compression support: a consumer builds against fxt::zio.
[ "$(< consumer.rc)" = 0 ] || fail "consumer build: exit status $(< consumer.rc)"
[ -x consumer-build/consumer_zio ] || fail "no consumer-build/consumer_zio"
