# common.tcl - helpers shared by the script tests.
set ::SAMPLES [file join $::SM_TOP samples]
set ::TMP [tcltest::temporaryDirectory]

# The error code and message of a failing script, as {CODE message}.
proc errof {script} {
    if {![catch {uplevel 1 $script} msg opts]} { return "no error: $msg" }
    list [dict get $opts -errorcode] $msg
}

# Wait until cond (an expression, in the caller) holds, checking every
# 50 ms; past seconds the test fails, naming what it waited for.
proc waitfor {seconds what cond} {
    set end [expr {[clock milliseconds] + int($seconds * 1000)}]
    while {![uplevel 1 [list expr $cond]]} {
        if {[clock milliseconds] > $end} { error "waited $seconds s for $what" }
        after 50
    }
}

proc tmpfile {name} { file join $::TMP $name }

proc writefile {name text} {
    set f [open [tmpfile $name] w]
    fconfigure $f -translation binary
    puts -nonewline $f $text
    close $f
    tmpfile $name
}

proc near {a b {rel 1e-9}} {
    expr {abs($a - $b) <= $rel * max(abs($a), abs($b))}
}

# The session state that must not change when a command fails.
proc fingerprint {} {
    list [map list] [model eval] [model configure] [grid info] [topo info]
}

proc fresh {{scenario cuboid-cpu-gpu.json}} {
    scenario load [file join $::SAMPLES $scenario]
}

# Remove what this file wrote, before tcltest looks for files left behind.
proc cleanup_tmp {} {
    foreach f [glob -nocomplain -directory $::TMP *] { file delete -force $f }
}
