#!/bin/sh
# slurm-down.sh DIR - stop what slurm-up.sh DIR started, by its pid files.
dir=${1:?usage: slurm-down.sh DIR}
for f in slurmd.pid slurmctld.pid munge/munged.pid; do
    [ -s "$dir/$f" ] || continue
    pid=$(cat "$dir/$f")
    kill "$pid" 2>/dev/null || continue
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
done
exit 0
