# tabu_memory_run.tcl - one measured run for bench_tabu_memory: load a
# machine, cut a grid into BX x BY x BZ blocks of 8^3 cells, start the flat
# tabu search with -iters ITERS and any further options, step it to the
# end, and print
# the best energy, the wall seconds, the peak virtual size (VmPeak, kB) and
# the CPU seconds (user + system, from /proc) of the start and of the
# steps. The parent measures peak resident memory with getrusage.
lassign $argv machine blocks iters
set opts [lrange $argv 3 end]

proc cpu_seconds {} {
    if {[catch {open /proc/self/stat} f]} { return 0 }
    set stat [read $f]
    close $f
    # Fields after the command name: utime and stime are 12th and 13th.
    set rest [string range $stat [string last ")" $stat]+2 end]
    expr {([lindex $rest 11] + [lindex $rest 12]) / 100.0}
}

scenario load $machine
grid create -blocks $blocks -cells [lmap b $blocks {expr {$b * 8}}]
set t0 [clock microseconds]
set c0 [cpu_seconds]
# The flat search on the whole grid, the one whose tables and inner loop
# changed: multilevel (the default from 32768 blocks) only runs it on the
# coarsest grid. The baseline predates -multilevel.
if {[catch {solver start tabu -iters $iters -multilevel off {*}$opts}]} {
    solver start tabu -iters $iters {*}$opts
}
set c1 [cpu_seconds]
set s [solver step $iters]
set c2 [cpu_seconds]
set secs [expr {([clock microseconds] - $t0) / 1e6}]
set vm 0
if {![catch {open /proc/self/status} f]} {
    regexp -line {^VmPeak:\s+(\d+)} [read $f] -> vm
    close $f
}
puts [list energy [dict get $s best_energy] seconds $secs vmpeak_kb $vm \
    start_cpu [expr {$c1 - $c0}] steps_cpu [expr {$c2 - $c1}]]
