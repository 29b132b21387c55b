# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for weightspace: subcommands, then that subcommand's options, both read from
# the binary's own --help so they never drift from it; files for everything else.
_weightspace() {
  local current=${COMP_WORDS[COMP_CWORD]} command="" word
  for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case $word in -*) ;; *) command=$word; break ;; esac
  done
  if [[ -z $command ]]; then
    local commands
    commands=$("${COMP_WORDS[0]}" --help 2>/dev/null | sed -n '/^Subcommands:/,$ s/^  \([a-z]*\) .*/\1/p')
    if [[ $current == -* ]]; then
      mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$current")
    else
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
  mapfile -t COMPREPLY < <(compgen -f -- "$current")
}
complete -o filenames -F _weightspace weightspace
