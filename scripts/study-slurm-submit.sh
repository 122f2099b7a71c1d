#!/bin/sh
# study-slurm-submit.sh - submit a study to Slurm: a job array of its shards and
# a merge job that runs once every task succeeded (--dependency=afterok).
#
#   scripts/study-slurm-submit.sh [-n SHARDS] [-a ARRAY] [-o MERGED] SPEC DIR [SBATCH OPTION ...]
#
#   -n SHARDS  how many shards the jobs are split into (default: what DIR
#              recorded, else 16)
#   -a ARRAY   the array's task ids = the shards to run (default 0-(SHARDS-1));
#              e.g. 0-14:2, or 3,7 to rerun the shards `study status` lists
#   -o MERGED  the merged CSV (default DIR/merged.csv)
# Further arguments go to both sbatch calls (--partition=..., --time=...).
# Prints "array JOBID" and "merge JOBID". STENCILMAP names the program
# (default: stencilmap in PATH).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
shards=""
array=""
merged=""
while getopts n:a:o: opt; do
    case $opt in
    n) shards=$OPTARG ;;
    a) array=$OPTARG ;;
    o) merged=$OPTARG ;;
    *) echo "usage: study-slurm-submit.sh [-n SHARDS] [-a ARRAY] [-o MERGED] SPEC DIR [SBATCH OPTION ...]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "usage: study-slurm-submit.sh [-n SHARDS] [-a ARRAY] [-o MERGED] SPEC DIR [SBATCH OPTION ...]" >&2
    exit 2
fi
spec=$1
dir=$2
shift 2
bin=${STENCILMAP:-stencilmap}
case $bin in
*/*) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;;
esac
case $spec in
/*|"{"*) ;;
*) [ -f "$spec" ] && spec=$(pwd)/$spec ;;
esac
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
mkdir -p "$dir"
if [ -z "$shards" ] && [ -f "$dir/study.json" ]; then
    shards=$(sed -n 's/^[[:space:]]*"shards":[[:space:]]*\([0-9]*\).*/\1/p' "$dir/study.json" | head -1)
fi
shards=${shards:-16}
array=${array:-0-$((shards - 1))}
export STENCILMAP="$bin" STENCILMAP_STUDY_TCL="$here/study.tcl"
jid=$(sbatch --parsable --export=ALL --array="$array" --output="$dir/slurm-%A_%a.out" "$@" \
      "$here/study-slurm-array-task.sh" "$spec" "$dir" "$shards")
jid=${jid%%;*}
mid=$(sbatch --parsable --export=ALL --dependency=afterok:"$jid" --kill-on-invalid-dep=yes \
      --job-name=stencilmap-merge --output="$dir/slurm-merge-%j.out" "$@" \
      "$here/study-slurm-merge-job.sh" "$dir" "${merged:-$dir/merged.csv}")
echo "array ${jid}"
echo "merge ${mid%%;*}"
