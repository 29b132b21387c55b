# SPDX-License-Identifier: GPL-3.0-or-later
# Every target of the project compiles warning-free. Warnings are errors for the project's own
# builds (developers, CI), where a new one must be fixed at once; not for a project that builds
# weightspace as its subproject, whose newer or other compiler may warn where ours did not and
# should not be stopped by it. The options apply to weightspace's own targets only: the exported
# targets carry none of them ($<BUILD_INTERFACE>), so an installed package never adds them.
option(WEIGHTSPACE_WERROR "Treat compiler warnings as errors" ${PROJECT_IS_TOP_LEVEL})
add_library(weightspace_warnings INTERFACE)
target_compile_options(weightspace_warnings INTERFACE $<BUILD_INTERFACE:-Wall -Wextra -Wshadow>)
if(WEIGHTSPACE_WERROR)
  target_compile_options(weightspace_warnings INTERFACE $<BUILD_INTERFACE:-Werror>)
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  # GCC 12 reports -Wrestrict false positives inside libstdc++'s std::string at -O2/-O3
  # (GCC bug 105329, fixed in GCC 13).
  target_compile_options(weightspace_warnings INTERFACE $<BUILD_INTERFACE:-Wno-restrict>)
endif()

if(WEIGHTSPACE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
