# network_pane.sh - sourced by run.sh (its helpers): link loads laid out
# like the torus, fat-tree uplinks (check 21).

# like the 4x4x4 torus; a link chosen with the keys lists the pairs whose
# messages cross it, as batch's view link and model links say.
N=samples/lu-torus4.json
start net 100 30 xterm-256color $N
keys net L
wait_for net "Network  torus plane 0/3" && ! cap net | grep -qF "Communication" &&
    ok "L: the Network pane in Communication's place" || bad "network pane" "$(cap net | sed -n 13,16p)"
max_batch=$("$BIN" -e "scenario load $N; tcl::mathfunc::max {*}[lmap l [model links] {dict get \$l messages}]")
cap net | grep -qF "msg per link, max $max_batch " && [ "$(cap net | grep -c '\[[0-9 ]\]-[0-9.]-')" -ge 3 ] &&
    ok "heat map: plane rows drawn, scale max $max_batch msg as in model links" ||
    bad "heat map" "max $max_batch: $(cap net | sed -n 13,20p)"
# Right selects the first link (0 -> 1), Enter turns it to the row link 0 -> 4.
keys net Right Enter
must net "% view link 0 4"
settle net
fwd=$("$BIN" -e "scenario load $N; foreach l [model links] {if {[dict get \$l from] == 0 && [dict get \$l to] == 4} {puts [dict get \$l messages]}}")
back=$("$BIN" -e "scenario load $N; foreach l [model links] {if {[dict get \$l from] == 4 && [dict get \$l to] == 0} {puts [dict get \$l messages]}}")
cap net | grep -qF "n0>n4 $fwd msg  n4>n0 $back" && ok "selected link 0 -> 4: $fwd and $back messages, as model links" ||
    bad "link loads" "want n0>n4 $fwd, n4>n0 $back: $(cap net | grep -F 'n0>n4')"
missing=""
for p in $("$BIN" -e "scenario load $N; set r [view link 0 4]; join [lmap e [concat [dict get \$r pairs] [dict get \$r reverse pairs]] {format %s>%s:%s {*}[lrange \$e 0 2]}] { }"); do
    cap net | grep -qF -- "$(echo "$p" | tr ':' ' ')" || missing="$missing $p"
done
[ -z "$missing" ] && ok "the pairs crossing 0 -> 4 and back are listed, as batch's view link" ||
    bad "crossing pairs" "missing:$missing; $(cap net | sed -n 20,25p)"
# PgDn pages to the next plane and keeps the link's place.
keys net PgDn
wait_for net "plane 1/3" && wait_for net "n16>n20" && ok "PgDn: plane 1, link 16 -> 20" || bad "plane paging" "$(cap net | sed -n 13,24p)"
# It follows a stepping solver (v), like the other panes.
keys net : "solver start bokhari -seed 1" Enter
wait_for net "(solver's current)" && ok "Network follows the solver's current mapping" || bad "follow" "$(cap net | sed -n 13p)"
keys net v
wait_for net "% view source session" && ! cap net | grep -qF "(solver's current)" && ok "v: back to the session's" ||
    bad "source" "$(cap net | sed -n 13p)"
# A click on the link between the first row's second and third nodes.
$T send-keys -t net -l "$(printf '\033[<0;12;15M\033[<0;12;15m')"
wait_for net "% view link 17 18" && ok "a click selects the link under it (plane 1: 17 -> 18)" ||
    bad "network click" "$(cap net | sed -n 13,26p)"
keys net L
wait_for net "Communication" && ok "L again: Communication is back" || bad "network off" "$(cap net | sed -n 13p)"
keys net q
exited net && ok "quit from the Network pane" || bad "network quit" "did not exit"
no_sanitizer_errors net
# 80x24 on 8 colours, zoomed, and 200x50: the HAEC board and torus plane whole.
start net8 80 24 xterm samples/lu-haec.json
keys net8 L z
must net8 "haec board 0/3"
settle net8
[ "$(cap net8 | grep -c '^│\[[0-9 .]\]-[0-9.]-')" -eq 4 ] && ! $T capture-pane -e -p -t net8 | grep -q '38;5;\|48;5;' &&
    ok "80x24 TERM=xterm zoomed: the 4x4 board whole, basic colours only" || bad "net 80x24" "$(cap net8 | sed -n 2,12p)"
start netw 200 50 xterm-256color $N
keys netw L
must netw "Network"
settle netw
[ "$(cap netw | grep -c '\[[0-9 ]\]-[0-9.]-')" -eq 4 ] && ok "200x50: the whole 4x4 plane in the pane" ||
    bad "net 200x50" "$(cap netw | sed -n 20,34p)"

# A tree: one row of uplinks per level; the first node's uplink as batch says.
start nett 100 30 xterm-256color samples/summit-like.json
keys nett L Right
must nett "% view"
settle nett
tu=$("$BIN" -e "scenario load samples/summit-like.json; set r [view link level 0 0]; list [dict get \$r messages] [dict get \$r reverse messages]")
cap nett | grep -q "^│nodes  " && cap nett | grep -qF "L1 sw" && cap nett | grep -qF "L0 group 0 up ${tu% *} msg  down ${tu#* }" &&
    ok "tree: uplinks per level; node 0's up ${tu% *} and down ${tu#* } as batch" || bad "tree" "want $tu: $(cap nett | sed -n 13,24p)"

