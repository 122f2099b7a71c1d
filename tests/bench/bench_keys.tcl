# bench_keys.tcl - every key answers within 50 ms at machine scale (#11
# item 6): 1 M blocks (128 x 128 x 64, 7pt) on 4096 processors (1024
# nodes of 2 CPUs + 2 GPUs on a three-level tree), a replayed sequence of
# keys (cursor moves, plane paging, select, m move, undo, v, pane focus,
# zoom) on a headless 200 x 60 workbench (`screen keys`: the key handled
# and the next frame drawn and written out, what a user waits for). Per
# key kind: median, p95 and max against the 50 ms target, and the ratio to
# the same keys on Summit-like (1024 blocks, 256 processors) measured in
# this run. KEYS_ROUNDS (environment) repeats the sequence (default 5).
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set samples [file join $top samples]
set rounds [expr {[info exists ::env(KEYS_ROUNDS)] ? $::env(KEYS_ROUNDS) : 5}]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] sm-bench-keys-[pid]]
file mkdir $tmp

source [file join [file dirname [info script]] common.tcl]

# The key sequence: common.tcl's base kinds, then the Network pane and a
# solver start.
proc sequence {target} {
    set s [base_sequence $target]
    # The Network pane in Communication's place (L), its keys while shown
    # (the selected link moves: the pairs crossing it are listed), a move
    # under it, and L back.
    lappend s {"network open" L}
    foreach k {l l j h PgDn k} { lappend s [list "network key" $k] }
    lappend s {"network close" L} {focus BTab} {focus BTab} {focus BTab}
    # A new solver: its start runs in the background (a start not done
    # when the next round starts another is given up); v switches every
    # pane between it and the session.
    lappend s [list "solver start" : C-u {*}[split "solver start tabu -from current -iters 1000000" ""] Enter]
    lappend s {source v} {source v}
    return $s
}

proc measure {target rounds} {
    set q [sequence_keys [sequence $target] $rounds]
    set kinds [dict get $q kinds]
    set sec [screen keys -size {200 60} [dict get $q keys]]
    # Then the last start finished (`solver state` waits for it): the
    # first v shows the solver (its mapping's cost state and rounds, built
    # by the start, are taken over), v back and forth, steps with the
    # panes following.
    view source session
    solver state
    lappend kinds source source source step step step cursor
    lappend sec {*}[screen keys -size {200 60} {v v v n n n l}]
    return [by_kind $kinds $sec]
}

proc pct {sorted p} {
    set n [llength $sorted]
    set i [expr {min($n - 1, int(ceil($p * $n)) - 1)}]
    lindex $sorted [expr {max(0, $i)}]
}

scenario load [file join $samples summit-like.json]
set small [measure n01.v100_0 $rounds]

set topo [file join $tmp topo4096.json]
big_topology $topo
set t0 [clock microseconds]
topo load $topo
grid create -blocks {128 128 64} -cells {1024 1024 512} -stencil 7pt
set setup [expr {([clock microseconds] - $t0) / 1e6}]
set big [measure n0001.gpu0 $rounds]
# What the workbench's start runs in the background, timed alone.
set t0 [clock microseconds]
solver start tabu -from current -iters 1000000
set solver_start [expr {([clock microseconds] - $t0) / 1e6}]
solver stop

puts "Keys at scale: [dict get [grid info] tasks] blocks on [llength [topo procs]] processors\
(setup [format %.2f $setup] s; tabu's start alone, which the workbench runs in the background, [format %.2f $solver_start] s);\
headless 200x60 xterm-256color, $rounds rounds; time = key handled + frame drawn and written"
puts [format "%-14s %5s %10s %10s %10s %8s %12s %9s" kind keys "median ms" "p95 ms" "max ms" "target" "summit med" "ratio"]
set worst 0
foreach kind [dict keys $big] {
    set s [lsort -real [dict get $big $kind]]
    set ss [lsort -real [dict get $small $kind]]
    set med [pct $s 0.5]
    set p95 [pct $s 0.95]
    set max [lindex $s end]
    set smed [pct $ss 0.5]
    if {$max > $worst} { set worst $max }
    puts [format "%-14s %5d %10.2f %10.2f %10.2f %8s %12.3f %8.1fx" $kind [llength $s] [expr {$med * 1e3}] \
        [expr {$p95 * 1e3}] [expr {$max * 1e3}] [expr {$p95 <= 0.05 ? "ok" : "SLOW"}] [expr {$smed * 1e3}] \
        [expr {$smed > 0 ? $med / $smed : 0}]]
}
puts [format "slowest key: %.2f ms (target 50 ms)" [expr {$worst * 1e3}]]
# The Network pane against an ordinary key (a Grid cursor move) of the
# same run: opening it and its keys while shown, median over median.
set cur [pct [lsort -real [dict get $big cursor]] 0.5]
foreach kind {"network open" "network key" "network close"} {
    set med [pct [lsort -real [dict get $big $kind]] 0.5]
    puts [format "%-13s at 1 M blocks: median %.2f ms, %.1fx a cursor key (%.2f ms)" $kind [expr {$med * 1e3}] \
        [expr {$cur > 0 ? $med / $cur : 0}] [expr {$cur * 1e3}]]
}
file delete -force $tmp
