#!/bin/sh
# study-slurm.sh - a study as a Slurm job array: each array task runs the
# shard SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT (study run reads
# them), writing one result file a job into DIR on a shared file system.
#
#   sbatch --array=0-15 scripts/study-slurm.sh SPEC DIR
#   stencilmap -e 'study merge DIR -format csv' > study.csv
#
# A failed or pre-empted task is rerun with the same command: jobs whose
# result exists are skipped. Change --array (0-N gives N+1 shards) freely.
#SBATCH --job-name=stencilmap-study
#SBATCH --array=0-15
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
#SBATCH --output=stencilmap-study-%A_%a.out
set -eu
if [ $# -ne 2 ]; then
    echo "usage: sbatch scripts/study-slurm.sh SPEC DIR" >&2
    exit 2
fi
# sbatch runs a copy of this file from its spool, so study.tcl is looked
# for in the submit directory's scripts/, then where make install puts it.
tcl=${STENCILMAP_STUDY_TCL:-}
if [ -z "$tcl" ]; then
    for c in "${SLURM_SUBMIT_DIR:-.}/scripts/study.tcl" "$(dirname "$0")/study.tcl" \
             /usr/local/share/stencilmap/scripts/study.tcl /usr/share/stencilmap/scripts/study.tcl; do
        if [ -f "$c" ]; then tcl=$c; break; fi
    done
fi
if [ -z "$tcl" ]; then
    echo "study-slurm.sh: scripts/study.tcl not found; set STENCILMAP_STUDY_TCL" >&2
    exit 2
fi
exec "${STENCILMAP:-stencilmap}" -b "$tcl" "$1" "$2"
