# SPDX-License-Identifier: GPL-3.0-or-later
# WEIGHTSPACE_STATIC_DEPS: the weightspace executable loads only the shared libraries it cannot
# do without. A short grade is mostly process start, and every shared library costs its mapping
# and symbol relocations at each start, 0.1-0.3 ms apiece on the project's machine
# (docs/performance.md, "Process start"). So, with the option on:
#   - nettle, utf8proc and SQLite, which Debian ships as static archives, are linked from them,
#     but only into targets that set the property WEIGHTSPACE_STATIC_DEPS (the executable): the
#     libraries, the Python module (a shared object) and the installed CMake package keep the
#     shared libraries;
#   - spdlog with fmt, and toml++, which only apps/ uses, are compiled header-only there.
# oneTBB and libstdc++ stay shared: Debian has no static oneTBB, and libtbb.so needs
# libstdc++.so, so a static libstdc++ would not spare that load but would add a second C++
# runtime to the process (its own exception and allocator state beside the shared one).
# Off under the sanitizers and for the fuzzers, whose builds are kept as plain as possible, and
# without the executable (the Python module's build, a subproject), which needs none of it.
if(WEIGHTSPACE_SANITIZE OR WEIGHTSPACE_FUZZ OR NOT WEIGHTSPACE_BUILD_CLI)
  set(weightspace_static_deps_default OFF)
else()
  set(weightspace_static_deps_default ON)
endif()
option(WEIGHTSPACE_STATIC_DEPS
       "Link the weightspace executable with static archives and header-only libraries where Debian has them"
       ${weightspace_static_deps_default})

# weightspace_prefer_archive(<imported target> <archive file name>): a binary that sets the
# property WEIGHTSPACE_STATIC_DEPS links <archive> in place of the shared library named by the
# imported target (one from pkg_check_modules(... IMPORTED_TARGET)); every other binary links
# what it did. The archive must need no other library: one that did would fail the link with its
# missing symbols rather than load anything at start. Without the archive (a distribution that
# ships none) the executable keeps the shared library, and configuring says so.
function(weightspace_prefer_archive target archive)
  if(NOT WEIGHTSPACE_STATIC_DEPS)
    return()
  endif()
  string(MAKE_C_IDENTIFIER "weightspace_archive_${archive}" variable)
  find_library(${variable} NAMES ${archive})
  if(NOT ${variable})
    message(WARNING "WEIGHTSPACE_STATIC_DEPS: ${archive} not found, so the weightspace executable links ${target} "
                    "as a shared library (Debian's development package of the library has the archive; "
                    "-DWEIGHTSPACE_STATIC_DEPS=OFF silences this)")
    return()
  endif()
  get_target_property(shared ${target} INTERFACE_LINK_LIBRARIES)
  set(static_binary "$<BOOL:$<TARGET_PROPERTY:WEIGHTSPACE_STATIC_DEPS>>")
  set(links "$<${static_binary}:${${variable}}>")
  foreach(item IN LISTS shared)
    list(APPEND links "$<$<NOT:${static_binary}>:${item}>")
  endforeach()
  set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES "${links}")
endfunction()

weightspace_prefer_archive(PkgConfig::nettle libnettle.a)
weightspace_prefer_archive(PkgConfig::utf8proc libutf8proc.a)

# weightspace::spdlog: what apps/ links for logging. Debian's spdlog::spdlog_header_only still
# links the shared libfmt, and header-only spdlog costs every unit that logs about 8 s at -O3; so
# spdlog's definitions are compiled once here (apps/spdlog_definitions.cpp, SPDLOG_COMPILED_LIB)
# with fmt header-only (cheap: its heavy parts are templates compiled where used either way).
if(WEIGHTSPACE_BUILD_CLI)  # only the command line logs
  if(WEIGHTSPACE_STATIC_DEPS)
    add_library(weightspace_spdlog STATIC ${PROJECT_SOURCE_DIR}/apps/spdlog_definitions.cpp)
    # The target's own properties, read here: $<TARGET_PROPERTY> would add those of fmt::fmt.
    get_target_property(spdlog_includes spdlog::spdlog_header_only INTERFACE_INCLUDE_DIRECTORIES)
    target_include_directories(weightspace_spdlog SYSTEM PUBLIC ${spdlog_includes})
    target_compile_definitions(weightspace_spdlog PUBLIC SPDLOG_COMPILED_LIB SPDLOG_FMT_EXTERNAL)
    target_link_libraries(weightspace_spdlog PUBLIC fmt::fmt-header-only)
    find_package(Threads REQUIRED)
    target_link_libraries(weightspace_spdlog PRIVATE Threads::Threads weightspace_warnings)
  else()
    add_library(weightspace_spdlog INTERFACE)
    target_link_libraries(weightspace_spdlog INTERFACE spdlog::spdlog)
  endif()
  add_library(weightspace::spdlog ALIAS weightspace_spdlog)
endif()

# weightspace_header_only(<name> <imported target> [<definition>...]): an interface target that
# compiles the library header-only (its headers, with the given definitions) when the option is
# on, and links the imported target otherwise.
function(weightspace_header_only name imported)
  add_library(${name} INTERFACE)
  if(WEIGHTSPACE_STATIC_DEPS)
    get_target_property(includes ${imported} INTERFACE_INCLUDE_DIRECTORIES)
    target_include_directories(${name} SYSTEM INTERFACE ${includes})
    target_compile_definitions(${name} INTERFACE ${ARGN})
  else()
    target_link_libraries(${name} INTERFACE ${imported})
  endif()
endfunction()

# What the executable then contains of other projects ships with its licence notices (utf8proc,
# spdlog, fmt and toml++ under the MIT licence ask for theirs; nettle is LGPL-3+ or GPL-2+;
# SQLite is in the public domain): Debian's copyright file of each, beside README.md.
if(WEIGHTSPACE_STATIC_DEPS AND WEIGHTSPACE_BUILD_CLI)
  foreach(package libutf8proc-dev nettle-dev libsqlite3-dev libspdlog-dev libfmt-dev libtomlplusplus-dev)
    set(notice /usr/share/doc/${package}/copyright)
    if(EXISTS ${notice})
      install(FILES ${notice} RENAME copyright.${package} DESTINATION ${CMAKE_INSTALL_DOCDIR}/third-party
              COMPONENT cli)
    else()
      message(WARNING "WEIGHTSPACE_STATIC_DEPS: ${notice} not found; the package will lack ${package}'s licence notice")
    endif()
  endforeach()
endif()
