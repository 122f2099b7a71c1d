# builtin-library.tcl - helpers written in Tcl, loaded into every stencilmap
# interpreter at start (batch, -e and the workbench). Compiled into the
# binary, so an installed stencilmap needs no library path.

namespace eval ::stencilmap {
    namespace export fmt_energy eval_row compare_eval
}

# One line for an eval dict: energy, time, rounds, feasibility (energy
# and time written by the panes' number rule: units figure).
proc ::stencilmap::eval_row {ev} {
    format "energy %s  time %s  edges %d  message_rounds %d  %s" \
        [units figure energy [dict get $ev energy]] [units figure time [dict get $ev time]] [dict get $ev edges] \
        [dict get $ev message_rounds] \
        [expr {[dict get $ev feasible] ? "feasible" : "INFEASIBLE"}]
}

# Relative difference of two numbers, for checks in scripts.
proc ::stencilmap::reldiff {a b} {
    set d [expr {abs($a - $b)}]
    set m [expr {max(abs($a), abs($b))}]
    expr {$m == 0 ? 0.0 : $d / $m}
}

# with_model {-deadline 3e-3} {script}: run a script under other model
# options, then put the model back as it was.
proc ::stencilmap::with_model {opts script} {
    set saved [model configure]
    model configure {*}$opts
    set rc [catch {uplevel 1 $script} res opt]
    model configure {*}$saved
    return -options $opt $res
}

# sweep SOLVER DEADLINES ?solver options?: run the solver from the same
# starting mapping at each deadline; returns one dict per deadline (the
# eval dict plus deadline, status and seconds). The session's mapping and
# model are restored afterwards. Needs no file, so a safe script may use it.
proc ::stencilmap::sweep {solver deadlines args} {
    set saved_model [model configure]
    set start [map list]
    set rows {}
    try {
        foreach d $deadlines {
            ::stencilmap::restore_mapping $start
            model configure -deadline $d
            set r [solve $solver {*}$args]
            dict set r deadline $d
            lappend rows $r
        }
    } finally {
        model configure {*}$saved_model
        ::stencilmap::restore_mapping $start
    }
    return $rows
}

# restore_mapping LIST: put back a mapping `map list` returned, one
# `map move` per processor whose blocks changed.
proc ::stencilmap::restore_mapping {want} {
    set now [map list]
    set moves [dict create]
    set b 0
    foreach p $want q $now {
        if {$p ne $q} { dict lappend moves $p $b }
        incr b
    }
    dict for {p blocks} $moves { map move $p {*}$blocks }
}
