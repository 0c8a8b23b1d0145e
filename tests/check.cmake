fxt_add_cli_test(cli.check ${CMAKE_CURRENT_SOURCE_DIR}/cli/check.sh)
