# Every target of the project compiles warning-free; warnings are errors.
add_library(weightspace_warnings INTERFACE)
target_compile_options(weightspace_warnings INTERFACE -Wall -Wextra -Werror -Wshadow)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  # GCC 12 reports -Wrestrict false positives inside libstdc++'s std::string at -O2/-O3
  # (GCC bug 105329, fixed in GCC 13).
  target_compile_options(weightspace_warnings INTERFACE -Wno-restrict)
endif()

if(WEIGHTSPACE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
