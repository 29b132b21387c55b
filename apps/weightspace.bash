# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for weightspace: commands, then that command's options, both read from the
# binary's own --help so they never drift from it; the values of --game (`weightspace games`),
# of options with a fixed set (--source, --memo, --profile: the set --help shows), run ids
# of the database for compare and report (`weightspace runs --json`); files for the rest.
_weightspace_runs() {  # the run ids of the --db on the line (default weightspace.sqlite)
  local db=weightspace.sqlite i
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [[ ${COMP_WORDS[i]} == --db ]]; then db=${COMP_WORDS[i + 1]}; fi
    if [[ ${COMP_WORDS[i]} == --db=* ]]; then db=${COMP_WORDS[i]#--db=}; fi
  done
  [[ -f $db ]] || return 0
  "${COMP_WORDS[0]}" runs --db "$db" --json 2>/dev/null | sed -n 's/^ *"id": *\([0-9]*\),*$/\1/p'
}

_weightspace() {
  local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD - 1]} command="" word
  for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case $word in -*) ;; *) command=$word; break ;; esac
  done
  if [[ -z $command || ($command == help && $previous == help) ]]; then
    local commands
    commands=$("${COMP_WORDS[0]}" --help 2>/dev/null | sed -n '/^Subcommands:/,$ s/^  \([a-z]*\) .*/\1/p')
    if [[ $current == -* ]]; then
      mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$current")
    else
      [[ -z $command ]] && commands+=" help"
      mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$current")
    fi
    return
  fi
  if [[ $current == -* ]]; then
    local options
    options=$("${COMP_WORDS[0]}" "$command" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$current")
    return
  fi
  if [[ $previous == --game ]]; then
    local games
    games=$("${COMP_WORDS[0]}" games 2>/dev/null | awk '{ print $2 }' | sort -u)
    [[ $command == batch ]] && games+=" all"
    mapfile -t COMPREPLY < <(compgen -W "$games" -- "$current")
    return
  fi
  if [[ $previous == --* ]]; then
    # An option whose values --help lists as TEXT:{a,b,c}.
    local values
    values=$("${COMP_WORDS[0]}" "$command" --help 2>/dev/null |
      sed -n "s/^ *\(-[a-z],\)\{0,1\}$previous [A-Z]*:{\([^}]*\)}.*/\2/p" | tr ',' ' ')
    if [[ -n $values ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$values" -- "$current")
      return
    fi
  fi
  if [[ ($command == compare || $command == report) && $previous != -* ]] ||
     [[ $command == report && $previous == --baseline ]]; then
    local runs
    runs="latest previous baseline $(_weightspace_runs)"
    [[ $command == report && $previous == --baseline ]] && runs+=" none"
    mapfile -t COMPREPLY < <(compgen -W "$runs" -- "$current")
    if [[ $command == compare ]]; then mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$current"); fi
    return
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$current")
}
complete -o filenames -F _weightspace weightspace
