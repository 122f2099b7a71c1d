# study.tcl - run one shard of a study (SPEC §5) from batch mode.
#
#   stencilmap -b scripts/study.tcl SPEC DIR ?I/N?
#
# SPEC is a study JSON file (or JSON text); results go to DIR, one file a
# job. Without I/N, in a Slurm array task the shard is the task id
# (SLURM_ARRAY_TASK_ID) of the study's N shards (STENCILMAP_STUDY_SHARDS,
# else what DIR recorded, else SLURM_ARRAY_TASK_MAX+1); outside Slurm every
# job runs. Jobs whose result exists are skipped, so a killed or failed
# shard is simply started again. Prints what ran and what DIR still lacks;
# exits 1 when a job failed. E.g.
#   parallel stencilmap -b scripts/study.tcl SPEC DIR {}/4 ::: 0 1 2 3
#   stencilmap -b scripts/study-merge.tcl DIR
if {$argc < 2 || $argc > 3} {
    puts stderr "usage: stencilmap -b study.tcl SPEC DIR ?I/N?"
    exit 2
}
lassign $argv spec dir shard
set args [list $spec -out $dir]
if {$shard ne ""} { lappend args -shard $shard }
set t0 [clock milliseconds]
set rc [catch {study run {*}$args} n opts]
set secs [expr {([clock milliseconds] - $t0) / 1000.0}]
if {$shard ne ""} {
    set which $shard
} elseif {[info exists ::env(SLURM_ARRAY_TASK_ID)] && ![catch {study status $dir} st]} {
    set which "$::env(SLURM_ARRAY_TASK_ID)/[dict get $st shards] (Slurm"
    if {[info exists ::env(SLURM_ARRAY_JOB_ID)]} { append which " array job $::env(SLURM_ARRAY_JOB_ID)" }
    append which ")"
} else {
    set which all
}
if {$rc} {
    puts stderr "shard $which: $n"
} else {
    puts [format "shard %s: %d jobs run in %s" $which $n [units figure seconds $secs]]
}
if {![catch {study status $dir} st]} {
    puts [format "study %s: %d of %d jobs done, %d failed, %d missing" $dir \
        [dict get $st done] [dict get $st jobs] [dict size [dict get $st failed]] \
        [llength [dict get $st missing]]]
}
exit [expr {$rc ? 1 : 0}]
