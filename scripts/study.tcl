# study.tcl - run one shard of a study (SPEC §5) from batch mode.
#
#   stencilmap -b scripts/study.tcl SPEC DIR ?I/N?
#
# SPEC is a study JSON file (or JSON text); results go to DIR, one file a
# job. Without I/N the shard comes from SLURM_ARRAY_TASK_ID and
# SLURM_ARRAY_TASK_COUNT when set, else every job runs. Jobs whose result
# exists are skipped, so a killed shard is simply started again. E.g.
#   parallel stencilmap -b scripts/study.tcl SPEC DIR {}/4 ::: 0 1 2 3
#   stencilmap -e 'study merge DIR -format csv'
if {$argc < 2 || $argc > 3} {
    puts stderr "usage: stencilmap -b study.tcl SPEC DIR ?I/N?"
    exit 2
}
lassign $argv spec dir shard
set args [list $spec -out $dir]
if {$shard ne ""} { lappend args -shard $shard }
if {$shard ne ""} {
    set which $shard
} elseif {[info exists ::env(SLURM_ARRAY_TASK_ID)] && [info exists ::env(SLURM_ARRAY_TASK_COUNT)]} {
    set which "$::env(SLURM_ARRAY_TASK_ID)/$::env(SLURM_ARRAY_TASK_COUNT) (Slurm)"
} else {
    set which all
}
set t0 [clock milliseconds]
set n [study run {*}$args]
puts [format "shard %s: %d jobs run in %.2f s" $which $n \
    [expr {([clock milliseconds] - $t0) / 1000.0}]]
