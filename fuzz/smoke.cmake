# SPDX-License-Identifier: GPL-3.0-or-later
# One fuzzer smoke run (see CMakeLists.txt): libFuzzer writes the inputs it finds into its first
# corpus directory, so that is a fresh scratch directory, never the seed corpus in the source tree.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/new_inputs ${WORK}/artifacts)
execute_process(
  COMMAND ${FUZZER} -runs=${RUNS} -seed=1 -timeout=10 -rss_limit_mb=2048 -dict=${DICTIONARY}
          -artifact_prefix=${WORK}/artifacts/ ${WORK}/new_inputs ${CORPUS}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${result}); the input that broke it is in ${WORK}/artifacts")
endif()
