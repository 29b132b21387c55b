# SPDX-License-Identifier: GPL-3.0-or-later
# Run at build time (cmake -P): writes weightspace.1 from the binary's own help with help2man,
# each subcommand's --help included as a section, so the page never drifts from the CLI.
# -D BINARY=... -D OUTPUT=... -D HELP2MAN=... -D VERSION=...
execute_process(COMMAND ${BINARY} --help OUTPUT_VARIABLE top COMMAND_ERROR_IS_FATAL ANY)
string(REGEX MATCH "Subcommands:\n(.*)" commands "${top}")
string(REGEX MATCHALL "\n  ([a-z]+) " names "\n${CMAKE_MATCH_1}")
set(include "[COMMANDS]\n")
foreach(name IN LISTS names)
  string(STRIP "${name}" name)
  execute_process(COMMAND ${BINARY} ${name} --help OUTPUT_VARIABLE help COMMAND_ERROR_IS_FATAL ANY)
  string(REPLACE "${BINARY}" "weightspace" help "${help}")
  string(REPLACE "\\" "\\\\" help "${help}")
  string(APPEND include ".SS ${name}\n.nf\n${help}\n.fi\n")
endforeach()
string(APPEND include "[SEE ALSO]\nThe user guide, docs/user-guide.md (installed under share/doc/weightspace).\n")
file(WRITE ${OUTPUT}.include "${include}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1 --version-string=${VERSION}
                        --name=exact,\ fast\ grading\ of\ hand-written\ MinAtar\ policy\ weights
                        --include=${OUTPUT}.include --output=${OUTPUT} ${BINARY}
                COMMAND_ERROR_IS_FATAL ANY)
