# study-merge.tcl - the table of a finished study, as CSV.
#
#   stencilmap -b scripts/study-merge.tcl DIR ?OUT? ?-partial?
#
# Writes OUT (default DIR/merged.csv; - for stdout) atomically. Refuses,
# naming the missing and failed jobs, while DIR lacks any (exit 1), unless
# -partial. The Slurm merge job (study-slurm-submit.sh) runs this.
set partial [expr {[lsearch -exact $argv -partial] >= 0}]
set argv [lsearch -all -inline -not -exact $argv -partial]
if {[llength $argv] < 1 || [llength $argv] > 2} {
    puts stderr "usage: stencilmap -b study-merge.tcl DIR ?OUT? ?-partial?"
    exit 2
}
lassign $argv dir out
if {$out eq ""} { set out [file join $dir merged.csv] }
set opts [list -format csv]
if {$partial} { lappend opts -partial }
if {[catch {study merge $dir {*}$opts} csv]} {
    puts stderr $csv
    exit 1
}
if {$out eq "-"} {
    puts -nonewline $csv
} else {
    set tmp $out.tmp[pid]
    set f [open $tmp w]
    puts -nonewline $f $csv
    close $f
    file rename -force $tmp $out
    set st [study status $dir]
    puts "merged [dict get $st done] of [dict get $st jobs] jobs into $out"
}
