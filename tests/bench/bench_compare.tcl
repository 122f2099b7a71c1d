# bench_compare.tcl - what compare mode costs (#11 item 5): turning it on
# against a mapping file, an undo point, and asking for its state, beside
# the peer a user has without it: load the file into the session, evaluate,
# undo. The other mapping gets a cost state of its own, so entering compare
# mode should cost about what the peer does, and asking again (nothing
# changed) far less. Summit-like machine (256 processors), growing grids.
# Run by `make bench`.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set sample [file join $top samples summit-like.json]
set file [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] bench-compare-[pid].json]
set sizes {{32 32 32} {64 64 64} {128 128 64}}

proc seconds {script} {
    set t0 [clock microseconds]
    uplevel 1 $script
    expr {([clock microseconds] - $t0) / 1e6}
}

puts "compare mode on summit-like.json (256 processors): seconds, ratio to the peer (map load FILE; model eval; map undo)"
puts [format "%10s %10s %12s %8s %14s %8s %12s %8s %12s %8s" blocks peer "compare FILE" ratio "compare solver" ratio "compare undo" ratio "state again" ratio]
foreach b $sizes {
    scenario load $sample
    grid create -blocks $b -cells [lmap x $b {expr {$x * 8}}]
    solve sfc -curve hilbert
    map save $file
    solve lb -speeds floor
    solve sfc -curve hilbert
    map undo
    set n [llength [map list]]
    set peer [seconds { map load $file; model eval; map undo }]
    set tf [seconds { view compare $file }]
    set ts [seconds { view compare }]
    set tv [seconds { view compare solver }]
    map set 0 [dict get [lindex [topo procs] end] name]
    set tu [seconds { view compare undo 1 }]
    view compare off
    puts [format "%10d %10.4f %12.4f %7.2fx %14.4f %7.2fx %12.4f %7.2fx %12.4f %7.3fx" $n $peer $tf [expr {$tf / $peer}] \
              $tv [expr {$tv / $peer}] $tu [expr {$tu / $peer}] $ts [expr {$ts / $peer}]]
}
file delete $file
