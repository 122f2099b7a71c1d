# scale_child.tcl - one row of bench_scale.tcl, in its own process so that
# the parent reads its peak memory (ru_maxrss through /usr/bin/time).
# Arguments: BX BY BZ CELLS MAPPER TMPDIR ?ITERS? ?DEADLINE? (CELLS a
# block's edge in cells; ITERS may be "" for the default). MAPPER is one of
#   none       the session alone (grid and machine): the memory baseline
#   start      tabu's start (solver start tabu -multilevel off, no step)
#   tabu       solve tabu, default options (-iters ITERS when given)
#   tabu-flat  solve tabu -multilevel off
#   tabu-at    solve tabu held to DEADLINE (a peer's makespan)
#   metis      gpmetis, target part weights proportional to processor speed
#   metis-gpu  gpmetis into the GPUs only (the fastest type), speed-weighted
#   scotch     scotch_gmap onto a complete target weighted by speed
# Prints one dict: seconds (the mapper's own time: for the peers, their
# process alone, not our export/import), energy, time, feasible, and for
# the peers peer_kb (their own peak memory), bound (model bound at the
# mapping's own makespan) and bound_seconds. Every mapping is evaluated
# by stencilmap's model with no deadline.
lassign $argv bx by bz cells mapper tmp iters deadline
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
scenario load [file join $top samples summit-like.json]
grid create -blocks [list $bx $by $bz] -cells [lmap b [list $bx $by $bz] {expr {$b * $cells}}]
model configure -deadline [expr {$mapper eq "tabu-at" ? $deadline : "none"}]
set iterargs [expr {$iters ne "" ? [list -iters $iters] : {}}]
set out {}

proc speeds {procs} { lmap p $procs {expr {1.0 / [dict get $p time_per_cell]}} }

# Runs a peer under /usr/bin/time; returns {seconds kilobytes}.
proc timed_exec {tmp args} {
    set t0 [clock microseconds]
    exec /usr/bin/time -f %M -o [file join $tmp rss] {*}$args >/dev/null 2>@1
    set secs [expr {([clock microseconds] - $t0) / 1e6}]
    set f [open [file join $tmp rss]]
    set kb [lindex [split [string trim [read $f]] \n] end]
    close $f
    list $secs $kb
}

# Writes a part file (one processor index per block) and imports it.
proc import_parts {tmp parts} {
    set f [open [file join $tmp mapped.part] w]
    puts $f [join $parts \n]
    close $f
    map import -format part [file join $tmp mapped.part]
}

proc read_lines {path} {
    set f [open $path]
    set l [split [string trim [read $f]] \n]
    close $f
    set l
}

# gpmetis into the processors listed (indexes), speed-proportional targets.
proc metis_onto {tmp which} {
    set g [file join $tmp g.metis]
    graph export -format metis $g
    set procs [model procs]
    set sp [lmap i $which {lindex [speeds $procs] $i}]
    set total [tcl::mathop::+ {*}$sp]
    set f [open [file join $tmp tpwgts] w]
    set k 0
    foreach s $sp { puts $f "$k = [format %.8f [expr {$s / $total}]]"; incr k }
    close $f
    set r [timed_exec $tmp gpmetis -tpwgts=[file join $tmp tpwgts] $g [llength $which]]
    import_parts $tmp [lmap p [read_lines $g.part.[llength $which]] {lindex $which $p}]
    set r
}

switch -- $mapper {
    none { set out [list seconds 0] }
    start {
        set t0 [clock microseconds]
        solver start tabu -multilevel off
        set out [list seconds [expr {([clock microseconds] - $t0) / 1e6}]]
        solver apply
    }
    tabu - tabu-flat - tabu-at {
        set extra [expr {$mapper eq "tabu-flat" ? {-multilevel off} : {}}]
        set t0 [clock microseconds]
        set r [solve tabu {*}$iterargs {*}$extra]
        set out [list seconds [expr {([clock microseconds] - $t0) / 1e6}] iterations [dict get $r iterations]]
    }
    metis {
        set all {}
        for {set i 0} {$i < [llength [model procs]]} {incr i} { lappend all $i }
        lassign [metis_onto $tmp $all] secs kb
        set out [list seconds $secs peer_kb $kb]
    }
    metis-gpu {
        # The GPUs: the processors of the fastest type (the machine files
        # name types, not kinds).
        set tpc [lmap p [model procs] {dict get $p time_per_cell}]
        set fast [tcl::mathfunc::min {*}$tpc]
        set gpus {}
        set i 0
        foreach t $tpc { if {$t <= $fast * 1.000001} { lappend gpus $i }; incr i }
        lassign [metis_onto $tmp $gpus] secs kb
        set out [list seconds $secs peer_kb $kb]
    }
    scotch {
        set g [file join $tmp g.grf]
        graph export -format scotch $g
        set sp [speeds [model procs]]
        set min [tcl::mathfunc::min {*}$sp]
        set f [open [file join $tmp t.tgt] w]
        puts $f cmpltw
        puts $f [llength $sp]
        puts $f [join [lmap s $sp {expr {max(1, round(100.0 * $s / $min))}}] " "]
        close $f
        lassign [timed_exec $tmp scotch_gmap $g [file join $tmp t.tgt] [file join $tmp out.map]] secs kb
        set lines [lrange [read_lines [file join $tmp out.map]] 1 end]
        set part [lrepeat [llength $lines] 0]
        foreach l $lines { lset part [lindex $l 0] [lindex $l 1] }
        import_parts $tmp $part
        set out [list seconds $secs peer_kb $kb]
    }
    default { error "scale_child: unknown mapper \"$mapper\"" }
}
model configure -deadline none
set e [model eval]
set out [dict merge $out [dict filter $e key energy time feasible]]
# The proven lower bound on the energy of any mapping as fast as this
# one (its makespan as the deadline), when the program has `model bound`.
# (on unless SCALE_BOUND=0)
if {![info exists ::env(SCALE_BOUND)] || $::env(SCALE_BOUND)} {
    model configure -deadline [dict get $e time]
    set t0 [clock microseconds]
    if {[catch {model bound} b]} {
        dict set out bound_error [lindex [split $b \n] 0]
    } else {
        set out [dict merge $out [list bound [dict get $b energy] bound_method [dict get $b method] \
            bound_seconds [expr {([clock microseconds] - $t0) / 1e6}]]]
    }
    model configure -deadline none
}
puts $out
