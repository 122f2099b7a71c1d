# all.tcl - runs every *.test file in this directory in this interpreter
# (stencilmap -b tests/script/all.tcl), so the commands under test exist.
package require tcltest 2.5
namespace import ::tcltest::*
configure -singleproc 1 -testdir [file dirname [file normalize [info script]]] {*}$argv
set ::env(SM_TOP) [file dirname [file dirname [testsDirectory]]]
runAllTests
