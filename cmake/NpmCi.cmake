# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -D NPM=npm -D PACKAGE_DIR=<dir with package.json and package-lock.json> -D DIR=<build dir>
#       -D STAMP=<file> -P NpmCi.cmake
# Installs the npm packages pinned by PACKAGE_DIR's lockfile into DIR (in the build tree, never
# the source tree), exactly as locked (`npm ci`), then touches STAMP: the files npm unpacks keep
# their tarballs' old times, so the build depends on the stamp rather than on them.
foreach(variable NPM PACKAGE_DIR DIR STAMP)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "NpmCi.cmake: -D ${variable}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY ${DIR})
file(COPY_FILE ${PACKAGE_DIR}/package.json ${DIR}/package.json ONLY_IF_DIFFERENT)
file(COPY_FILE ${PACKAGE_DIR}/package-lock.json ${DIR}/package-lock.json ONLY_IF_DIFFERENT)
# --ignore-scripts: nothing pinned here needs an install script, and none should run at build time.
execute_process(COMMAND ${NPM} ci --ignore-scripts --no-audit --no-fund --loglevel=error
                WORKING_DIRECTORY ${DIR} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "`npm ci` in ${DIR} failed (exit ${status}; npm's error is above). It installs "
                      "the packages pinned by ${PACKAGE_DIR}/package-lock.json and needs the npm registry "
                      "or an npm cache that holds them; run `cd ${DIR} && ${NPM} ci` to retry by hand.")
endif()
file(TOUCH ${STAMP})
