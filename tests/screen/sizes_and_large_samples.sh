# sizes_and_large_samples.sh - sourced by run.sh (its helpers): what a new user met at
# 200x50, 80x24 and on the largest samples (#23 item 7), one check each.

# 33. w on a shipped sample offers a new file in the current directory,
# never the sample itself; on the user's own file it offers that file.
begin nu 100 30 xterm-256color samples/cuboid-cpu-gpu.json
keys nu w
must nu "save scenario"
prompt=$(cap nu | tail -1)
case "$prompt" in
*"as: cuboid-cpu-gpu.json"*) ok "w on a shipped sample offers cuboid-cpu-gpu.json here ($prompt)" ;;
*) bad "w on a sample" "offered: $prompt" ;;
esac
keys nu Escape
keys nu : "scenario save $WORK/mine.json" Enter
must nu "% scenario save"
keys nu Escape w
must nu "save scenario"
cap nu | tail -1 | grep -qF "as: $WORK/mine.json" && ok "w on the user's file offers that file" ||
    bad "w on own file" "$(cap nu | tail -1)"
keys nu Escape

# 34. A demo loads its scenario through scripts/..: the status line shows
# the path tidied (samples/...), not scripts/../samples/...
keys nu : "session replay scripts/demo-single-node.tcl -delay 0" Enter
must nu "the solver pane kept its history."
settle nu
line=$(cap nu | head -1)
case "$line" in
*" stencilmap  samples/cuboid-cpu-gpu.json "*) ok "demo: the status line shows samples/cuboid-cpu-gpu.json" ;;
*) bad "demo path" "$line" ;;
esac
keys nu q y
must_exit nu
no_sanitizer_errors nu

# 35. The HAEC heat map's legend maximum is the busiest physical link
# (model metrics' congestion; a node's wireless links were summed: "max
# 48" for a busiest link of 32), and idle links are drawn '.' everywhere,
# as the legend says (vertical idle links were '|').
begin hx 200 50 xterm-256color samples/haec.json
keys hx : "solve sfc -curve hilbert" Enter
must hx "% solve sfc"
keys hx Escape L
must hx "Network  haec"
settle hx
cong=$("$BIN" -e 'scenario load samples/haec.json; solve sfc -curve hilbert; dict get [model metrics] congestion')
legend=$(cap hx | grep -o "n/9 of max [0-9]* msg" | head -1)
[ -n "$cong" ] && [ "$legend" = "n/9 of max $cong msg" ] && ok "HAEC legend: max $cong messages, the congestion" ||
    bad "haec legend" "'$legend' vs congestion $cong"
plane=$(cap hx | sed -n '23,31p' | awk -F'│' '{print $2}')
if echo "$plane" | grep -aq '|'; then bad "idle glyphs" "a '|' in the plane: $plane"
elif echo "$plane" | grep -aq ' \. ' && cap hx | grep -qF ". idle link"; then ok "idle links drawn '.' as the legend says"
else bad "idle glyphs" "no idle link drawn '.': $plane"; fi
keys hx q y
must_exit hx
no_sanitizer_errors hx

# 36. The help overlay at 80x24 scrolls instead of losing rows, and its
# texts wrap instead of being cut: paging through it shows every key of
# the key table and every action's whole text (joined across its lines).
begin hp 80 24 xterm-256color samples/cuboid-cpu-gpu.json
keys hp '?'
must hp "Keys"
settle hp
: >"$WORK/help.txt"
page=0   # (settle uses i)
while [ $page -lt 5 ]; do
    # The overlay's own borders are each line's third and third-last
    # characters (a pane's border and one cell of it on either side).
    cap hp | sed -n '3,22p' | sed 's/^..│//; s/│..$//' >>"$WORK/help.txt"
    keys hp PgDn
    settle hp
    page=$((page + 1))
done
cap hp | grep -q "Keys" && ok "PgDn scrolls the help, it stays open" || bad "help scroll" "help closed: $(cap hp | head -3)"
flat=$(sed 's/^ *//; s/ *$//' "$WORK/help.txt" | tr '\n' ' ' | tr -s ' ')
missing=""
for k in $("$BIN" -e 'join [lsort -unique [lmap e [key list] {lindex $e 0}]] " "'); do
    echo "$flat" | grep -qF -- "$k" || missing="$missing $k"
done
cut=""
"$BIN" -e 'foreach e [key list] { puts [lindex $e 2] }' | sort -u >"$WORK/helps.txt"
while IFS= read -r h; do
    echo "$flat" | grep -qF -- "$h" || cut="$cut | $h"
done <"$WORK/helps.txt"
[ -z "$missing" ] && [ -z "$cut" ] && ok "help at 80x24: every key and every whole text, by scrolling" ||
    bad "help 80x24" "keys missing:$missing; texts cut:$cut"
keys hp q
keys hp q
must_exit hp
no_sanitizer_errors hp

# 37. The Processors pane's type column holds the whole type name
# (Fugaku-like's a64fx_cmg was cut to "a64fx").
begin ty 200 50 xterm-256color samples/fugaku-like.json
settle ty
cap ty | grep -q "n00.cmg0 a64fx_cmg " && ok "type column: a64fx_cmg whole" ||
    bad "type column" "$(cap ty | sed -n 3,5p)"
keys ty q
must_exit ty

# 38. TERM=xterm (8 colours): unfocused frames (and every other grey text
# on the terminal's background) are not drawn black on the default
# background, invisible on a dark terminal: they take the terminal's own
# foreground, dimmed.
begin ux8 100 30 xterm samples/cuboid-cpu-gpu.json
settle ux8
black=$($T capture-pane -e -p -t ux8 | grep -ac "$(printf '\033')\[30m$(printf '\033')\[49m")
frames=$($T capture-pane -e -p -t ux8 | grep -ac "$(printf '\033')\[0;2m$(printf '\033')\[39m$(printf '\033')\[49m[┌│└]")
[ "$black" = 0 ] && [ "$frames" -gt 0 ] && ok "TERM=xterm: unfocused frames in the terminal's colour, dimmed ($frames lines)" ||
    bad "xterm frames" "$black lines with black on the default background, $frames dim frame lines"
keys ux8 q
must_exit ux8

# 39. popta's Pareto table unzoomed at 200x50: every point's counts whole
# (they were cut to one character), and the time axis shows both ends
# without one label writing over the other, with a deadline too.
PF=samples/profiles-cpu-gpu.json
begin pt 200 50 xterm-256color $PF
keys pt : "model configure -deadline 3.3e-3; solver start popta -objective pareto; solver run" Enter
must pt "popta optimal"
settle pt
want=$("$BIN" -e "scenario load $PF; set r [solve popta -objective pareto]; join [lmap p [dict get \$r front] {join [dict get \$p counts] ,}] { }")
missing=""
for c in $want; do cap pt | grep -qF " $c" || missing="$missing $c"; done
ends=$("$BIN" -e "scenario load $PF; set r [solve popta -objective pareto]; set f [dict get \$r front]; format {%.3g %.3g} [expr {[dict get [lindex \$f 0] profile_time] * 1e3}] [expr {[dict get [lindex \$f end] profile_time] * 1e3}]")
axis=$(cap pt | grep -o "[0-9.]* ms  *[0-9.]* ms *│" | tail -1)
[ -n "$want" ] && [ -z "$missing" ] && ok "Pareto table: every point's counts whole ($want)" || bad "pareto counts" "missing:$missing; $(cap pt | sed -n 24,30p)"
case "$axis" in
"${ends%% *} ms"*"${ends##* } ms"*) ok "Pareto plot: both time labels ($axis)" ;;
*) bad "pareto axis" "'$axis' vs ends $ends" ;;
esac
keys pt q y
must_exit pt

# 40. Compare mode at 80x24 on Summit-like (long processor names): the
# Communication rows can be told apart (no two alike) and show the
# change; every difference in Energy keeps its unit.
begin cq 80 24 xterm-256color samples/summit-like.json
keys cq : "solve lb -order jik" Enter
must cq "solver lb status done"
keys cq : "map undo" Enter
must cq "% map undo"
keys cq V
must cq "vs lb best"
settle cq
rows=$(cap cq | sed -n '12,16p' | awk -F'│' '{print $2}' | sed 's/ *[+-][0-9]* *$//')
n=$(echo "$rows" | grep -c .)
u=$(echo "$rows" | sort -u | grep -c .)
# Names cut to 12 columns read alike for many pairs, and one cut name
# reads as a single processor: each row names its pair by the
# processors' indices (as commands take them), under "pair (#)", or by
# both names elided alike.
ids=$(echo "$rows" | grep -cE '^[0-9]+-[0-9]+( |$)|^[^ ]+-[^ ]+$')
hd=$(cap cq | sed -n 11p | awk -F'│' '{print $2}')
case "$rows" in [0-9]*) case "$hd" in "pair (#)"*) ;; *) ids=0 ;; esac ;; esac
[ "$n" -ge 4 ] && [ "$n" = "$u" ] && [ "$ids" = "$n" ] && ok "compare 80x24: $n Communication rows, each naming its pair ($hd)" ||
    bad "compare pairs" "$n rows, $u distinct, header '$hd': $rows"
diffs=$(cap cq | sed -n '11,17p' | sed -n 's/.*││[a-z]* *[^ ]* [a-zA-Z]*J *[^ ]* [a-zA-Z]*J *\([^│]*[^ │]\) *│.*/\1/p')
badd=$(echo "$diffs" | grep -v '^[+-]\{0,1\}[0-9.e+-]* [munpkMG]\{0,1\}J$' | grep -c .)
[ -n "$diffs" ] && [ "$badd" = 0 ] && ok "compare 80x24: every energy difference has its unit" ||
    bad "compare units" "$(echo "$diffs" | tr '\n' '|')"
keys cq q y
must_exit cq

# 41. Compare mode at 200x50: Communication's title is whole (it was cut
# in the middle of the other mapping's name), in its longest form that fits.
begin ct 200 50 xterm-256color samples/cuboid-cpu-gpu.json
keys ct : "solve lb -order jik" Enter
must ct "% solve lb"
keys ct : "map undo" Enter
must ct "% map undo"
keys ct V
must ct "vs lb best"
settle ct
title=$(cap ct | grep -o "Communication  [^─]*" | head -1 | sed 's/ *$//')
case "$title" in
*" rounds"|*" rounds vs "[0-9]*" ("*")") ok "compare: Communication's title whole ($title)" ;;
*) bad "compare comm title" "'$title'" ;;
esac
keys ct q y
must_exit ct

# 42. The Network pane's legend at 80x24 keeps the idle mark it explains
# (it was cut after the ramp's seventh digit, before ". idle link").
begin nl 80 24 xterm-256color samples/summit-like.json
keys nl L
must nl "Network  tree"
settle nl
legend=$(cap nl | grep "Network  tree" -A1 | tail -1 | awk -F'│' '{print $2}')
case "$legend" in
*"max "*" msg"*".idle"*|*"max "*" msg"*". idle link"*) ok "80x24 Network legend whole: $legend" ;;
*) bad "network legend 80x24" "'$legend'" ;;
esac
keys nl q
must_exit nl
