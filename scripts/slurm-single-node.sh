#!/bin/sh
# Starts a one-node Slurm cluster on this machine (for the launcher tests and
# for trying `--launcher 'srun ...'` by hand): installs slurm-wlm and munge
# with apt if srun is missing, writes a minimal slurm.conf, starts munged,
# slurmctld and slurmd, and waits until the node accepts jobs. Run as root;
# idempotent (daemons already running are left alone). The node claims 16
# CPUs whatever the machine has, so that many short tests can run at once.
# Stop it with: scripts/slurm-single-node.sh stop
set -eu

if [ "${1:-}" = stop ]; then
  pkill -x slurmd || true
  pkill -x slurmctld || true
  pkill -x munged || true
  exit 0
fi

if ! command -v srun >/dev/null || ! command -v munged >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y slurm-wlm munge >/dev/null 2>&1 || {
    apt-get update >/dev/null && apt-get install -y slurm-wlm munge >/dev/null
  }
fi

host=$(hostname -s)
mkdir -p /etc/slurm /var/spool/slurmd /var/spool/slurmctld /var/log/slurm /run/munge
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=reduce-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/spool/slurmd
StateSaveLocation=/var/spool/slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
KillWait=2
InactiveLimit=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=16 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
# -c: start without the jobs a previous run of the cluster left behind.
pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld -c
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd

# Wait until the node is idle and a job step runs.
for _ in $(seq 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' &&
     timeout 20 srun --quiet -N1 -n1 true 2>/dev/null; then
    echo "slurm-single-node: $host is up ($(sinfo -h -o '%P %T %c CPUs'))"
    exit 0
  fi
  scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 1
done
echo "slurm-single-node: the node did not come up; see /var/log/slurm/" >&2
sinfo >&2 || true
exit 1
