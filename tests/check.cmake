fxt_add_cli_test(cli.hostile ${CMAKE_CURRENT_SOURCE_DIR}/cli/hostile.sh)
