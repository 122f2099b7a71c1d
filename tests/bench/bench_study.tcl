# bench_study.tcl - a study sharded with GNU parallel against the same
# study in one process, measured in the same run: wall time, jobs/s and
# speed-up. A Table 6.4 deadline sweep (Cuboid CPU-GPU and 2xCPU-2xGPU,
# tabu) over STUDY_SEEDS seeds (default 6). The merged tables must be
# equal (wall-clock columns aside) or the run is reported as broken.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set samples [file join $top samples]
set seeds [expr {[info exists ::env(STUDY_SEEDS)] ? $::env(STUDY_SEEDS) : 6}]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] sm-bench-study-[pid]]
file mkdir $tmp
set bin [info nameofexecutable]
set spec [file join $tmp spec.json]
set f [open $spec w]
puts $f [format {{"scenarios": ["%s", "%s"], "solvers": ["tabu"],
  "model": {"deadline": [3.59e-3, 3.46e-3, 3.34e-3, 3.22e-3]}, "seeds": [%s]}} \
    [file join $samples cuboid-cpu-gpu.json] [file join $samples cuboid-2cpu-2gpu.json] \
    [join [lsearch -all [lrepeat $seeds x] x] ", "]]
close $f
set jobs [expr {2 * 4 * $seeds}]

proc timeless {rows} { lmap r $rows { dict remove $r seconds solver_seconds } }

proc run {label cmd dir} {
    set t0 [clock milliseconds]
    exec {*}$cmd
    set wall [expr {([clock milliseconds] - $t0) / 1000.0}]
    set rows [study merge $dir]
    set busy [tcl::mathop::+ {*}[lmap r $rows {dict get $r seconds}]]
    list $label $wall [timeless $rows] $busy
}

set load [lrange [exec cat /proc/loadavg] 0 2]
set script [file join $top scripts study.tcl]
set runs [list [run "1 process, 1 shard" [list $bin -b $script $spec [file join $tmp one]] [file join $tmp one]]]
if {[auto_execok parallel] ne ""} {
    foreach {j n} {2 2  2 8} {
        set d [file join $tmp p$j-$n]
        lappend runs [run "parallel -j $j, $n shards" \
            [list parallel --will-cite -j $j $bin -b $script $spec $d "{}/$n" ::: \
                 {*}[lsearch -all [lrepeat $n x] x] >/dev/null] $d]
    }
} else {
    puts "GNU parallel not installed: sharded runs skipped"
}

puts "Study: $jobs jobs (2 scenarios x 4 deadlines x $seeds seeds, tabu), [exec nproc] cores"
# busy/wall: job-seconds done per wall second, the parallelism obtained
# (below the shard count when other work shares the cores).
puts "load average before the runs: $load"
puts [format "%-26s %9s %8s %9s %9s %s" engine "wall (s)" "jobs/s" speed-up busy/wall table]
set base [lindex $runs 0 1]
set ref [lindex $runs 0 2]
foreach r $runs {
    lassign $r label wall rows busy
    puts [format "%-26s %9.2f %8.2f %8.2fx %9.2f %s" $label $wall [expr {$jobs / $wall}] \
        [expr {$base / $wall}] [expr {$busy / $wall}] [expr {$rows eq $ref ? "same" : "DIFFERENT"}]]
}
file delete -force $tmp
