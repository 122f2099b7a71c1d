# bench_threads.tcl - tabu on 1, 2, ... threads (issue 38 item 1): the
# wall time and the process's CPU time of `solve tabu -threads N` for
# every thread count up to the cores this process may use, the speed-up
# against one thread measured in the same run (target: 1.7x on 2), and
# whether the mapping and its energy are identical to one thread's (they
# must be: every step is the same for any -threads). Instances:
#   flat        summit-like.json, 16x16x16 blocks of 64^3 cells, -multilevel off
#   flat-dvfs   cuboid-cpu-gpu-dvfs.json's machine, 8x8x8 blocks, -dvfs on
#   multilevel  summit-like.json, 32x32x32 blocks of 64^3 (32768): the coarse
#               search's steps and the refinement rounds side by side
# THREADS_ITERS (environment; default 2000) is tabu's -iters; THREADS_MAX
# caps the thread counts (default: the cores). On a shared machine the
# speed-up is noisy: the CPU column says how much work each run did.
# Session 8's final quiet window (ad2c631, three runs, 2 threads): flat
# 2.39/2.55/2.79x (slow one-thread runs), flat-dvfs 1.23/1.31/1.20x,
# multilevel 1.36/1.69/1.56x; the same mapping and energy on every row.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set iters [expr {[info exists ::env(THREADS_ITERS)] ? $::env(THREADS_ITERS) : 2000}]
set cores [exec nproc]
if {[info exists ::env(THREADS_MAX)] && $::env(THREADS_MAX) < $cores} { set cores $::env(THREADS_MAX) }

# This process's user + system CPU seconds (/proc/self/stat, in ticks).
proc cpu_seconds {} {
    set f [open /proc/self/stat]
    set fields [split [lindex [split [read $f] ")"] end]]
    close $f
    # After "pid (comm)" and its space: state (field 3), ... utime (14), stime (15).
    expr {([lindex $fields 12] + [lindex $fields 13]) / double([exec getconf CLK_TCK])}
}

set instances {
    flat       {summit-like.json {16 16 16} 64 {-multilevel off}}
    flat-dvfs  {cuboid-cpu-gpu-dvfs.json {8 8 8} 64 {-multilevel off -dvfs on}}
    multilevel {summit-like.json {32 32 32} 64 {-multilevel on}}
}

puts "tabu -threads N against -threads 1 in this run ($cores cores here); -iters $iters; speedup = wall(1) / wall(N); same = mapping and energy identical to 1 thread's"
puts [format "%-11s %7s %8s %9s %9s %8s %12s %5s %6s" instance threads steps_thr wall(s) cpu(s) speedup energy(J) same target]
foreach {name spec} $instances {
    lassign $spec file blocks cells extra
    set one ""
    for {set n 1} {$n <= $cores} {incr n} {
        # Afresh each run: a solve applies its mapping and DVFS states.
        scenario load [file join $top samples $file]
        grid create -blocks $blocks -cells [lmap b $blocks {expr {$b * $cells}}]
        set c0 [cpu_seconds]
        set t0 [clock microseconds]
        set r [solve tabu -iters $iters -threads $n {*}$extra]
        set wall [expr {([clock microseconds] - $t0) / 1e6}]
        set cpu [expr {[cpu_seconds] - $c0}]
        set mapping [map list]
        set steps [expr {[dict exists $r step_threads] ? [format %.0f [dict get $r step_threads]] : "-"}]
        if {$n == 1} { set one [list $wall $mapping [dict get $r energy]] }
        set same [expr {[lindex $one 1] eq $mapping && [lindex $one 2] == [dict get $r energy] ? "yes" : "NO"}]
        set speedup [expr {[lindex $one 0] / $wall}]
        set target [expr {$n == 2 ? ($speedup >= 1.7 ? "met" : "MISSED") : ""}]
        puts [format "%-11s %7d %8s %9.3f %9.3f %7.2fx %12.6f %5s %6s" $name $n $steps $wall $cpu $speedup \
                  [dict get $r energy] $same $target]
    }
}
