# bash completion for threadmap-cli: subcommands, their options, kernel ids
# (asked from `threadmap-cli list`, so they follow the installed catalog),
# devices, formats and session files.
_threadmap_cli_kernels() {
  "${1:-threadmap-cli}" list 2>/dev/null | awk '$1 ~ /^[a-z]+\.[A-Za-z_]+$/ {print $1}'
}

_threadmap_cli() {
  local cur prev words cword
  _init_completion || return

  local subcommands="devices list run sweep bench record counters show keep-source source doctor exercises check serve"
  local run_opts="--device --reps --warmup --seed --format"
  local sub="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      devices | list | run | sweep | bench | record | counters | show | keep-source | source | doctor | exercises | check | serve)
        sub="${words[i]}"
        break
        ;;
    esac
  done

  case "$prev" in
    --device)
      COMPREPLY=($(compgen -W "auto cuda:0 opencl:0:0" -- "$cur"))
      return
      ;;
    --format)
      case "$sub" in
        devices | list | show | counters | doctor | exercises) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "text json csv" -- "$cur")) ;;
      esac
      return
      ;;
    -o | --output)
      _filedir threadmap
      return
      ;;
    --blocks)
      COMPREPLY=($(compgen -W "all" -- "$cur"))
      return
      ;;
    --reps | --warmup | --seed | --size | --capacity | --set | --vary)
      return
      ;;
  esac

  if [[ -z "$sub" ]]; then
    COMPREPLY=($(compgen -W "$subcommands --help --version" -- "$cur"))
    return
  fi

  local opts=""
  case "$sub" in
    devices | list) opts="--format" ;;
    run) opts="--set $run_opts" ;;
    sweep) opts="--vary --set $run_opts" ;;
    bench) opts="--size --set $run_opts" ;;
    record) opts="--set --blocks --capacity -o --output --device --reps --warmup --seed" ;;
    counters) opts="--set --blocks --batch-records --device --format --source --timeout" ;;
    source) opts="--dialect" ;;
    doctor) opts="--arch --format" ;;
    exercises) opts="--format --lang" ;;
    check) opts="--device --format --timeout --reps" ;;
    show) opts="--format" ;;
    serve) opts="" ;;
  esac

  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
    return
  fi
  case "$sub" in
    run | sweep | record | counters)
      # The kernel id is the one positional argument.
      local positional=0
      for ((i = i + 1; i < cword; i++)); do
        [[ "${words[i]}" == -* ]] && { ((i++)); continue; }
        positional=1
      done
      ((positional)) || COMPREPLY=($(compgen -W "$(_threadmap_cli_kernels "${words[0]}")" -- "$cur"))
      ;;
    show | keep-source)
      _filedir threadmap
      ;;
  esac
}
complete -F _threadmap_cli threadmap-cli
