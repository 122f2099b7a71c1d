# all.tcl - runs every *.test file in this directory in this interpreter
# (stencilmap -b tests/script/all.tcl), so the commands under test exist.
package require tcltest 2.5
namespace import ::tcltest::*
set ::SM_TOP [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] sm-tests-[pid]]
file mkdir $tmp
configure -singleproc 1 -testdir [file dirname [file normalize [info script]]] \
    -tmpdir $tmp {*}$argv
# A test file that fails to load counts as a failed test.
proc ::tcltest::cleanupTestsHook {} {}
runAllTests
file delete -force $tmp
if {[llength $::tcltest::failFiles] > 0} {
    puts "test files with errors: $::tcltest::failFiles"
    exit 1
}
