# SPDX-License-Identifier: MIT
# find_package(fxt): a consumer builds against fxt::fxt and fxt::fxt_shared.
if [ "$(< consumer.rc)" != 0 ]; then
  tail -20 consumer.log consumer.err
  fail "consumer build: exit status $(< consumer.rc)"
fi
[ -x consumer-build/consumer ] || fail "no consumer-build/consumer"
[ -x consumer-build/consumer_shared ] || fail "no consumer-build/consumer_shared"
