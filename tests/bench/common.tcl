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
