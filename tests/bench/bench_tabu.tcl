# bench_tabu.tcl - tabu against METIS (gpmetis, target part weights
# proportional to processor speed) and Scotch (gmap onto a weighted
# complete target), all evaluated by our model on the same instances.
# Needs the Debian packages metis and scotch (benchmark only); a peer that
# is missing is reported, not faked. TABU_ITERS (environment) sets the
# iterations (default 40000).
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set samples [file join $top samples]
set iters [expr {[info exists ::env(TABU_ITERS)] ? $::env(TABU_ITERS) : 40000}]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] sm-bench-[pid]]
file mkdir $tmp

proc have {cmd} { expr {[auto_execok $cmd] ne ""} }

# Relative speeds from the model, one per processor.
proc speeds {} { lmap p [model procs] {expr {1.0 / [dict get $p time_per_cell]}} }

# Speed-weighted targets from the program itself (graph export -tpwgts /
# -target), results read back by map import (METIS .part and Scotch .map).
proc metis_map {tmp} {
    set g [file join $tmp g.metis]
    set tp [file join $tmp tpwgts]
    graph export -format metis $g -tpwgts $tp
    set n [llength [model procs]]
    exec gpmetis -tpwgts=$tp $g $n >/dev/null
    map import -format part $g.part.$n
}

proc scotch_map {tmp} {
    set g [file join $tmp g.grf]
    set tg [file join $tmp t.tgt]
    graph export -format scotch $g -target $tg
    exec scotch_gmap $g $tg [file join $tmp out.map] >/dev/null 2>@1
    map import -format part [file join $tmp out.map]
}

set cases {
    cuboid-2cpu-2gpu.json 3.22e-3
    sphere-2cpu-2gpu.json 3.22e-3
    summit-like.json {}
    piz-daint-like.json {}
    fugaku-like.json {}
}
puts "tabu ($iters iterations) against METIS and Scotch, every mapping evaluated by stencilmap's model"
puts [format "%-22s %-7s %11s %11s %4s %8s  %9s %9s" instance mapper energy(J) time(s) ok seconds E/E_tabu T/T_tabu]
foreach {file deadline} $cases {
    scenario load [file join $samples $file]
    if {$deadline ne ""} { model configure -deadline $deadline }
    set t0 [clock microseconds]
    set r [solve tabu -iters $iters]
    set tabu [list [dict get $r energy] [dict get $r time] [dict get $r feasible] [expr {([clock microseconds] - $t0) / 1e6}]]
    set rows [list tabu $tabu]
    foreach {peer cmd proc} {metis gpmetis metis_map scotch scotch_gmap scotch_map} {
        if {![have $cmd]} { lappend rows $peer {}; continue }
        scenario load [file join $samples $file]
        if {$deadline ne ""} { model configure -deadline $deadline }
        set t0 [clock microseconds]
        if {[catch {$proc $tmp} msg]} { lappend rows $peer [list error $msg]; continue }
        set e [model eval]
        lappend rows $peer [list [dict get $e energy] [dict get $e time] [dict get $e feasible] \
            [expr {([clock microseconds] - $t0) / 1e6}]]
    }
    foreach {who v} $rows {
        if {$v eq ""} { puts [format "%-22s %-7s %s" $file $who "(not installed: apt-get install metis scotch)"]; continue }
        if {[lindex $v 0] eq "error"} { puts [format "%-22s %-7s error: %s" $file $who [lindex $v 1]]; continue }
        lassign $v en tm ok secs
        puts [format "%-22s %-7s %11.4f %11.4e %4s %8.2f  %9.3f %9.3f" $file $who $en $tm \
            [expr {$ok ? "yes" : "no"}] $secs [expr {$en / [lindex $tabu 0]}] [expr {$tm / [lindex $tabu 1]}]]
    }
}
file delete -force $tmp
