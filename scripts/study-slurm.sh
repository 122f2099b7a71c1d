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
# sbatch runs a copy of this file, so find study.tcl from the submit dir.
here=${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}
exec "${STENCILMAP:-stencilmap}" -b "${STENCILMAP_STUDY_TCL:-$here/scripts/study.tcl}" "$1" "$2"
