# SPDX-License-Identifier: MIT
# Source hygiene: clang-format and SPDX lines (once, in the unsanitized build).
if(NOT FXT_SANITIZE)
  foreach(check clang_format spdx)
    add_test(NAME style.${check} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/style/${check}.sh ${PROJECT_SOURCE_DIR})
    set_tests_properties(style.${check} PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endif()
