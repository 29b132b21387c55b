# Every target of the project compiles warning-free; warnings are errors.
add_library(weightspace_warnings INTERFACE)
target_compile_options(weightspace_warnings INTERFACE -Wall -Wextra -Werror -Wshadow -Wconversion-null)

if(WEIGHTSPACE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
