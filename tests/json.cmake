fxt_add_cli_test(cli.json ${CMAKE_CURRENT_SOURCE_DIR}/cli/json.sh)
