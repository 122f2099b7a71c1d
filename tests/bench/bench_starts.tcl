# bench_starts.tcl - how the start heuristics grow with the block count
# (#14 item 3: every start must be O(n log n) or better). Each heuristic
# runs on the Summit-like machine at 8x more blocks per row; the growth
# column is t(n)/t(n/8), beside what n log n (about 8.5-9x) and n^2 (64x)
# would give. Run by `make bench`.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set sample [file join $top samples summit-like.json]
set sizes {{16 16 16} {32 32 32} {64 64 64}}
set starts {
    {lb -speeds floor} {proportional} {rcb} {dm -speeds floor} {mm -speeds floor}
    {na -f 0.5 -speeds floor} {sfc -curve hilbert}
}

proc seconds {script} {
    set t0 [clock microseconds]
    uplevel 1 $script
    expr {([clock microseconds] - $t0) / 1e6}
}

puts "start heuristics on summit-like.json (256 processors): seconds per solve, growth t(n)/t(n/8)"
puts [format "%-26s %10s %10s %10s %8s %8s  %s" heuristic 4096 32768 262144 growth1 growth2 "n log n / n^2 would give"]
foreach s $starts {
    set row {}
    foreach b $sizes {
        scenario load $sample
        grid create -blocks $b -cells [lmap x $b {expr {$x * 8}}]
        lappend row [seconds {solve {*}$s}]
    }
    lassign $row t1 t2 t3
    set g1 [expr {$t1 > 0 ? $t2 / $t1 : 0}]
    set g2 [expr {$t2 > 0 ? $t3 / $t2 : 0}]
    set nlogn [expr {8.0 * log(262144) / log(32768)}]
    puts [format "%-26s %10.4f %10.4f %10.4f %7.1fx %7.1fx  %.1fx / 64x" $s $t1 $t2 $t3 $g1 $g2 $nlogn]
}
