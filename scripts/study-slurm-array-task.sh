#!/bin/sh
# study-slurm-array-task.sh - one task of a study's Slurm job array: the task id is
# the shard it runs (of N shards), so any array works, stepped or a rerun
# of a few shards, and each runs exactly the shards it names:
#
#   scripts/study-slurm-submit.sh -n 16 SPEC DIR            # array 0-15 + merge job
#   scripts/study-slurm-submit.sh -n 16 -a 3,7 SPEC DIR     # rerun shards 3 and 7
#   sbatch --array=0-15 scripts/study-slurm-array-task.sh SPEC DIR 16   # by hand
#
# N (the third argument) is recorded in DIR by the first task; later
# arrays may leave it out. Without it the first array's last task id + 1
# is N. Jobs whose result exists are skipped; `stencilmap -e 'study status
# DIR'` lists what is missing or failed and which shards to rerun.
#SBATCH --job-name=stencilmap-study
#SBATCH --array=0-15
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
#SBATCH --output=stencilmap-study-%A_%a.out
set -eu
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: sbatch --array=LIST scripts/study-slurm-array-task.sh SPEC DIR ?SHARDS?" >&2
    exit 2
fi
if [ $# -eq 3 ]; then
    STENCILMAP_STUDY_SHARDS=$3
    export STENCILMAP_STUDY_SHARDS
fi
# sbatch runs a copy of this file from its spool, so study.tcl is looked
# for where study-slurm-submit.sh said, in the submit directory's scripts/, then
# beside the stencilmap program's installed data.
bin=${STENCILMAP:-stencilmap}
tcl=${STENCILMAP_STUDY_TCL:-}
if [ -z "$tcl" ]; then
    exe=$(command -v "$bin" 2>/dev/null || true)
    for c in "${SLURM_SUBMIT_DIR:-.}/scripts/study.tcl" \
             "${exe%/*}/../share/stencilmap/scripts/study.tcl" \
             /usr/local/share/stencilmap/scripts/study.tcl /usr/share/stencilmap/scripts/study.tcl; do
        if [ -f "$c" ]; then tcl=$c; break; fi
    done
fi
if [ -z "$tcl" ]; then
    echo "study-slurm-array-task.sh: scripts/study.tcl not found; set STENCILMAP_STUDY_TCL" >&2
    exit 2
fi
exec "$bin" -b "$tcl" "$1" "$2"
