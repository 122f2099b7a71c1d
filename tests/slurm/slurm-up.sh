#!/bin/sh
# slurm-up.sh DIR - a private one-machine Slurm for the tests: munged,
# slurmctld and slurmd from the Debian packages (slurm-wlm, munge), all
# state, sockets, logs and configuration under DIR, listening on the
# loopback address only. Needs root (slurmd runs jobs as their user).
# Prints the SLURM_CONF to export; exit 77 when it cannot run here, with
# the reason on stderr. Stop it with slurm-down.sh DIR.
set -u
dir=${1:?usage: slurm-up.sh DIR}
skip() { echo "slurm-up: $*" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (slurmd starts jobs as their user)"
for p in munged slurmctld slurmd sbatch squeue scontrol sacct; do
    command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
        skip "$p not found: install the Debian packages slurm-wlm and munge"
done
PATH=$PATH:/usr/sbin
mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/munge" "$dir/ctld" "$dir/spool" "$dir/log"
chmod 700 "$dir/munge"

# Two free loopback ports (ss lists the ones taken).
taken=$(ss -Htan 2>/dev/null | awk '{print $4}' | sed 's/.*://')
free_from() {
    p=$1
    while echo "$taken" | grep -qx "$p"; do p=$((p + 1)); done
    echo "$p"
}
ctld_port=$(free_from $((20000 + $$ % 20000)))
slurmd_port=$(free_from $((ctld_port + 1)))

# munge: its own key and socket.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/seed" || skip "munged did not start (see $dir/log/munged.log)"

host=$(hostname -s)
# The daemons bind to the address their host name resolves to when that is
# loopback (the configured addresses are 127.0.0.1 either way); where the
# name resolves elsewhere they keep Slurm's default, any address.
bind="# (listening on any address: $host does not resolve to loopback)"
case $(getent hosts "$host" 2>/dev/null | awk '{print $1; exit}') in
127.*|::1) bind="CommunicationParameters=NoInAddrAny,NoCtldInAddrAny" ;;
esac
mkdir -p "$dir/spool/$host"
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
cat > "$dir/slurm.conf" <<CONF
# A private test cluster: one node, loopback only.
ClusterName=smtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
$bind
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
SchedulerParameters=defer_batch=0
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" -i || skip "slurmctld did not start (see $dir/log/slurmctld.log)"
slurmd -f "$SLURM_CONF" || skip "slurmd did not start (see $dir/log/slurmd.log)"

# Ready when the node is idle: wait with a deadline.
i=0
while [ $i -lt 60 ]; do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -1)
    case $state in
    idle*)
        if [ -s "$dir/slurmd.pid" ] && kill -0 "$(cat "$dir/slurmd.pid")" 2>/dev/null; then
            echo "$SLURM_CONF"
            exit 0
        fi ;;
    esac
    sleep 1
    i=$((i + 1))
done
echo "slurm-up: the node did not become idle in 60 s (state: ${state:-none}); logs in $dir/log" >&2
exit 1
