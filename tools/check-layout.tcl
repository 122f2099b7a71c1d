# check-layout.tcl ?BUILD? - the layout's rules, checked from the code:
#   1. every source folder has a place in LAYERS below;
#   2. an include across folders points to a lower layer (never up, never
#      sideways to another folder of the same layer);
#   3. no include circle between files (a .c and its .h count as one file);
#   4. no circle between object files through the symbols one takes from
#      another (BUILD's .o files, with nm), the kind an include check misses;
#   5. curses only in tui/pane and tui/workbench (the panes and the TUI
#      loop), Tcl only in tui/cmd and tui/main.c (SPEC 1);
#   6. MPI only in run/, which includes core (and MPI) only, and which
#      nothing else includes (SPEC 1).
# Prints one line per failure and ends "layout: N passed, N failed".
# Run by `make check` (tests/run-all.sh):
#   tclsh8.6 tools/check-layout.tcl ?-root DIR? ?BUILD?

# Folder -> layer. Lower layers never include higher ones.
set LAYERS {
    core/lib 0  core/kernel 0  core/energy_counters 0
    core/net 1  core/colouring 1  core/measure 1
    core/model 2
    core/traffic 3  core/io 3  core/bound 3
    core/session 4  core/run_results 4
    core/study 5
    solvers/stepper 10
    solvers/published_heuristics 11  solvers/tabu 11  solvers/ilp 11  solvers/profile_partitioning 11  solvers/process_to_node 11
    solvers 12
    tui/app 20
    tui/pane 21
    tui/workbench 22
    tui/cmd 23
    tui 24
    run 6
}
set root [file dirname [file dirname [file normalize [info script]]]]
if {[lindex $argv 0] eq "-root"} {
    set root [file normalize [lindex $argv 1]]
    set argv [lrange $argv 2 end]
}
set build [expr {[llength $argv] ? [file normalize [lindex $argv 0]] : ""}]
cd $root
set passed 0
set failed 0
proc result {ok what} {
    global passed failed
    if {$ok} { incr passed } else { incr failed; puts "layout: FAILED $what" }
}

proc sources {dir} {
    set out {}
    foreach f [glob -nocomplain -directory $dir *.c *.h] { lappend out $f }
    foreach d [glob -nocomplain -types d -directory $dir *] { lappend out {*}[sources $d] }
    return $out
}
set files [lsort [concat [sources core] [sources solvers] [sources tui] [sources run]]]
array set layer $LAYERS

# 1. Every folder placed.
set unplaced {}
foreach f $files {
    set d [file dirname $f]
    if {![info exists layer($d)] && $d ni $unplaced} { lappend unplaced $d }
}
foreach d $unplaced { puts "layout: folder $d has no layer in tools/check-layout.tcl" }
result [expr {[llength $unplaced] == 0}] "every folder has a layer"

# Includes, resolved as the compiler does: beside the file, then from the root.
set bad_dir {}
set bad_lib {}
set bad_mpi {}
array set edges {}
proc module {f} { return [file rootname $f] }
foreach f $files {
    set fh [open $f]; set text [read $fh]; close $fh
    set d [file dirname $f]
    foreach {- inc} [regexp -all -inline -line {^\s*#\s*include\s+"([^"]+)"} $text] {
        if {[file exists [file join $d $inc]]} {
            set t [file normalize [file join $d $inc]]
            set t [string range $t [string length [pwd]]+1 end]
        } elseif {[file exists $inc]} { set t $inc } else { continue }
        set td [file dirname $t]
        if {$td ne $d && [info exists layer($d)] && [info exists layer($td)] &&
            $layer($td) >= $layer($d)} {
            lappend bad_dir "$f includes $t ($d is layer $layer($d), $td is layer $layer($td))"
        }
        if {[module $t] ne [module $f]} { lappend edges([module $f]) [module $t] }
    }
    set curses [regexp -line {^\s*#\s*include\s+<n?curses[^>]*>} $text]
    set tcl [regexp -line {^\s*#\s*include\s+<tcl[^>]*>} $text]
    if {($curses && $d ni {tui/pane tui/workbench}) || ($tcl && $d ne "tui/cmd" && $f ne "tui/main.c")} {
        lappend bad_lib $f
    }
    set mpi [regexp -line {^\s*#\s*include\s+<mpi[^>]*>} $text]
    if {$mpi && $d ne "run"} { lappend bad_mpi "$f includes mpi.h" }
    foreach {- inc} [regexp -all -inline -line {^\s*#\s*include\s+"([^"]+)"} $text] {
        set abs [expr {[file exists [file join $d $inc]] ? [file join $d $inc] : $inc}]
        set top [lindex [file split $abs] 0]
        if {$d eq "run" && $top ni {run core}} { lappend bad_mpi "$f includes $inc: run/ includes core only" }
        if {$d ne "run" && $top eq "run"} { lappend bad_mpi "$f includes $inc from run/" }
    }
}
foreach m $bad_dir { puts "layout: $m" }
result [expr {[llength $bad_dir] == 0}] "includes point down the layers"
foreach m $bad_lib { puts "layout: $m includes curses or Tcl outside its place" }
result [expr {[llength $bad_lib] == 0}] "curses only in tui/pane and tui/workbench, Tcl only in tui/cmd and main.c"
foreach m $bad_mpi { puts "layout: $m" }
result [expr {[llength $bad_mpi] == 0}] "MPI only in run/, which includes core only and nothing includes"

# Circles: strongly connected components of more than one node (Tarjan).
proc circles {graphvar} {
    upvar 1 $graphvar g
    global idx low onstack stack counter sccs
    array unset idx; array unset low; array unset onstack
    set stack {}; set counter 0; set sccs {}
    foreach v [array names g] { if {![info exists idx($v)]} { strong g $v } }
    return $sccs
}
proc strong {graphvar v} {
    upvar 1 $graphvar g
    global idx low onstack stack counter sccs
    set idx($v) $counter; set low($v) $counter; incr counter
    lappend stack $v; set onstack($v) 1
    if {[info exists g($v)]} {
        foreach w [lsort -unique $g($v)] {
            if {![info exists idx($w)]} {
                strong g $w
                set low($v) [expr {min($low($v), $low($w))}]
            } elseif {[info exists onstack($w)] && $onstack($w)} {
                set low($v) [expr {min($low($v), $idx($w))}]
            }
        }
    }
    if {$low($v) == $idx($v)} {
        set comp {}
        while 1 {
            set w [lindex $stack end]; set stack [lrange $stack 0 end-1]
            set onstack($w) 0; lappend comp $w
            if {$w eq $v} break
        }
        if {[llength $comp] > 1} { lappend sccs [lsort $comp] }
    }
}
set c [circles edges]
foreach m $c { puts "layout: include circle: [join $m { <-> }]" }
result [expr {[llength $c] == 0}] "no include circle between files"

# 4. Symbol circles between object files.
if {$build ne "" && [file isdirectory $build]} {
    set objs {}
    foreach f $files {
        if {[file extension $f] eq ".c" && [file exists $build/[file rootname $f].o]} {
            lappend objs $build/[file rootname $f].o
        }
    }
    array set def {}
    array set use {}
    foreach o $objs {
        foreach line [split [exec nm -P $o] \n] {
            lassign $line sym type
            if {$type in {T D B R C G S V W}} { set def($sym) $o } elseif {$type eq "U"} { lappend use($o) $sym }
        }
    }
    array set sym_edges {}
    foreach o $objs {
        if {![info exists use($o)]} continue
        foreach s $use($o) {
            if {[info exists def($s)] && $def($s) ne $o} { lappend sym_edges($o) $def($s) }
        }
    }
    set c [circles sym_edges]
    foreach m $c { puts "layout: symbol circle: [join $m { <-> }]" }
    result [expr {[llength $c] == 0}] "no circle between object files through their symbols"
} else {
    puts "layout: no build directory given: symbol circles not checked"
}
puts "layout: $passed passed, $failed failed"
exit [expr {$failed > 0}]
