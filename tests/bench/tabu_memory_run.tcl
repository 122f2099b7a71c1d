# tabu_memory_run.tcl - one measured run for bench_tabu_memory: load a
# machine, cut a grid into BX x BY x BZ blocks of 8^3 cells, time
# `solve tabu -iters ITERS` (its start included) and print the energy, the
# seconds and the process's peak virtual size (VmPeak, kB). The parent
# measures peak resident memory with getrusage.
lassign $argv machine blocks iters
scenario load $machine
grid create -blocks $blocks -cells [lmap b $blocks {expr {$b * 8}}]
set t0 [clock microseconds]
set r [solve tabu -iters $iters]
set secs [expr {([clock microseconds] - $t0) / 1e6}]
set vm 0
if {![catch {open /proc/self/status} f]} {
    regexp -line {^VmPeak:\s+(\d+)} [read $f] -> vm
    close $f
}
puts [list energy [dict get $r energy] seconds $secs vmpeak_kb $vm]
