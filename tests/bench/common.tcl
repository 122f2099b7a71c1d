# common.tcl - what the key benchmarks share (sourced, not run by run.sh,
# which runs bench_*.tcl).

# 1024 nodes x (2 CPUs, 2 GPUs), Cuboid's types, a fat tree of 16 x 8 x 8.
proc big_topology {file} {
    set procs {}
    for {set n 0} {$n < 1024} {incr n} {
        foreach p {cpu0 cpu1 gpu0 gpu1} t {cpu cpu gpu gpu} {
            lappend procs [format {{"name":"n%04d.%s","type":"%s","node":%d}} $n $p $t $n]
        }
    }
    set f [open $file w]
    puts $f [format {{"format":"stencilmap/topology","version":1,
 "types":{"cpu":{"time_per_cell":8.316e-10,"energy_per_cell":2.916e-8,"p0":90,"p_idle":10},
          "gpu":{"time_per_cell":1.068e-10,"energy_per_cell":5.505e-9,"p0":74,"p_idle":30}},
 "processors":[%s],
 "network":{"kind":"tree","group_sizes":[16,8,8]},
 "links":{"intra":{"*":{"time_per_cell":9.766e-10,"energy_per_cell":1.3615e-5}},
          "inter":[{"time_per_cell":2e-9,"energy_per_cell":2e-5},{"time_per_cell":3e-9,"energy_per_cell":3e-5},
                   {"time_per_cell":4e-9,"energy_per_cell":4e-5},{"time_per_cell":5e-9,"energy_per_cell":5e-5}]}}} \
        [join $procs ,]]
    close $f
}

# The key kinds every key benchmark replays (bench_keys, bench_summit),
# as entries {kind key ...}: the time of an entry is its last key's (the
# one that runs the command); the keys typed before it are timed as
# "prompt typing". target: the processor the m prompt moves blocks to.
proc base_sequence {target} {
    set s {}
    foreach k {l l l j j h k} { lappend s [list cursor $k] }
    lappend s {plane PgDn} {plane PgDn} {plane PgUp} {plane >} {plane <}
    lappend s {select x} {select x} {select x}
    lappend s [list move m C-u {*}[split $target ""] Enter]
    lappend s {undo u} {redo C-r} {undo u}
    lappend s {source v} {source v}
    lappend s {focus Tab} {focus Tab} {focus Tab} {focus BTab} {focus BTab} {focus BTab}
    lappend s {zoom z} {zoom z}
    return $s
}

# The keys of a sequence repeated rounds times, for `screen keys`, and the
# kind each is timed as: a dict keys, kinds (a space typed is Space).
proc sequence_keys {sequence rounds} {
    set keys {}
    set kinds {}
    for {set r 0} {$r < $rounds} {incr r} {
        foreach e $sequence {
            set ks [lmap k [lrange $e 1 end] {expr {$k eq " " ? "Space" : $k}}]
            foreach k [lrange $ks 0 end-1] { lappend keys $k; lappend kinds "prompt typing" }
            lappend keys [lindex $ks end]
            lappend kinds [lindex $e 0]
        }
    }
    dict create keys $keys kinds $kinds
}

# The seconds `screen keys` returned, grouped: kind -> list of seconds.
proc by_kind {kinds secs} {
    set by [dict create]
    foreach k $kinds s $secs { dict lappend by $k $s }
    return $by
}
