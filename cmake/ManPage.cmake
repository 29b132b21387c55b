# SPDX-License-Identifier: GPL-3.0-or-later
# Run at build time (cmake -P): writes weightspace.1 from the binary's own help with help2man,
# so the page never drifts from the CLI: a SYNOPSIS line per command, then a section per
# command (its description and its options as tagged paragraphs, which man fills to the
# terminal's width, so the page reads at 80 columns), then apps/man/sections.roff (EXIT
# STATUS, ENVIRONMENT, FILES, EXAMPLES, SEE ALSO).
# -D BINARY=... -D OUTPUT=... -D HELP2MAN=... -D VERSION=... -D SECTIONS=apps/man/sections.roff

# roff text of one line of help: backslashes and hyphens escaped (a "-" would print as a
# typographic hyphen that cannot be pasted into a shell), a leading dot or quote protected.
function(roff_text out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND ${BINARY} --help OUTPUT_VARIABLE top COMMAND_ERROR_IS_FATAL ANY)
string(REGEX MATCH "Subcommands:\n(.*)" commands "${top}")
string(REGEX MATCHALL "\n  ([a-z]+) " names "\n${CMAKE_MATCH_1}")
set(synopsis "[SYNOPSIS]\n.nf\n\\fBweightspace\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n\\fBweightspace help\\fR [\\fICOMMAND\\fR]\n\\fBweightspace \\-\\-version\\fR\n")
set(sections "[COMMANDS]\n")
foreach(name IN LISTS names)
  string(STRIP "${name}" name)
  execute_process(COMMAND ${BINARY} ${name} --help OUTPUT_VARIABLE help COMMAND_ERROR_IS_FATAL ANY)
  string(REPLACE "${BINARY}" "weightspace" help "${help}")
  # One list element per line: CMake lists split at ';', so those are kept aside first.
  string(REPLACE ";" "<semicolon>" help "${help}")
  string(REPLACE "\n" ";" lines "${help}")
  set(description "")
  set(usage "")
  set(options "")
  foreach(line IN LISTS lines)
    string(REPLACE "<semicolon>" ";" line "${line}")
    if(line MATCHES "^Usage: weightspace (.*)$")
      roff_text(usage "${CMAKE_MATCH_1}")
    elseif(usage STREQUAL "" AND NOT line STREQUAL "")
      roff_text(text "${line}")
      string(APPEND description "${text}\n")
    elseif(line MATCHES "^([A-Z][A-Za-z ]*):$")
      string(APPEND options ".PP\n\\fI${CMAKE_MATCH_1}:\\fR\n")
    elseif(line MATCHES "^  ([^ ].*[^ ])   *([^ ].*)$")  # an option, two spaces or more, its text
      roff_text(tag "${CMAKE_MATCH_1}")
      roff_text(text "${CMAKE_MATCH_2}")
      string(APPEND options ".TP\n.B ${tag}\n${text}\n")
    elseif(line MATCHES "^  ([^ ].*)$")  # an option too long for the column: its text follows
      roff_text(tag "${CMAKE_MATCH_1}")
      string(APPEND options ".TP\n.B ${tag}\n")
    elseif(line MATCHES "^     *([^ ].*)$")
      roff_text(text "${CMAKE_MATCH_1}")
      string(APPEND options "${text}\n")
    endif()
  endforeach()
  string(APPEND synopsis "\\fBweightspace ${usage}\n")
  string(APPEND sections ".SS \"weightspace ${name}\"\n${description}.PP\n\\fBweightspace ${usage}\n${options}")
endforeach()
string(APPEND synopsis ".fi\n")
file(READ ${SECTIONS} static)
file(WRITE ${OUTPUT}.include "${synopsis}${sections}${static}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1 --version-string=${VERSION}
                        --name=exact,\ fast\ grading\ of\ hand-written\ MinAtar\ policy\ weights
                        --include=${OUTPUT}.include --output=${OUTPUT} ${BINARY}
                COMMAND_ERROR_IS_FATAL ANY)
