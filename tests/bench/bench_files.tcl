# bench_files.tcl - a whole Summit's files (#40): samples/summit-full.json
# (16.7 M blocks on 36,864 processors, its lb mapping, and rcb's: boxes,
# the hardest ordinary mapping to compress) saved with `scenario save`
# and `map save` and loaded back with `scenario load` and `map load`, by
# this program and by "today's" (the program as of main's c024405, before
# #40, built from git into build/bench/files-today by `make bench`), in
# one run. Each save and each load runs in its own process (the load
# does not find the saver's memory warm); times are of the command
# alone, sizes are the files'. A scenario's load builds the 16.7 M-block
# task graph and the cost model too: the line below it gives the load of
# the shipped scenario (no mapping) in the same process. loadcpu is the
# load's CPU time: the wall time on a machine of its own (this one is
# shared: others' work stretches the wall time, not the CPU time).
# Targets: save and load within 10 s each, files within 1/10 of today's. Needs about 8 GB: with
# STENCILMAP_BIGMEM_LOCK set (a lock file) every process runs under
# `flock` on it. FILES_SOLVERS (default "lb rcb") picks the mappings.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set new [file join $top stencilmap]
set old [file join $top build bench files-today stencilmap]
set scen [file join $top samples summit-full.json]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] sm-files-[pid]]
set solvers [expr {[info exists ::env(FILES_SOLVERS)] ? $::env(FILES_SOLVERS) : "lb rcb"}]
file mkdir $tmp

# Runs a Tcl script in exe; its last line (a dict), or {error MESSAGE}.
proc child {exe script} {
    global tmp
    set f [file join $tmp child.tcl]
    set c [open $f w]
    puts $c $script
    close $c
    set cmd [list nice $exe -b $f]
    if {[info exists ::env(STENCILMAP_BIGMEM_LOCK)]} { set cmd [list flock $::env(STENCILMAP_BIGMEM_LOCK) {*}$cmd] }
    if {[catch {exec {*}$cmd 2>@1} out]} {
        return [list error [string range [lindex [split [string trim $out] \n] end] 0 120]]
    }
    lindex [split [string trim $out] \n] end
}

# The mapping of solver: lb is the scenario's own (lb -order ijk).
proc mapping_script {solver} {
    if {$solver eq "lb"} { return "" }
    return "solver start $solver; solver run; solver apply"
}

proc save {exe solver tag} {
    global scen tmp
    set s [file join $tmp $tag.scenario.json]
    set m [file join $tmp $tag.mapping.json]
    child $exe [format {
        scenario load %s
        %s
        set t0 [clock microseconds]
        scenario save %s
        set t1 [clock microseconds]
        map save %s
        set t2 [clock microseconds]
        puts [list ssave [expr {($t1 - $t0) / 1e6}] msave [expr {($t2 - $t1) / 1e6}] ssize [file size %s] msize [file size %s]]
    } [list $scen] [mapping_script $solver] [list $s] [list $m] [list $s] [list $m]]
}

# Load times: scenario load of the saved file first, in a fresh process
# (what a user waits for opening it: grid, machine and mapping), then the
# shipped summit-full.json (no mapping) for reference, and map load of the
# mapping file into it. "refused" with the message when the program
# refuses. Beside each wall time, the CPU time of the same command
# (/proc/self/stat), which a machine shared by other work does not
# stretch: on a machine of its own a load takes its CPU time.
proc load {exe tag} {
    global scen tmp
    set s [file join $tmp $tag.scenario.json]
    set m [file join $tmp $tag.mapping.json]
    child $exe [format {
        proc cpu {} {
            set f [open /proc/self/stat]; set st [read $f]; close $f
            set st [string range $st [expr {[string last ")" $st] + 2}] end]
            expr {([lindex $st 11] + [lindex $st 12]) / 100.0}
        }
        set c0 [cpu]
        set t0 [clock microseconds]
        set rs [catch {scenario load %s} es]
        set t1 [clock microseconds]
        set c1 [cpu]
        scenario load %s
        set t2 [clock microseconds]
        set c2 [cpu]
        set rm [catch {map load %s} em]
        set t3 [clock microseconds]
        set c3 [cpu]
        puts [list base [expr {($t2 - $t1) / 1e6}] basecpu [expr {$c2 - $c1}] \
            sload [expr {$rs ? "refused" : ($t1 - $t0) / 1e6}] scpu [expr {$rs ? "-" : $c1 - $c0}] serr [string range $es 0 60] \
            mload [expr {$rm ? "refused" : ($t3 - $t2) / 1e6}] mcpu [expr {$rm ? "-" : $c3 - $c2}] merr [string range $em 0 60]]
    } [list $s] [list $scen] [list $m]]
}

proc secs {d key} {
    set v [dict get $d $key]
    expr {[string is double -strict $v] ? [format %.1f $v] : $v}
}
proc mb {bytes} { format %.1f [expr {$bytes / 1048576.0}] }

puts "A whole Summit's files: summit-full.json, 16,777,216 blocks on 36,864 processors; today = main at c024405 (before #40), in this run"
if {![file executable $old]} { puts "(today's program not built: $old; make bench builds it from git)" }
puts [format "%-4s %-8s %-6s %9s %9s %9s %10s %9s %9s %10s" mapping file program save(s) load(s) loadcpu(s) size(MB) size/today load<=10s save<=10s]
foreach solver $solvers {
    set rows {}
    foreach prog {today new} exe [list $old $new] {
        if {![file executable $exe]} continue
        set sv [save $exe $solver $prog-$solver]
        set ld [expr {[lindex $sv 0] eq "error" ? {error -} : [load $exe $prog-$solver]}]
        dict set rows $prog [list $sv $ld]
    }
    foreach kind {scenario mapping} sk {ssave msave} lk {sload mload} ck {scpu mcpu} zk {ssize msize} ek {serr merr} {
        foreach prog {today new} {
            if {![dict exists $rows $prog]} continue
            lassign [dict get $rows $prog] sv ld
            if {[lindex $sv 0] eq "error"} {
                puts [format "%-4s %-8s %-6s error: %s" $solver $kind $prog [lindex $sv 1]]
                continue
            }
            set ratio -
            if {$prog eq "new" && [dict exists $rows today] && [lindex [dict get $rows today] 0 0] ne "error"} {
                set ratio [format 1/%.0f [expr {double([dict get [lindex [dict get $rows today] 0] $zk]) / [dict get $sv $zk]}]]
            }
            set lt [expr {[lindex $ld 0] eq "error" ? "error" : [secs $ld $lk]}]
            set lc [expr {[lindex $ld 0] eq "error" ? "-" : [secs $ld $ck]}]
            puts [format "%-4s %-8s %-6s %9s %9s %9s %10s %9s %9s %10s" $solver $kind $prog [secs $sv $sk] $lt $lc \
                [mb [dict get $sv $zk]] $ratio \
                [expr {[string is double -strict $lt] ? ($lt <= 10 ? "yes" : "NO") : "NO"}] \
                [expr {[dict get $sv $sk] <= 10 ? "yes" : "NO"}]]
            if {$lt eq "refused"} { puts "     load refused: [dict get $ld $ek]" }
            if {$kind eq "scenario" && [lindex $ld 0] ne "error"} {
                puts "     (then the same process loaded summit-full.json as shipped, no mapping, in [secs $ld base] s, [secs $ld basecpu] s CPU: grid, machine and model)"
            }
        }
    }
    foreach f [glob -nocomplain -directory $tmp *.json] { file delete $f }
}
file delete -force $tmp
