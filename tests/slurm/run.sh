#!/bin/sh
# run.sh BIN - `make check-slurm`: a study on a real Slurm (slurmctld and
# slurmd started here by slurm-up.sh, loopback only). A stepped array runs
# exactly the shards it names, a shard killed with scancel leaves its jobs
# missing and the dependent merge job never runs, `study status` names
# the shards to rerun, a rerun of just those completes the study and its
# merge job writes the table, equal to the same study run in one process.
# Then mapping runs for real through Slurm (run launch -slurm: srun and
# mpirun in the allocation, bound to places; run wait).
# Ends with "slurm: N passed, N failed"; skips (exit 0, says why) where
# Slurm cannot run.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$top/stencilmap}
case $bin in /*) ;; *) bin=$top/$bin ;; esac
work=$(mktemp -d /tmp/stencilmap-slurm-XXXXXX)
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: expected [$2], got [$3]"; fi
}
cleanup() {
    sh "$top/tests/slurm/slurm-down.sh" "$work/slurm"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

conf=$(sh "$top/tests/slurm/slurm-up.sh" "$work/slurm" 2>"$work/up.err")
rc=$?
if [ $rc -eq 77 ]; then
    echo "check-slurm: SKIPPED, Slurm cannot run here: $(cat "$work/up.err")"
    echo "slurm: 0 passed, 0 failed (skipped)"
    exit 0
elif [ $rc -ne 0 ]; then
    cat "$work/up.err"
    echo "slurm: 0 passed, 1 failed"
    exit 1
fi
export SLURM_CONF="$conf" STENCILMAP="$bin"
# Where the daemons listen: loopback only when the host name is loopback.
ports=$(sed -n 's/^Slurm\(ctld\|d\)Port=//p' "$conf")
listen=$(for p in $ports; do ss -Htln "sport = :$p" 2>/dev/null | awk '{print $4}'; done | sort -u | tr '\n' ' ')
if grep -q '^CommunicationParameters=NoInAddrAny' "$conf"; then
    case $listen in
    *0.0.0.0*|*"[::]"*|*"*:"*|"") bad "daemons listen on [$listen], expected loopback only" ;;
    *) ok "slurmctld and slurmd listen on loopback only: $listen" ;;
    esac
else
    echo "     (the host name is not loopback here: the daemons listen on [$listen])"
fi
sm() { "$bin" -b "$work/q.tcl" "$@"; }
# Queries by a script file, paths as argv (never pasted into code).
cat > "$work/q.tcl" <<'TCL'
lassign $argv what dir
set st [study status $dir]
switch $what {
    done    { puts [lsort -integer [lmap f [glob -nocomplain -tails -dir $dir job-*.json] {
                  if {![regexp {^job-0*([0-9]+)\.json$} $f -> n]} continue; set n }]] }
    rerun   { puts [join [dict get $st rerun] ,] }
    count   { puts "[dict get $st done]/[dict get $st jobs]" }
    table   { puts [join [lmap r [study merge $dir] {
                  format "%d %s %.6f" [dict get $r job] [dict get $r deadline] [dict get $r energy] }] \n] }
    csvtable {
        set f [open [lindex $argv 2]]; gets $f head; set h [split $head ,]
        set ij [lsearch $h job]; set id [lsearch $h deadline]; set ie [lsearch $h energy]
        set out {}
        while {[gets $f line] >= 0} { set c [split $line ,]
            lappend out [format "%d %s %.6f" [lindex $c $ij] [lindex $c $id] [lindex $c $ie]] }
        close $f; puts [join $out \n] }
}
TCL
# 32 jobs of ~0.3 s (tabu), 8 shards of 4 jobs.
cat > "$work/spec.json" <<JSON
{"scenarios": ["$top/samples/cuboid-cpu-gpu.json"], "solvers": ["tabu -iters 2000"],
 "model": {"deadline": [3.59e-3, 3.46e-3, 3.34e-3, 3.22e-3]}, "seeds": [1, 2, 3, 4, 5, 6, 7, 8]}
JSON
dir=$work/study

# wait_for SECONDS CONDITION...: poll until the condition holds.
wait_for() {
    t=$1; shift
    end=$(($(date +%s) + t))
    while ! "$@"; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.3
    done
}
queue_empty() { [ -z "$(squeue -h -o %i 2>/dev/null)" ]; }
task_running() { squeue -h -r -t R -o %i 2>/dev/null | grep -qx "$1"; }
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }

# 1. A stepped array (0-6:2) of an 8-shard study; task 4 is killed.
out=$(sh "$top/scripts/study-slurm-submit.sh" -n 8 -a 0-6:2 "$work/spec.json" "$dir")
aid=$(echo "$out" | sed -n 's/^array //p')
mid=$(echo "$out" | sed -n 's/^merge //p')
[ -n "$aid" ] && [ -n "$mid" ] && ok "submit: array $aid, merge $mid" || bad "submit printed [$out]"
# Cancelled once its first job is written: the rest of it is lost.
if wait_for 60 task_running "${aid}_4" && wait_for 60 test -f "$dir/job-000004.json"; then
    scancel "${aid}_4"
    ok "task ${aid}_4 running, cancelled after its first job"
else
    bad "task ${aid}_4 never ran"
fi
wait_for 120 queue_empty || bad "queue not empty after 120 s: $(squeue -h)"
check "the killed shard's merge job never ran" "CANCELLED" "$(job_state "$mid")"
check "no table after the killed shard" "absent" "$([ -f "$dir/merged.csv" ] && echo present || echo absent)"
# Exactly the shards 0, 2, 6 complete (jobs j with j mod 8 in {0,2,6}),
# shard 4 at most part-way, no odd shard touched.
done1=$(sm done "$dir")
want=""; for j in $(seq 0 31); do case $((j % 8)) in 0|2|6) want="$want $j" ;; esac; done
got=""; extra=""; part=0
for j in $done1; do
    case $((j % 8)) in 0|2|6) got="$got $j" ;; 4) part=$((part + 1)) ;; *) extra="$extra $j" ;; esac
done
echo "     (the killed shard 4 had finished $part of its 4 jobs)"
check "stepped array ran exactly shards 0 2 6 (and part of 4)" "$want|" "$got|$extra"
[ $part -ge 1 ] && ok "the killed shard's finished jobs are kept" || bad "the killed shard kept no job"
check "status names the shards to rerun" "1,3,4,5,7" "$(sm rerun "$dir")"

# 2. Rerun just those shards: the array named by status, then the merge.
out=$(sh "$top/scripts/study-slurm-submit.sh" -a "$(sm rerun "$dir")" "$work/spec.json" "$dir")
mid=$(echo "$out" | sed -n 's/^merge //p')
wait_for 180 queue_empty || bad "rerun: queue not empty after 180 s: $(squeue -h)"
check "rerun of the subset completes the study" "32/32" "$(sm count "$dir")"
check "the merge job ran after the array" "COMPLETED" "$(job_state "$mid")"
check "status: nothing to rerun" "" "$(sm rerun "$dir")"
# The merged table equals the study run in one process.
"$bin" -b "$top/scripts/study.tcl" "$work/spec.json" "$work/one" >/dev/null 2>&1
if [ -f "$dir/merged.csv" ] && [ "$(sm csvtable "$dir" "$dir/merged.csv")" = "$(sm table "$work/one")" ]; then
    ok "merged.csv = the unsharded study ($(($(wc -l <"$dir/merged.csv") - 1)) rows)"
else
    bad "merged.csv differs from the unsharded study"
fi
# A task id past the study's shards fails, saying so.
out=$(sh "$top/scripts/study-slurm-submit.sh" -a 9 "$work/spec.json" "$dir")
aid=$(echo "$out" | sed -n 's/^array //p')
wait_for 60 queue_empty
if grep -q "names no shard" "$dir/slurm-${aid}_9.out" 2>/dev/null; then
    ok "task 9 of 8 shards refused: $(grep -o 'Slurm array task.*' "$dir/slurm-${aid}_9.out" | head -1)"
else
    bad "task 9 of 8 shards: $(cat "$dir/slurm-${aid}_9.out" 2>/dev/null)"
fi

# 3. A mapping run for real through Slurm (SPEC 9): `run launch -slurm`
# submits the job script with sbatch; srun (the default: --mpi=pmix,
# --distribution=arbitrary with SLURM_HOSTFILE) or, with -launcher mpirun,
# mpirun starts stencilmap-run in the allocation; `run wait` imports
# RUN.json; its checksum equals the one-process run's (run locally with
# mpirun -np 1). Then a mapping bound to this machine's cores (topo detect
# -per core): under srun each rank binds itself to its place with
# hwloc-bind, and the CPUs RUN.json says it ran on are its place's PUs.
if [ -x "$top/stencilmap-run" ] && command -v mpirun >/dev/null 2>&1; then
    cat > "$work/run.tcl" <<'TCL'
lassign $argv top dir starter
scenario load [file join $top samples cuboid-2cpu-2gpu.json]
grid create -blocks {4 3 2} -cells {40 30 16}
set n [llength [map list]]
for {set b 0} {$b < $n} {incr b} { map set $b [expr {$b < 9 ? "cpu0" : "gpu1"}] }
set l [run launch -slurm -launcher $starter -iters 10 -dir $dir/slurm-run-$starter]
set r [run wait -timeout 120]
set ref [run launch -np 1 -iters 10 -dir $dir/ref-run-$starter -wait]
puts "[dict get $l launcher] [dict get $l starter] [dict get $l jobid] [llength [dict get $r ranks]] [dict get $r checksum] [dict get $ref checksum]"
TCL
    for starter in srun mpirun; do
        out=$("$bin" -b "$work/run.tcl" "$top" "$work" $starter 2>&1)
        set -- $out
        if [ "$1" = slurm ] && [ "$2" = $starter ] && [ -n "$3" ] && [ "$4" = 2 ] && [ -n "$5" ] && [ "$5" = "$6" ]; then
            ok "run launch -slurm -launcher $starter: job $3, 2 ranks, imported; checksum $5 = the one-process run's"
        else
            bad "run launch -slurm -launcher $starter: $out $(tail -5 "$work/slurm-run-$starter/run.log" 2>/dev/null)"
        fi
    done
    cat > "$work/bound.tcl" <<'TCL'
lassign $argv top dir
topo detect -per core
if {[llength [topo procs]] < 2} { puts "skip: [llength [topo procs]] core"; exit 0 }
grid create -blocks {4 2 2} -cells {48 24 24}
set procs [lrange [topo procs] 0 1]
set names [lmap p $procs {dict get $p name}]
set n [llength [map list]]
for {set b 0} {$b < $n} {incr b} { map set $b [lindex $names [expr {$b % 2}]] }
set l [run launch -slurm -iters 10 -dir $dir/slurm-bound]
set r [run wait -timeout 120]
set f [open $dir/slurm-bound/run.log]; set log [read $f]; close $f
set bad {}
foreach k [dict get $r ranks] p $procs {
    set pus [dict get $p place pus]
    if {[auto_execok hwloc-calc] ne ""} { set pus [split [exec hwloc-calc --po -I pu {*}[lmap u $pus {set u pu:$u}]] ,] }
    if {[dict get $k processor] ne [dict get $p name] || [dict get $k cores] ne $pus} {
        lappend bad "[dict get $k processor] ran on [dict get $k cores], place PUs $pus"
    }
    if {![string match "*rank [dict get $k rank] on *bound to package:[dict get $p place package].core:*" $log]} {
        lappend bad "rank [dict get $k rank]: no binding line"
    }
}
puts "[dict get $l starter] [dict get $l bound] [llength [dict get $r ranks]] [expr {$bad eq {} ? "ok" : [join $bad {; }]}]"
TCL
    out=$("$bin" -b "$work/bound.tcl" "$top" "$work" 2>&1)
    case $out in
    "srun 1 2 ok") ok "run launch -slurm, bound: srun, each rank on its place's PUs (hwloc-bind)" ;;
    skip:*) echo "     ($out: the bound Slurm run is not checked)" ;;
    *) bad "run launch -slurm, bound: $out $(tail -5 "$work/slurm-bound/run.log" 2>/dev/null)" ;;
    esac
else
    echo "     (stencilmap-run or mpirun missing: the Slurm run of a mapping is not checked)"
fi
echo "slurm: $pass passed, $fail failed"
[ $fail -eq 0 ]
