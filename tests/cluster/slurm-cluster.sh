#!/bin/bash
# A single-node Slurm cluster on this machine, for tests/cluster.rs (and for trying
# examples/slurm/ without a cluster): munge, slurmctld and slurmd from Debian's slurm-wlm
# and munge packages (.ci/run installs them), configured in DIR, on free loopback ports.
#
#   tests/cluster/slurm-cluster.sh start DIR   # prints: export SLURM_CONF=DIR/slurm.conf
#   tests/cluster/slurm-cluster.sh stop DIR
#
# Needs root (the daemons run as root; munged as the munge user).
set -euo pipefail

cmd=${1:-} dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
dir=$(mkdir -p "$dir" && cd "$dir" && pwd)
export SLURM_CONF=$dir/slurm.conf

stop() {
  if [ -f "$SLURM_CONF" ]; then
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    if [ -f "$f" ]; then
      pid=$(cat "$f")
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$f"
    fi
  done
  if [ -f "$dir/munged.started" ] && [ -f /run/munge/munged.pid ]; then
    kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
    rm -f "$dir/munged.started"
  fi
}

case "$cmd" in
  stop) stop; exit 0 ;;
  start) ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac

for bin in munged slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$bin" >/dev/null || PATH=$PATH:/usr/sbin
  command -v "$bin" >/dev/null || { echo "$bin not found: apt-get install slurm-wlm munge (.ci/run does)" >&2; exit 3; }
done
[ "$(id -u)" = 0 ] || { echo "starting the Slurm daemons needs root" >&2; exit 3; }

stop
mkdir -p "$dir/state" "$dir/spool" "$dir/log" /run/munge
chown munge:munge /run/munge
[ -s /etc/munge/munge.key ] || { mungekey --create >/dev/null 2>&1 || create-munge-key -f >/dev/null; }
if ! { [ -f /run/munge/munged.pid ] && kill -0 "$(cat /run/munge/munged.pid)" 2>/dev/null; }; then
  runuser -u munge -- munged 2>/dev/null || munged --force
  touch "$dir/munged.started"
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024) - 512 }' /proc/meminfo)
cat > "$SLURM_CONF" <<CONF
ClusterName=ldd-sets-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -c
slurmd
for _ in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -q idle; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.5
done
echo "the Slurm cluster did not come up; logs:" >&2
cat "$dir"/log/* >&2 || true
stop
exit 1
