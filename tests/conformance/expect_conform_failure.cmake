# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DPROGRAM=weightspace -DGAME=SOURCE/NAME -DTRACE=FILE -DEXPECTED_OUTPUT=REGEX -P this:
# passes when `weightspace conform` exits with status 1 (a reported mismatch, not a crash)
# and its output matches EXPECTED_OUTPUT.
execute_process(COMMAND ${PROGRAM} conform --game ${GAME} --trace ${TRACE}
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message("${output}${errors}")
if(NOT status EQUAL 1)
  message(FATAL_ERROR "expected exit status 1, got '${status}'")
endif()
if(NOT output MATCHES "${EXPECTED_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECTED_OUTPUT}'")
endif()
