fxt_add_cli_test(cli.stats ${CMAKE_CURRENT_SOURCE_DIR}/cli/stats.sh)
