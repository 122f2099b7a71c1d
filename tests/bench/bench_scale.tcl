# bench_scale.tcl - the scale table of #14: tabu's start, tabu (default
# options: multilevel from 32768 blocks), METIS (gpmetis, target part
# weights proportional to processor speed), from 32 K blocks tabu
# -multilevel off beside it, METIS restricted to the GPUs
# (the fastest type, speed-weighted) and Scotch (scotch_gmap onto a
# complete target weighted by speed), on samples/summit-like.json (256
# processors) at 1 K to 1 M blocks (grid create, no
# deadline; tabu@metis and tabu@metis-gpu: tabu held to that peer's
# makespan as its deadline, its energy at the same time). Every mapping is evaluated by stencilmap's model. Each row
# runs in its own process (scale_child.tcl) so its peak memory can be
# read: for tabu and its start the whole stencilmap process, for the
# peers their own process (gpmetis, scotch_gmap) - the session row is
# stencilmap with the grid alone. Times: for the peers, their process
# alone (not our export and import). Ratios are against METIS in the same
# run. METIS and Scotch are the Debian packages metis and scotch
# (benchmark only); a missing peer is reported, not faked.
# Environment: SCALE_SIZES (default "1K 8K 64K 262K 1M"), SCALE_ITERS
# (tabu -iters; default the solver's), SCALE_START_MAX (largest block count
# for the flat start and tabu-flat rows, default 262144: their n x P tenure tables need
# 2 GB at 1 M blocks on 256 processors).
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set exe [file join $top stencilmap]
set child [file join $top tests bench scale_child.tcl]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] sm-scale-[pid]]
file mkdir $tmp
# Blocks and cells per block edge: 64^3 cells a block (the grid default)
# up to 262 K; at 1 M, 32^3, since 1 M blocks of 64^3 cells do not fit the
# V100s' 16 GB at their speed share and every mapper would be infeasible.
set shapes {1K {{16 8 8} 64} 8K {{32 16 16} 64} 64K {{64 32 32} 64} 262K {{64 64 64} 64} 1M {{128 128 64} 32}}
set sizes [expr {[info exists ::env(SCALE_SIZES)] ? $::env(SCALE_SIZES) : "1K 8K 64K 262K 1M"}]
set iters [expr {[info exists ::env(SCALE_ITERS)] ? $::env(SCALE_ITERS) : ""}]
set start_max [expr {[info exists ::env(SCALE_START_MAX)] ? $::env(SCALE_START_MAX) : 262144}]

proc have {cmd} { expr {[auto_execok $cmd] ne ""} }

# One row in a child: its result dict plus rss_kb, or {error MESSAGE}.
proc row {shape cells mapper {deadline ""}} {
    global exe child tmp iters
    set rss [file join $tmp rss-child]
    if {[catch {exec /usr/bin/time -f %M -o $rss $exe -b $child {*}$shape $cells $mapper $tmp $iters $deadline 2>@1} out]} {
        return [list error [lindex [split $out \n] 0]]
    }
    set f [open $rss]
    set kb [lindex [split [string trim [read $f]] \n] end]
    close $f
    set r [lindex [split [string trim $out] \n] end]
    dict set r rss_kb $kb
    if {[dict exists $r peer_kb]} { dict set r rss_kb [dict get $r peer_kb] }
    set r
}

puts "scale: summit-like.json (256 processors), no deadline (tabu@PEER: PEER's makespan as the deadline); ratios against METIS in the same run"
puts "(tabu: default options[expr {$iters ne "" ? ", -iters $iters" : ""}]; tabu holds itself to the fastest lb time + 3 % when multilevel, the fastest start heuristic's when flat)"
puts "(ok: feasible under the model, memory included)"
puts "(bound: model bound at the row's own makespan, the least energy any mapping as fast can have; gap = (energy - bound) / energy)"
puts [format "%-6s %-15s %9s %11s %11s %3s %9s %8s %8s %8s %8s %11s %6s %7s" blocks mapper seconds energy(J) time(s) ok peak(MB) E/E_met T/T_met s/s_met MB/MB_met bound(J) gap bound_s]
foreach size $sizes {
    lassign [dict get $shapes $size] shape cells
    set n [tcl::mathop::* {*}$shape]
    set rows {}
    foreach m {none start tabu-flat tabu metis tabu@metis metis-gpu tabu@metis-gpu scotch} {
        if {[regexp {^tabu@(.*)} $m -> peer]} {
            if {[dict exists $rows $peer] && [dict exists [dict get $rows $peer] time]} {
                lappend rows $m [row $shape $cells tabu-at [dict get [dict get $rows $peer] time]]
            }
            continue
        }
        if {$m eq "tabu-flat" && $n < 32768} continue
        if {$m in {start tabu-flat} && $n > $start_max} { lappend rows $m {skip "flat start above SCALE_START_MAX"}; continue }
        if {$m in {metis metis-gpu} && ![have gpmetis]} { lappend rows $m {skip "not installed: apt-get install metis"}; continue }
        if {$m eq "scotch" && ![have scotch_gmap]} { lappend rows $m {skip "not installed: apt-get install scotch"}; continue }
        lappend rows $m [row $shape $cells $m]
    }
    set ref [expr {[dict exists $rows metis] && [dict exists [dict get $rows metis] energy] ? [dict get $rows metis] : ""}]
    foreach {m r} $rows {
        if {[lindex $r 0] in {error skip}} {
            puts [format "%-6s %-15s %s: %s" $size $m [lindex $r 0] [lindex $r 1]]
            continue
        }
        set mb [expr {[dict get $r rss_kb] / 1024.0}]
        if {$m eq "none"} {
            puts [format "%-6s %-15s %9s %11s %11s %3s %9.1f   (%d^3 cells a block)" $size session - - - - $mb $cells]
            continue
        }
        set ratios [if {$ref eq ""} { list - - - - } else {
            list [format %.3f [expr {[dict get $r energy] / [dict get $ref energy]}]] \
                 [format %.3f [expr {[dict get $r time] / [dict get $ref time]}]] \
                 [format %.2f [expr {[dict get $r seconds] / max(1e-9, [dict get $ref seconds])}]] \
                 [format %.2f [expr {[dict get $r rss_kb] / double([dict get $ref rss_kb])}]]
        }]
        set bnd [expr {[dict exists $r bound] ? [dict get $r bound] : "nan"}]
        set gap [expr {[dict exists $r bound] && [dict get $r energy] > 0 ? 100.0 * ([dict get $r energy] - $bnd) / [dict get $r energy] : "nan"}]
        puts [format "%-6s %-15s %9.3f %11.4f %11.4e %3s %9.1f %8s %8s %8s %8s %11.4f %5.1f%% %7.3f" $size $m [dict get $r seconds] \
            [dict get $r energy] [dict get $r time] [expr {[dict get $r feasible] ? "yes" : "no"}] $mb {*}$ratios \
            $bnd $gap [expr {[dict exists $r bound_seconds] ? [dict get $r bound_seconds] : "nan"}]]
    }
    flush stdout
}
file delete -force $tmp
