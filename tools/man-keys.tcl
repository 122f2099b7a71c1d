# man-keys.tcl - the KEYS list of stencilmap(1), generated from the key
# table (tui/app/key_action_table.h, as `key list` returns it): one .TP entry per
# action, in the table's order, with all its keys. Run by `make man`:
#     stencilmap -b tools/man-keys.tcl man/stencilmap.1
# rewrites the lines between the KEYS BEGIN and KEYS END markers of that
# page (atomically); with no argument it prints the list. The script
# tests compare the page with it, so the page never lists a key that
# does not exist.

proc roff {text} {
    # Backslashes first, then a leading dot or quote would be a request.
    set text [string map {\\ \\e} $text]
    if {[string match {[.']*} $text]} { set text "\\&$text" }
    return $text
}

proc man_keys {} {
    set order {}
    set keys [dict create]
    set helps [dict create]
    foreach e [key list] {
        lassign $e key action help
        if {$help eq ""} continue ;# a user's binding, not the table
        if {![dict exists $keys $action]} {
            lappend order $action
            dict set helps $action $help
        }
        dict lappend keys $action "\\fB[roff $key]\\fR"
    }
    set out {}
    foreach a $order {
        lappend out .TP [join [dict get $keys $a] ", "] [roff [dict get $helps $a]]
    }
    return [join $out \n]
}
set begin {.\" KEYS BEGIN: generated from the key table by `make man` (tools/man-keys.tcl); edit tui/app/key_action_table.h}
set end {.\" KEYS END}
# Sourced (the script tests), it only defines man_keys and the markers.
if {![info exists ::argv0] || [file tail $::argv0] ne "man-keys.tcl"} return
if {$argc == 0} {
    puts [man_keys]
    return
}
set page [lindex $argv 0]
set f [open $page]
set text [read $f]
close $f
set b [string first $begin $text]
set e [string first $end $text]
if {$b < 0 || $e < $b} { error "$page: no KEYS BEGIN/END markers" }
set new "[string range $text 0 [expr {$b + [string length $begin]}]][man_keys]\n[string range $text $e end]"
if {$new ne $text} {
    set tmp $page.tmp
    set f [open $tmp w]
    puts -nonewline $f $new
    close $f
    file rename -force $tmp $page
    puts "$page: KEYS regenerated"
}
