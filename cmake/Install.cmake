# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install`: the weightspace binary, the libraries and their headers, a CMake package
# (find_package(weightspace) -> weightspace::weightspace), the docs and the licence, in the
# GNU places; and the .deb that `cpack -G DEB` makes of them.
include(CMakePackageConfigHelpers)

# weightspace::weightspace: the public API, include/weightspace/ (grade, BatchGrader,
# reward_json), linking the static libraries below it. Only those headers are installed: the
# engine's own (oneTBB, intrinsics, the game templates) stay inside the libraries.
add_library(weightspace_library INTERFACE)
add_library(weightspace::weightspace ALIAS weightspace_library)
set_target_properties(weightspace_library PROPERTIES EXPORT_NAME weightspace)
target_link_libraries(weightspace_library INTERFACE weightspace_engine)
target_include_directories(weightspace_library INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                         $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(weightspace_library INTERFACE cxx_std_20)

set(weightspace_libraries weightspace_games weightspace_policy weightspace_parser_values weightspace_parser_python
    weightspace_parser_numpy weightspace_parser weightspace_engine)
foreach(library IN LISTS weightspace_libraries)
  string(REPLACE "weightspace_" "" export_name ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
# Linked privately into the static libraries, so named (link-only) in their exported interface.
set_target_properties(weightspace_warnings PROPERTIES EXPORT_NAME warnings)
set_target_properties(weightspace_numerics PROPERTIES EXPORT_NAME numerics)

if(TARGET weightspace)
  install(TARGETS weightspace RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
  # `weightspace serve` execs it (apps/commands/serve_handoff.cpp); not a command of its own.
  install(TARGETS weightspace-serve RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/weightspace COMPONENT cli)
endif()
install(TARGETS weightspace_library ${weightspace_libraries} weightspace_warnings weightspace_numerics
        EXPORT weightspaceTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY include/weightspace DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
        FILES_MATCHING PATTERN "*.hpp")
set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/weightspace)
install(EXPORT weightspaceTargets NAMESPACE weightspace:: DESTINATION ${config_dir} COMPONENT development)
configure_package_config_file(cmake/weightspaceConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/weightspaceConfig.cmake
                              INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/weightspaceConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/weightspaceConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/weightspaceConfigVersion.cmake
        DESTINATION ${config_dir} COMPONENT development)
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli FILES_MATCHING PATTERN "*.md")

if(NOT PROJECT_IS_TOP_LEVEL)
  return()  # a parent project packages itself
endif()

# `cpack -G DEB` in the build folder: one package with the binary, man page and completion,
# the library and CMake package, and the Python module. Depends: computed by dpkg-shlibdeps
# from the shared libraries the binary and the module link; the module adds python3 and numpy.
set(CPACK_PACKAGE_NAME weightspace)
set(CPACK_PACKAGE_VENDOR weightspace)
set(CPACK_PACKAGE_CONTACT "weightspace developers <weightspace@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "exact, fast grading of hand-written MinAtar policy weights")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libtbb-dev, libutf8proc-dev, nettle-dev, pkg-config")
if(WEIGHTSPACE_PYTHON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${WEIGHTSPACE_PYTHON_DEPENDS}")
endif()
include(CPack)
