# bench_run.tcl - the model against a real run on this machine (#36 item
# 4): `topo detect -per core` (the places), `topo measure -apply` (the
# kernel's time per block, all cores at once), then a 2-rank mapping of a
# 7-point grid sized so compute dominates, run by `run launch` (the ranks
# bound to their cores by the rankfile), and `run compare`: predicted
# against measured compute per rank and the total, accuracy
# 1 - |p - m| / m. The published claim is above 90 %. Beside the mean the
# table gives each rank's median iteration, which a rank preempted by
# other work on a shared machine does not drag (the load average is
# printed: the machine is shared). Run by `make bench`.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] bench-run-[pid]]
file mkdir $tmp
set iters [expr {[info exists ::env(RUN_ITERS)] ? $::env(RUN_ITERS) : 60}]

proc skip {why} { puts "run accuracy: skipped: $why"; exit 0 }
if {[auto_execok mpirun] eq ""} { skip "no mpirun (openmpi-bin)" }
if {![file executable [file join $top stencilmap-run]]} { skip "stencilmap-run not built (needs mpicc)" }
if {[catch {topo detect -per core} err]} { skip "topo detect -per core: $err" }
if {[llength [topo procs]] < 2} { skip "this machine has [llength [topo procs]] core(s): 2 ranks need 2" }
# Two cores of the machine, as two processors.
set names [lrange [lmap p [topo procs] {dict get $p name}] 0 1]
# 8 x 4 x 2 blocks of 48^3 cells: 3.5 M cells a rank, halos of 48^2 cells.
grid create -blocks {8 4 2} -cells {384 192 96} -stencil 7pt
set t0 [clock milliseconds]
if {[catch {topo measure -processors $names -sizes {4 8 16 32} -apply} err]} { skip "topo measure: $err" }
set tm [expr {([clock milliseconds] - $t0) / 1000.0}]
solve lb
set used [lsort -unique [map list]]
if {[llength $used] != 2} { skip "lb used [llength $used] processors" }
set launch [run launch -iters $iters -dir [file join $tmp run] -wait]
set st [run status]
set run [run import [file join $tmp run]]
set c [run compare]
set load [lindex [split [exec cat /proc/loadavg]] 0]

puts "model vs run on this machine: 7pt, 8x4x2 blocks of 48^3 cells, 2 ranks ([dict get $st note]), $iters iterations"
puts "(topo measure -apply took [format %.1f $tm] s; load average $load on [exec nproc] cores)"
puts [format "%-14s %12s %12s %8s %12s %8s" rank "predicted s" "measured s" accuracy "median s" "acc(med)"]
set accs {}
foreach k [dict get $run ranks] {
    set name [dict get $k processor]
    set row [dict get $c processors $name compute]
    set med [dict get $k compute_median_s]
    set p [dict get $row predicted]
    set am [expr {1 - abs($p - $med) / $med}]
    lappend accs [dict get $row accuracy]
    puts [format "%-14s %12.6f %12.6f %7.1f%% %12.6f %7.1f%%" "compute $name" $p [dict get $row measured] \
        [expr {100 * [dict get $row accuracy]}] $med [expr {100 * $am}]]
}
foreach part {compute comm total} {
    set o [dict get $c overall $part]
    puts [format "%-14s %12.6f %12.6f %7.1f%%" "overall $part" [dict get $o predicted] [dict get $o measured] \
        [expr {100 * [dict get $o accuracy]}]]
}
puts "energy: [dict get $run energy_source] ([expr {[dict exists $run energy_why] ? [dict get $run energy_why] : {}}])"
file delete -force $tmp
