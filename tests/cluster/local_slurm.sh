# SPDX-License-Identifier: GPL-3.0-or-later
# A Slurm cluster of one node on this machine, for tests and figures: munged, slurmctld and
# slurmd of its own, everything (key, config, state, spool, logs, sockets) in one folder, on
# free ports, as root (the user CI runs as). Sourced, not run:
#   source tests/cluster/local_slurm.sh
#   local_slurm_start DIR      # exports SLURM_CONF; fails with the daemons' own errors
#                              # (DIR's parents must be searchable by everyone: munged's rule)
#   ... sbatch / srun / scancel / squeue ...
#   local_slurm_stop           # also safe to call when nothing was started (an EXIT trap)
# Debian 12: apt-get install slurm-wlm munge (scripts/install-deps.sh installs them).

local_slurm_pids=()
local_slurm_dir=""

local_slurm_fail() {  # message: print it, the daemons' logs, and stop
  echo "local Slurm: $1" >&2
  local log
  for log in "$local_slurm_dir"/log/*; do
    [[ -f $log ]] || continue
    echo "--- $log (last 20 lines)" >&2
    tail -n 20 "$log" >&2
  done
  return 1
}

local_slurm_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

local_slurm_start() {
  local dir=$1 tool
  for tool in munged munge slurmctld slurmd sbatch sinfo scancel; do
    command -v "$tool" >/dev/null || { echo "local Slurm: $tool not found: install slurm-wlm and munge" >&2; return 1; }
  done
  local_slurm_dir=$dir
  mkdir -p "$dir"/{munge,state,spool,log}
  # munged wants its socket's folders searchable by everyone and its key readable by it alone.
  chmod 755 "$dir" "$dir/munge"
  head -c 1024 /dev/urandom > "$dir/munge.key"
  chmod 400 "$dir/munge.key"
  munged --socket="$dir/munge/socket" --key-file="$dir/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" 2>>"$dir/log/munged.log" ||
    { local_slurm_fail "munged did not start"; return 1; }
  local_slurm_pids+=("$(cat "$dir/munge/munged.pid")")

  local controller_port node_port
  controller_port=$(local_slurm_free_port)
  node_port=$(local_slurm_free_port)
  cat > "$dir/slurm.conf" <<EOF
ClusterName=weightspace-test
SlurmctldHost=localhost
SlurmctldPort=$controller_port
SlurmdPort=$node_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" >>"$dir/log/slurmctld.out" 2>&1 &
  local_slurm_pids+=("$!")
  slurmd -D -N localhost -f "$SLURM_CONF" >>"$dir/log/slurmd.out" 2>&1 &
  local_slurm_pids+=("$!")

  local state="" waited
  for ((waited = 0; waited < 120; ++waited)); do
    state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
    [[ $state == idle ]] && return 0
    local pid
    for pid in "${local_slurm_pids[@]}"; do
      kill -0 "$pid" 2>/dev/null || { local_slurm_fail "a daemon (pid $pid) exited"; return 1; }
    done
    sleep 0.5
  done
  local_slurm_fail "the node is not idle after 60 s (state: ${state:-none})"
}

local_slurm_stop() {
  local pid
  # scancel first, so that no job step outlives its daemons.
  [[ -n ${SLURM_CONF:-} && -f ${SLURM_CONF:-} ]] && scancel --user=root >/dev/null 2>&1 || true
  for pid in "${local_slurm_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${local_slurm_pids[@]}"; do
    local waited
    for ((waited = 0; waited < 50; ++waited)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  done
  local_slurm_pids=()
}
