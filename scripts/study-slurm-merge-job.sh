#!/bin/sh
# study-slurm-merge-job.sh DIR ?OUT? - the merge job study-slurm-submit.sh queues after the
# array: the table as CSV in OUT (default DIR/merged.csv).
#SBATCH --ntasks=1
#SBATCH --time=00:10:00
set -eu
bin=${STENCILMAP:-stencilmap}
tcl=${STENCILMAP_STUDY_TCL:-}
tcl=${tcl%/study.tcl}
[ -n "$tcl" ] && tcl=$tcl/study-merge.tcl
if [ -z "$tcl" ] || [ ! -f "$tcl" ]; then
    exe=$(command -v "$bin" 2>/dev/null || true)
    for c in "${SLURM_SUBMIT_DIR:-.}/scripts/study-merge.tcl" \
             "${exe%/*}/../share/stencilmap/scripts/study-merge.tcl" \
             /usr/local/share/stencilmap/scripts/study-merge.tcl /usr/share/stencilmap/scripts/study-merge.tcl; do
        if [ -f "$c" ]; then tcl=$c; break; fi
    done
fi
exec "$bin" -b "$tcl" "$@"
