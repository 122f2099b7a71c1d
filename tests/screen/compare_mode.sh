# compare_mode.sh - sourced by run.sh (its helpers): compare mode at
# 80x24, both Grids and the Communication diff (check 27).

# 27. Compare mode at 80x24: `solve` in the workbench, back to the session's
# mapping, then V compares it with the solver's best: both Grids (titled),
# the status line, and Energy's total row with both energies and their
# difference as batch computes them. Then against a saved mapping file after
# an edit. The expected rows are formatted in batch as the pane does.
fmt_j='proc j {x} { if {$x == 0} { return "0 J" }; set pre {1e9 G 1e6 M 1e3 k 1 {} 1e-3 m 1e-6 u 1e-9 n 1e-12 p}; set a [expr {abs($x)}]; set i 0; while {$i < 14 && $a < [lindex $pre $i]} { incr i 2 }; if {$i > 0 && abs([format %.4g [expr {$x / [lindex $pre $i]}]]) >= 1000} { incr i -2 }; return "[format %.4g [expr {$x / [lindex $pre $i]}]] [lindex $pre [expr {$i + 1}]]J" }; proc d {x} { return [expr {$x > 0 ? "+" : ""}][j $x] }'
total_row() { cap "$1" | sed -n 's/.*││total *\([^│]*[^ │]\) *│.*/\1/p' | head -1 | tr -s ' '; }
start cm 80 24 xterm-256color $S
keys cm : "solve lb -order jik -speeds floor" Enter
must cm "placed 128"
keys cm : "map undo" Enter
must cm "% map undo"
keys cm V
must cm "% view compare toggle"
settle cm
want=$("$BIN" -e "$fmt_j; scenario load $S; set s [dict get [model eval] energy]; set sm [map list]
    solve lb -order jik -speeds floor; set o [dict get [model eval] energy]; set n 0
    foreach a \$sm b [map list] { incr n [expr {\$a ne \$b}] }
    return \"[j \$s] [j \$o] [d [expr {\$o - \$s}]]|\$n\"")
got=$(total_row cm)
[ -n "$got" ] && [ "$got" = "${want%|*}" ] && ok "V: Energy total, session vs solver's best: $got (batch)" ||
    bad "compare energy" "screen '$got' vs batch '${want%|*}'; $(cap cm | sed -n 11,20p)"
cap cm | grep -q "session: #0" && cap cm | grep -q "lb best: " && cap cm | grep -qF "Grid  k 0/3  ${want#*|} differ" &&
    ok "V: two Grids, each titled, ${want#*|} differing blocks counted" || bad "compare grids" "$(cap cm | sed -n 1,9p)"
cap cm | head -1 | grep -q "\[session vs lb best " && ok "V: the status line says what is compared" ||
    bad "compare status" "$(cap cm | head -1)"
cap cm | grep -q "deadline" && ok "V: Energy's deadline row at 80x24" || bad "compare deadline row" "$(cap cm | sed -n 11,20p)"
keys cm : "map save $WORK/cmp-file.json" Enter
must cm "% map save"
keys cm : "map set 0 gpu0" Enter
keys cm : "view compare $WORK/cmp-file.json" Enter
keys cm : "return COMPARED-FILE" Enter
must cm "COMPARED-FILE"
settle cm
want=$("$BIN" -e "$fmt_j; scenario load $S; set o [dict get [model eval] energy]; map set 0 gpu0
    set s [dict get [model eval] energy]; return \"[j \$s] [j \$o] [d [expr {\$o - \$s}]]\"")
got=$(total_row cm)
[ -n "$got" ] && [ "$got" = "$want" ] && ok "view compare FILE after an edit: $got (batch)" ||
    bad "compare file energy" "screen '$got' vs batch '$want'"
keys cm V
wait_for cm "[session]" && ok "V again leaves compare mode" || bad "compare off" "$(cap cm | head -1)"
keys cm q y
exited cm && ok "quit after comparing" || bad "compare quit" "did not exit"
no_sanitizer_errors cm
# Summit-like (16 block columns) has no room for two Grids at 80x24: the
# pane says so and shows one; zoomed, both.
start cs 80 24 xterm-256color samples/summit-like.json
keys cs : "solver start tabu -iters 50 -seed 1" Enter
must cs "SOLVER tabu it 0"
keys cs : "solver step 20" Enter
must cs "SOLVER tabu it 20"
keys cs V
must cs "% view compare toggle"
settle cs
cap cs | grep -q "no room for both grids: z zooms" && ! cap cs | grep -q "tabu best: " &&
    ok "compare at 80x24 on Summit-like: one Grid, and why" || bad "compare narrow" "$(cap cs | sed -n 1,9p)"
keys cs z
settle cs
# Following a solver, V compares the mapping shown (the solver's), not
# the session's (#37 item 5).
cap cs | grep -q "solver: #0" && cap cs | grep -q "tabu best: " &&
    ok "compare zoomed on Summit-like: both Grids" || bad "compare zoomed" "$(cap cs | sed -n 1,9p)"
# Communication compares too: every pair of either mapping with its
# messages in both and the change, largest change first; the pair counts
# are the ones each mapping shows alone.
keys cs z
keys cs : "view focus comm" Enter
keys cs z
must cs "pairs vs"
settle cs
cap cs > "$WORK/cmp-comm-cs.txt"
both=$(sed -n 's/.*Communication  \([0-9]*\) pairs vs \([0-9]*\),.*/\1 \2/p' "$WORK/cmp-comm-cs.txt" | head -1)
rows_ok=$(awk -F'│' 'NF > 2 { t = $2; gsub(/ +$/, "", t); n = split(t, f, " +");
    if (n < 5 || f[n-1] !~ /^[+-][0-9]+$/ || f[n] !~ /^(net|node)$/) next;
    mu = f[n-3]; o = f[n-2]; d = f[n-1] + 0; if (d != o - mu) bad++; a = d < 0 ? -d : d;
    if (seen && a > last) bad++; last = a; seen++ } END { print (seen > 3 && !bad) ? "ok" : "bad " seen " " bad }' "$WORK/cmp-comm-cs.txt")
keys cs V
# A second V leaves compare mode and keeps the solver view (#37 item 5).
must cs "[SOLVER tabu it 20]"
settle cs
alone=$(cap cs | sed -n 's/.*Communication  \([0-9]*\) pairs,.*/\1/p' | head -1)
keys cs : "solver apply" Enter : "return APPLIED" Enter
must cs "APPLIED"
settle cs
other=$(cap cs | sed -n 's/.*Communication  \([0-9]*\) pairs,.*/\1/p' | head -1)
[ -n "$both" ] && [ "$both" = "$alone $other" ] && [ "$rows_ok" = ok ] &&
    ok "compare: Communication lists both mappings' pairs ($both), diff = other - mu, largest change first" ||
    bad "compare comm" "'$both' vs '$alone $other', rows $rows_ok; $(sed -n 1,8p "$WORK/cmp-comm-cs.txt")"
keys cs q y
must_exit cs
no_sanitizer_errors cs

