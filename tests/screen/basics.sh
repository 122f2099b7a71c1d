# basics.sh - sourced by run.sh (its helpers): the first screen, keys,
# a move typed at the console, undo/redo, help, screen dump, themes,
# stepping tabu, quit, C-c, resize, 8 colours, mouse, record and replay
# (checks 1-14).

# 1. The first screen, at 100x30 and at the 80x24 minimum.
start first 100 30 xterm-256color $S
golden first workbench-start-100x30.txt
start small 80 24 xterm-256color samples/cuboid-2cpu-2gpu.json
golden small workbench-start-80x24.txt

# 2. Keys: cursor, selection, move through the prompt; each echoed as Tcl.
keys first l l j x
keys first m
wait_for first "to processor:" && ok "m asks for a processor" || bad "m prompt" "no prompt"
keys first C-u g p u Tab Enter
wait_for first "map move gpu0 10" && ok "m echoes map move gpu0 10" || bad "move echo" "$(cap first | tail -6)"
golden first workbench-after-move-100x30.txt

# 3. A move typed at the console changes the on-screen energy to batch's value.
keys first : "map set 5 gpu0" Enter
must first "% map set 5 gpu0"
settle first
e_screen=$(screen_energy first)
e_batch=$("$BIN" -e "scenario load $S; map move gpu0 10; map set 5 gpu0; format %.6g [dict get [model eval] energy]" 2>/dev/null)
if [ -n "$e_screen" ] && [ "$e_screen" = "$e_batch" ]; then ok "console move: screen energy $e_screen J = batch"
else bad "console move energy" "screen '$e_screen' vs batch '$e_batch'"; fi

# 4. Undo and redo are keys too; undo restores the energy before the move.
keys first u
must first "% map undo"
settle first
e_undo=$(screen_energy first)
e_before=$("$BIN" -e "scenario load $S; map move gpu0 10; format %.6g [dict get [model eval] energy]")
[ "$e_undo" = "$e_before" ] && ok "u: energy back to $e_undo J" || bad "undo energy" "'$e_undo' vs '$e_before'"
keys first C-r
wait_for first "% map redo" && ok "C-r redoes" || bad "redo" "no map redo in the log"

# 5. Help lists every key of the key table (paging through it: it
# scrolls when it does not fit).
keys first ?
must first "Keys"
settle first
: >"$WORK/help-first.txt"
for page in 1 2 3 4 5; do
    cap first >>"$WORK/help-first.txt"
    keys first PgDn
    settle first
done
missing=""
for k in $("$BIN" -e 'join [lsort -unique [lmap e [key list] {lindex $e 0}]] " "'); do
    grep -qF -- "$k" "$WORK/help-first.txt" || missing="$missing $k"
done
[ -z "$missing" ] && ok "help shows every key" || bad "help" "keys missing:$missing"
keys first Escape
settle first

# 6. Screen dump writes what the terminal shows (above the console, which
# gains the command's own echo after the dump).
keys first : "screen dump $WORK/dump.txt" Enter
settle first
cap first >"$WORK/cap.txt"
if [ -f "$WORK/dump.txt" ] && [ "$(head -n 23 "$WORK/dump.txt" | sed 's/ *$//')" = "$(head -n 23 "$WORK/cap.txt" | sed 's/ *$//')" ]; then
    ok "screen dump matches the terminal"
else
    bad "screen dump" "$(diff "$WORK/dump.txt" "$WORK/cap.txt" | head -10)"
fi

# 7. Themes: load one by name; the status line says which.
keys first : "theme load colorblind" Enter
wait_for first "theme colorblind" && ok "theme load colorblind" || bad "theme" "status line unchanged"

# 8. Stepping tabu: n once, N ten times; the pane shows batch's best.
keys first : "solver start tabu -iters 100 -seed 3" Enter
must first "SOLVER tabu it 0"
keys first n N
wait_for first "it 11" && ok "n and N step tabu to iteration 11" || bad "step" "$(cap first | grep -F 'it ')"
best_batch=$("$BIN" -e "scenario load $S; map move gpu0 10; map set 5 gpu0; solver start tabu -iters 100 -seed 3; solver step 11; format %.4g [dict get [solver state] best energy]")
cap first | grep -qF "best $best_batch J" && ok "tabu best on screen = batch ($best_batch J)" || bad "tabu best" "want best $best_batch J: $(cap first | grep -F best)"

# 9. Quit with unsaved changes asks; n stays, q y leaves with status 0.
keys first q
wait_for first "Unsaved: mapping." && ok "q asks about unsaved changes, naming them" || bad "quit prompt" "no question"
keys first n
wait_for first "quit cancelled" && ok "any other key stays" || bad "quit cancel" "not cancelled"
keys first q y
exited first && ok "q y quits with status 0" || bad "quit" "did not exit 0"
no_sanitizer_errors first

# 10. C-c does not kill the workbench (it only interrupts long work);
# quit without changes does not ask.
start clean 90 28 xterm-256color $S
keys clean C-c
alive clean "after-C-c" && [ ! -f "$WORK/clean.exit" ] && ok "C-c leaves the workbench running" ||
    bad "C-c" "the workbench ended"
keys clean q
exited clean && ok "q quits at once when nothing changed" || bad "clean quit" "still running"

# 11. Resize: down to 80x24 (same screen as a fresh 80x24 start), below
# it (a message), and back up.
start rs 100 30 xterm-256color samples/cuboid-2cpu-2gpu.json
$T resize-window -t rs -x 80 -y 24
settle rs
golden rs workbench-start-80x24.txt
$T resize-window -t rs -x 60 -y 20
wait_for rs "needs at least 80x24" && ok "below 80x24 says so" || bad "too small" "$(cap rs | head -3)"
$T resize-window -t rs -x 120 -y 40
wait_for rs "Energy" && ok "grows back after a small size" || bad "regrow" "no panes"
keys rs q
exited rs && ok "quit after resizing" || bad "resize quit" "did not exit"
no_sanitizer_errors rs

# 12. 8 colours (TERM=xterm): 16+ processors keep distinct marks (node
# colour, bold, glyph), and no
# 256-colour escapes reach the terminal.
start x8 100 30 xterm samples/summit-like.json
distinct=$(distinct_marks x8)
[ "$distinct" -ge 16 ] && ok "TERM=xterm: $distinct processors told apart by colour and glyph" || bad "8-colour marks" "only $distinct"
if $T capture-pane -e -p -t x8 | grep -q '38;5;\|48;5;'; then bad "TERM=xterm colours" "256-colour escapes on an 8-colour terminal"
else ok "TERM=xterm: basic colours only"; fi
start x256 100 30 xterm-256color samples/summit-like.json
$T capture-pane -e -p -t x256 | grep -q '48;5;' && ok "TERM=xterm-256color: palette colours" || bad "256 colours" "no palette escapes"
# NO_COLOR (no-color.org): the same terminal, no colour at all; the
# processors still told apart (bold, reverse, glyphs).
start nc 100 30 "xterm-256color NO_COLOR=1" samples/summit-like.json
if $T capture-pane -e -p -t nc | grep -q '\[3[0-7]m\|\[4[0-7]m\|38;5;\|48;5;\|[34]8;2;'; then
    bad "NO_COLOR" "colour escapes reach the terminal"
else
    # Marks by (bold, underline, reverse, glyph) in the Grid's block rows.
    distinct=$($T capture-pane -e -p -t nc | sed -n '4,12p' | awk -F'│' '{print $2}' | awk '
    { s = $0
      while (length(s) > 0) {
        if (match(s, /^\033\[[0-9;]*m/)) {
          n = split(substr(s, 3, RLENGTH - 3), a, ";")
          for (i = 1; i <= n; i++) {
            v = a[i] + 0
            if (a[i] == "" || v == 0) { b = 0; u = 0; r = 0 }
            else if (v == 1) b = 1
            else if (v == 4) u = 1
            else if (v == 7) r = 1
          }
          s = substr(s, RLENGTH + 1)
        } else {
          c = substr(s, 1, 1)
          if (c ~ /[0-9A-Za-z]/) seen[b u r c] = 1
          s = substr(s, 2)
        }
      }
    }
    END { k = 0; for (m in seen) k++; print k }')
    [ "$distinct" -ge 8 ] && ok "NO_COLOR=1: no colour, $distinct processors told apart by style and glyph" ||
        bad "NO_COLOR marks" "only $distinct distinct"
fi

# 13. Mouse: a click on a block moves the cursor there and selects it.
start ms 100 30 xterm-256color $S
$T send-keys -t ms -l "$(printf '\033[<0;12;5M\033[<0;12;5m')"
wait_for ms "view select toggle" && ok "click selects a block" || bad "mouse" "$(cap ms | tail -5)"

# 14. Record in the workbench, replay in batch: same mapping.
start rec 100 30 xterm-256color $S
keys rec : "session record $WORK/rec.tcl" Enter
keys rec l x m C-u c p u 0 Enter
must rec "map move cpu0"
keys rec : "map save $WORK/rec-map.json" Enter
must rec "% map save"
keys rec : "session stop" Enter
settle rec
if "$BIN" -e "scenario load $S; session replay $WORK/rec.tcl -delay 0; map save $WORK/replayed.json" >/dev/null 2>&1 &&
   cmp -s "$WORK/rec-map.json" "$WORK/replayed.json"; then
    ok "a recorded workbench session replays to the same mapping"
else
    bad "record/replay" "$(cat "$WORK/rec.tcl" 2>/dev/null | head)"
fi

