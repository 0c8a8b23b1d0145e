fxt_add_cli_test(cli.synth ${CMAKE_CURRENT_SOURCE_DIR}/cli/synth.sh)
