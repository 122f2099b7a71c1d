# safe_cmds.tcl SEED COUNT OUTSIDE - a random driver for the safe
# interpreter's commands (run by safe_run.sh as `stencilmap -safe -b`, in
# a sandbox whose cwd holds links out, dangling, looping and absolute).
# Each step calls one stencilmap command with hostile paths and names
# (.., symlinks, absolute, long, control characters, quotes, brackets,
# option-like words, NUL), random keys through screen keys, and values
# sized to reach the memory limit and Tcl's largest value (2 GB). Prints one
# line per error code seen and a final "steps N"; safe_run.sh checks that
# nothing outside changed and that the program never crashed.
lassign $argv seed count outside
expr {srand($seed)}
set secret SAFE-FUZZ-SECRET

proc pick {l} { lindex $l [expr {int(rand() * [llength $l])}] }
proc chance {p} { expr {rand() < $p} }

# A hostile path: pieces joined by /, sometimes absolute, sometimes with
# junk characters, sometimes very long.
proc hostile_path {} {
    global outside
    set parts {.. . "" link dangle loop1 self abs out in in/s.json s.json g.json t.json m.json
               victim.txt fifo study x.json new.json "a b" "-format" "~" "~root" "\$HOME"
               "\[exec touch pwned\]" "\{" "\}" "\"" ";" "\n" "\t" "\x01" "\x7f" "\u00e9"
               "\x00" * ? "\\" ".json" "..." ".." "/" "//" proc self/root}
    set n [expr {1 + int(rand() * 6)}]
    set p {}
    for {set i 0} {$i < $n} {incr i} { lappend p [pick $parts] }
    set s [join $p /]
    switch [expr {int(rand() * 8)}] {
        0 { set s /$s }
        1 { set s $outside/$s }
        2 { set s [string repeat ../ [expr {int(rand() * 12)}]]$s }
        3 { set s [string repeat x [expr {int(rand() * 5000)}]] }
        4 { set s [pick [list /etc/passwd /dev/zero /dev/full /proc/self/environ $outside \
                             $outside/secret.tcl $outside/s.json link/s.json link/../out/s.json \
                             dangle loop1/x self/x fifo link/fifo /tmp/../$outside/victim.txt]] }
        default {}
    }
    if {[chance 0.1]} { append s / }
    return $s
}

proc hostile_name {} {
    pick [list cpu0 gpu0 0 1 -1 99999999999 "" " " "cpu0 gpu0" "\{" "\[exec ls\]" "\$x" \
              "\x00" "\n" "a\nb" [string repeat n 3000] -format -seed 1e308 nan inf "0x10" \
              "\u00e9" "::exec" "interp" "\\" "\"" ";" cpu gpu]
}

# Command templates: P a path, N a name, K random keys.
set templates {
    {scenario load P} {scenario save P} {grid load P} {grid save P} {topo load P}
    {topo save P} {map load P} {map save P} {map import -format part P}
    {map export -format part P} {map export -format graphml P}
    {graph export -format metis P} {graph export -format scotch P}
    {graph export -format graphml P} {report P} {report -format json P}
    {report -format csv P} {session record P} {session stop} {session replay P}
    {session replay -safe P} {study run P -out P} {study merge P} {study plot P -x deadline -y energy}
    {study plot P -x deadline -y energy -o P} {view study P} {view compare P} {theme load P}
    {theme load N} {topo profile N P} {topo import -format hwloc P} {screen dump P}
    {map set N N} {map get N} {map move N N} {view focus N} {key bind N N} {key bind N P}
    {on changed N} {solve N} {model configure -deadline N} {topo state N N}
    {screen keys K} {file join P P} {file dirname P} {file exists P} {file delete P}
    {open P w} {exec touch pwned} {source P} {cd P} {glob P} {interp eval {} {exec ls}}
    {load P} {socket localhost 22}
    {string repeat x B} {append ::big [string repeat x B]} {lappend ::biglist [string repeat y B]}
    {lrepeat B x} {string cat ::big ::big} {join [lrepeat 4 [string repeat z B]] B}
    {file dirname ~N} {file tail ~N} {view quit -force}
    {format %Bs x} {format %.Bf 1.0} {format %*s B x}
    {SCRIPT {concat {*}[lrepeat 3000 [string repeat c B]]}}
    {SCRIPT {string length [lrepeat 3000 [string repeat l B]]}} {SCRIPT {set ::t "$::big$::big"}}
    {SCRIPT {string map [list x [string repeat m B]] [string repeat x 1000000]}}
    {SCRIPT {regsub -all {} [string repeat r 1000000] [string repeat s B]}}
    {SCRIPT {string replace [string repeat a B] 0 0 [string repeat b B]}}
    {SCRIPT {binary encode hex [string repeat h B]}} {SCRIPT {grid create -blocks [list B B B]}}
}

# A size: small, large, past the memory limit, past Tcl's largest value,
# nonsense.
proc big_size {} {
    pick {0 1 1000 1000000 100000000 600000000 1100000000 3000000000 -1 1e9 x}
}

proc random_keys {} {
    set k {}
    set alphabet {: Enter Esc Tab Space Backspace Left Right Up Down q s w e x c a b d f m n
                  r t y z ? 1 2 / - . C-c C-x C-s F1 F2 PgUp PgDn Home End}
    for {set i [expr {int(rand() * 30)}]} {$i > 0} {incr i -1} {
        if {[chance 0.2]} {
            # Type a hostile command into the console.
            lappend k :
            foreach c [split [pick [list "exec touch pwned" "scenario save [hostile_path]" \
                                        "map save $::outside/x.json" "open /etc/passwd" \
                                        "session replay $::outside/secret.tcl" "file delete link/s.json"]] ""] {
                lappend k [expr {$c eq " " ? "Space" : $c}]
            }
            lappend k Enter
        } else {
            lappend k [pick $alphabet]
        }
    }
    return $k
}

set codes [dict create]
set leaks 0
for {set step 0} {$step < $count} {incr step} {
    set t [pick $templates]
    set cmd {}
    # A script with sizes in it (what builds one large value inside
    # brackets, or compiled code), run as a script.
    if {[lindex $t 0] eq "SCRIPT"} { set t [list eval [string map [list B [big_size]] [lindex $t 1]]] }
    foreach w $t {
        switch -- $w {
            P { lappend cmd [hostile_path] }
            N { lappend cmd [hostile_name] }
            K { lappend cmd [random_keys] }
            B { lappend cmd [big_size] }
            %Bs - %.Bf { lappend cmd [string map [list B [big_size]] $w] }
            default { lappend cmd $w }
        }
    }
    set rc [catch {{*}$cmd} msg opts]
    if {$rc == 1} {
        set code [lrange [dict get $opts -errorcode] 0 2]
        if {[string first $secret "$msg [dict get $opts -errorinfo]"] >= 0} {
            puts "LEAK: $cmd -> $msg"
            incr leaks
        }
    } else {
        set code ok
        if {[string first $secret $msg] >= 0} {
            puts "LEAK: $cmd -> $msg"
            incr leaks
        }
    }
    dict incr codes "[lindex $t 0] [lindex $t 1]: $code"
    # Keep going from a known session now and then.
    if {$step % 50 == 0} {
        catch {session stop}; catch {scenario load in/s.json}; catch {on changed {}}
        unset -nocomplain ::big ::biglist
    }
}
dict for {k v} $codes { puts "$v\t$k" }
puts "steps $count leaks $leaks"
exit [expr {$leaks ? 3 : 0}]
