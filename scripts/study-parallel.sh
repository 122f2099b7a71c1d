#!/bin/sh
# study-parallel.sh - a study on one machine (or over ssh hosts) with GNU
# parallel: N shards, J at a time, then the merged table.
#
#   scripts/study-parallel.sh [-j J] [-n SHARDS] SPEC DIR [PARALLEL OPTION ...]
#
# parallel keeps a job log in DIR/parallel.joblog; running the same command
# again reruns only the shards that failed or never ran (--resume-failed),
# and jobs already in DIR are skipped within a shard. The table goes to
# DIR/merged.csv once every job has a result. STENCILMAP names the program.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
shards=""
while getopts j:n: opt; do
    case $opt in
    j) jobs=$OPTARG ;;
    n) shards=$OPTARG ;;
    *) echo "usage: study-parallel.sh [-j J] [-n SHARDS] SPEC DIR [PARALLEL OPTION ...]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "usage: study-parallel.sh [-j J] [-n SHARDS] SPEC DIR [PARALLEL OPTION ...]" >&2
    exit 2
fi
command -v parallel >/dev/null 2>&1 || {
    echo "study-parallel.sh: GNU parallel not found (Debian: apt-get install parallel)" >&2
    exit 2
}
spec=$1
dir=$2
shift 2
bin=${STENCILMAP:-stencilmap}
mkdir -p "$dir"
if [ -z "$shards" ] && [ -f "$dir/study.json" ]; then
    shards=$(sed -n 's/^[[:space:]]*"shards":[[:space:]]*\([0-9]*\).*/\1/p' "$dir/study.json" | head -1)
fi
shards=${shards:-$((jobs * 4))}
# The shard list is the same on every run, so the job log's sequence
# numbers keep naming the same shards for --resume-failed.
rc=0
seq 0 $((shards - 1)) | parallel --will-cite --joblog "$dir/parallel.joblog" --resume-failed \
    -j "$jobs" "$@" "$bin" -b "$here/study.tcl" "$spec" "$dir" "{}/$shards" || rc=$?
if [ $rc -ne 0 ]; then
    echo "study-parallel.sh: $rc shard(s) failed; see $dir/parallel.joblog, rerun the same command" >&2
    exit 1
fi
exec "$bin" -b "$here/study-merge.tcl" "$dir"
