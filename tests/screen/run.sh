#!/bin/sh
# run.sh - screen tests: drive the workbench through tmux (start it, send
# keys, capture the pane) and compare with golden screens in golden/.
# UPDATE_GOLDEN=1 rewrites the golden files from this run (review the diff).
# Ends with "screen: N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
BIN=${STENCILMAP_BIN:-$top/build/san/stencilmap}
[ -x "$BIN" ] || BIN=$top/stencilmap
GOLD=tests/screen/golden
WORK=$(mktemp -d)
SOCK="sm-screen-$$"
export LC_ALL=C.UTF-8
# Journals of these runs stay in WORK, never in the user's state directory.
export XDG_STATE_HOME="$WORK/xdg-state"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
T="tmux -L $SOCK -f /dev/null"
pass=0
fail=0
trap '$T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT

if ! command -v tmux >/dev/null 2>&1; then
    echo "screen tests need tmux (apt-get install tmux)"
    echo "screen: 0 passed, 1 failed"
    exit 1
fi

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }

# start NAME COLS ROWS TERM ARGS...: the program in a fresh session; its
# exit status lands in $WORK/NAME.exit and stderr in $WORK/NAME.err.
start() {
    name=$1 cols=$2 rows=$3 term=$4
    shift 4
    $T kill-session -t "$name" 2>/dev/null
    $T new-session -d -s "$name" -x "$cols" -y "$rows" \
        "cd '$top' && TERM=$term '$BIN' $* 2>'$WORK/$name.err'; echo \$? >'$WORK/$name.exit'; sleep 30"
    must "$name" "Console"
}
# begin NAME ...: start, then keep this session when a workbench an
# earlier test ended (a session of the same name replaced) left its
# journal and the start offers it.
begin() {
    start "$@"
    if cap "$1" | grep -q "Recover it?"; then
        keys "$1" n
        d=$(deadline)
        while before "$d" && cap "$1" | grep -q "Recover it?"; do sleep 0.1; done
    fi
}
cap() { $T capture-pane -p -t "$1"; }
keys() { n=$1; shift; $T send-keys -t "$n" "$@"; }
# Deadlines are wall-clock seconds, not counts of polls: on a loaded
# machine (another check running on the same two cores) every capture and
# every step of the sanitized program is slower, and a count of 50 polls
# ran out long before the program was late. A wait returns as soon as its
# condition holds, so a passing run costs no more; only a wait that is
# going to fail takes the whole deadline. SCREEN_WAIT overrides (seconds).
WAIT=${SCREEN_WAIT:-30}
# deadline [SECONDS]: the wall-clock second a wait of SECONDS (WAIT) ends.
deadline() { echo $(( $(date +%s) + ${1:-$WAIT} )); }
before() { [ "$(date +%s)" -le "$1" ]; }
# wait_for NAME TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
    d=$(deadline "$3")
    while before "$d"; do
        cap "$1" 2>/dev/null | grep -qF -- "$2" && { sleep 0.1; return 0; }
        sleep 0.1
    done
    return 1
}
# settle NAME: until two captures 0.15 s apart agree; a screen still
# changing when the deadline passes fails the run.
settle() {
    prev=""
    d=$(deadline)
    while before "$d"; do
        cur=$(cap "$1")
        [ "$cur" = "$prev" ] && return 0
        prev=$cur
        sleep 0.15
    done
    bad "settle $1" "the screen was still changing after $WAIT s"
    return 1
}
# must NAME TEXT: a wait that fails the run when TEXT never shows (the
# steps after it would only fail for a reason they do not name).
must() {
    wait_for "$1" "$2" && return 0
    bad "wait $1" "never showed '$2': $(cap "$1" 2>/dev/null | tail -4)"
    return 1
}
# alive NAME MARK: the workbench read and ran every key sent before, and
# runs on: the result of a console line shows (a positive condition, not
# a pause after which nothing is seen to have happened). Leaves the
# console closed.
alive() {
    # The result is MARK upper-cased: the typed line itself never shows it.
    keys "$1" : "string toupper $2" Enter
    wait_for "$1" "$(echo "$2" | tr a-z A-Z)" || return 1
    keys "$1" Escape
    return 0
}
# golden NAME FILE: compare the screen with golden/FILE.
golden() {
    settle "$1"
    cap "$1" >"$WORK/$2"
    if [ -n "$UPDATE_GOLDEN" ]; then
        cp "$WORK/$2" "$GOLD/$2"
        ok "$2 (golden updated)"
    elif diff -u "$GOLD/$2" "$WORK/$2" >"$WORK/$2.diff"; then
        ok "$2"
    else
        bad "$2" "screen differs from $GOLD/$2:"
        cat "$WORK/$2.diff"
    fi
}
ended() { # ended NAME: the program ended before the deadline (any status)
    d=$(deadline)
    while before "$d"; do
        [ -f "$WORK/$1.exit" ] && return 0
        sleep 0.1
    done
    return 1
}
exited() { # exited NAME: the program ended, with status 0
    ended "$1" && [ "$(cat "$WORK/$1.exit")" = 0 ]
}
must_end() { # must_end NAME: ended, or the run fails
    ended "$1" && return 0
    bad "end $1" "still running after $WAIT s: $(cap "$1" 2>/dev/null | tail -3)"
    return 1
}
must_exit() { # must_exit NAME: ended with status 0, or the run fails
    exited "$1" && return 0
    bad "exit $1" "status '$(cat "$WORK/$1.exit" 2>/dev/null)': $(cap "$1" 2>/dev/null | tail -3)"
    return 1
}
no_sanitizer_errors() {
    if grep -q "ERROR: AddressSanitizer\|runtime error" "$WORK/$1.err" 2>/dev/null; then
        bad "$1 sanitizers" "$(head -20 "$WORK/$1.err")"
    else
        ok "$1 ran clean under ASan/UBSan"
    fi
}
# distinct_marks NAME: how many (background, bold, glyph) marks the Grid's
# block rows show, read from the escapes of the captured screen.
distinct_marks() {
    $T capture-pane -e -p -t "$1" | sed -n '4,12p' | awk -F'│' '{print $2}' | awk '
    { s = $0
      while (length(s) > 0) {
        if (match(s, /^\033\[[0-9;]*m/)) {
          n = split(substr(s, 3, RLENGTH - 3), a, ";")
          for (i = 1; i <= n; i++) {
            v = a[i] + 0
            if (a[i] == "" || v == 0) { bg = ""; bold = 0 }
            else if (v == 1) bold = 1
            else if (v == 22) bold = 0
            else if (v >= 40 && v <= 47) bg = v
            else if (v == 49) bg = ""
            else if (v == 48) { bg = "5;" a[i + 2]; i += 2 }
            else if (v == 38) i += 2
          }
          s = substr(s, RLENGTH + 1)
        } else {
          c = substr(s, 1, 1)
          if (c ~ /[0-9A-Za-z]/ && bg != "") seen[bg "/" bold "/" c] = 1
          s = substr(s, 2)
        }
      }
    }
    END { k = 0; for (m in seen) k++; print k }'
}
# The number after "total" in the Energy pane.
screen_energy() { cap "$1" | sed -n 's/.*total \([0-9.eE+-]*\) J.*/\1/p' | head -1; }

S=samples/cuboid-cpu-gpu.json

# 1. The first screen, at 100x30 and at the 80x24 minimum.
start first 100 30 xterm-256color $S
golden first start-100x30.txt
start small 80 24 xterm-256color samples/cuboid-2cpu-2gpu.json
golden small start-80x24.txt

# 2. Keys: cursor, selection, move through the prompt; each echoed as Tcl.
keys first l l j x
keys first m
wait_for first "to processor:" && ok "m asks for a processor" || bad "m prompt" "no prompt"
keys first C-u g p u Tab Enter
wait_for first "map move gpu0 10" && ok "m echoes map move gpu0 10" || bad "move echo" "$(cap first | tail -6)"
golden first after-move-100x30.txt

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
golden rs start-80x24.txt
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

# 18. Pareto mode: popta's front in the zoomed Solver pane (plot with the
# deadline as a line, table of points); a click on a row applies it.
start pf 120 40 xterm-256color samples/profiles-cpu-gpu.json
keys pf : "model configure -deadline 0.0034" Enter
keys pf : "solver start popta -objective pareto" Enter
keys pf : "solver run" Enter : "return RAN-PF" Enter
must pf "RAN-PF"
keys pf : "view focus solver" Enter
keys pf : "view zoom on" Enter
wait_for pf "energy     counts" && ok "Pareto mode: the table of front points" || bad "pareto table" "$(cap pf | head -12)"
cap pf >"$WORK/pf.txt"
grep -q ' 0 3.172 ms *344.9 mJ *12,12,104' "$WORK/pf.txt" && grep -q ' 2 3.588 ms *246 mJ *0,8,120' "$WORK/pf.txt" &&
    grep -q 'deadline' "$WORK/pf.txt" && [ "$(grep -c '|' "$WORK/pf.txt")" -ge 20 ] &&
    ok "Pareto mode: fastest first, the deadline as a line" || bad "pareto plot" "$(head -32 "$WORK/pf.txt")"
row=$(grep -n ' 1 3.218 ms' "$WORK/pf.txt" | cut -d: -f1)
col=$(grep ' 1 3.218 ms' "$WORK/pf.txt" | awk '{print index($0, " 1 3.218")}')
$T send-keys -t pf -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $((col + 3)) "$row" $((col + 3)) "$row")"
wait_for pf "% map counts {4 12 112}" && ok "a click on a front point applies it (map counts)" ||
    bad "pareto click" "$(cap pf | tail -6)"
wait_for pf "@" && ok "the applied point is marked" || bad "pareto mark" "$(cap pf | head -30)"
keys pf : "solve popta -objective time" Enter
wait_for pf "128 blocks" && cap pf | grep -q '2222' && ok "profile plot for a single objective" ||
    bad "profile plot" "$(cap pf | head -30)"
# HTPOPTA: the total-energy front beside the dynamic one (two curves, a
# legend with both ranges), the chosen point marked on both, the table of
# the total front (P_S = 90 + 90 + 74 W).
keys pf : "solver start popta -objective total" Enter
keys pf : "solver run" Enter
keys pf : "solver apply" Enter
wait_for pf "dynamic    total" && cap pf >"$WORK/pt.txt" &&
    grep -q '\* dynamic 246 mJ..344.9 mJ  + total 1.105 J..1.151 J' "$WORK/pt.txt" &&
    grep -q ' 1 3.218 ms *287.6 mJ *1.105 J *4,12,112' "$WORK/pt.txt" &&
    [ "$(grep -c '@' "$WORK/pt.txt")" -ge 2 ] &&
    ok "total: dynamic and total fronts, the chosen point on both" || bad "total fronts" "$(head -32 "$WORK/pt.txt")"
no_sanitizer_errors pf

# 15. Data never becomes code: processor, theme and path names built to run
# `touch` if pasted into Tcl. Every key of the key table, in every pane,
# followed by Enter (answering any prompt with its default) and Esc. Nothing
# may be created, and the workbench must still quit normally.
H=$WORK/hostile
HD="$H/d} [exec touch pwned_path] {"
mkdir -p "$HD" "$H/themes"
mkdir -p "$HD/topologies"
sed -e 's/"cpu0"/"[exec touch pwned_p1]"/' -e 's/"gpu0"/"x} [exec touch pwned_p2] {"/' \
    samples/topologies/cpu-gpu.json >"$HD/topologies/cpu-gpu.json"
grep -v '"mapping"' samples/cuboid-cpu-gpu.json >"$HD/s.json"
sed 's/"name": *"[^"]*"/"name": "[exec touch pwned_t]"/' themes/light.json >"$H/themes/[exec touch pwned_t].json"
printf '#!/bin/sh\ncd "$1" && STENCILMAP_THEMES="$1/themes" TERM=xterm-256color exec "$2" "$3"\n' >"$H/run.sh"
$T kill-session -t hk 2>/dev/null
$T new-session -d -s hk -x 120 -y 36 "sh '$H/run.sh' '$H' '$BIN' '$HD/s.json' 2>'$WORK/hk.err'; echo \$? >'$WORK/hk.exit'; sleep 30"
must hk "Console"
walk=$("$BIN" -e 'set r {}; foreach k [key list] { set n [lindex $k 0]; if {$n ni {q : Tab BTab C-c}} { lappend r $n } }; join $r " "')
for pane in 1 2 3 4 5 6; do
    for k in $walk; do
        case $k in
        C-?) tk=$k ;; PgUp) tk=PPage ;; PgDn) tk=NPage ;; Esc) tk=Escape ;; Space) tk=Space ;;
        Backspace) tk=BSpace ;; Delete) tk=DC ;; Insert) tk=IC ;; *) tk=$k ;;
        esac
        keys hk "$tk"
        sleep 0.02
        keys hk Enter
        sleep 0.02
        keys hk Escape
    done
    keys hk Tab
    settle hk
done
keys hk q
# q quits, or asks first when a key changed something: answer it once it
# is asked (not after a pause).
qd=$(deadline)
while before "$qd" && [ ! -f "$WORK/hk.exit" ] && ! cap hk | grep -q "Unsaved:"; do sleep 0.1; done
[ -f "$WORK/hk.exit" ] || keys hk y
must_end hk
made=$(find "$H" -name "pwned*")
if [ -z "$made" ] && [ "$(cat "$WORK/hk.exit" 2>/dev/null)" = 0 ]; then
    ok "every key in every pane with hostile names and paths: nothing ran"
else
    bad "hostile names" "created: $made; exit $(cat "$WORK/hk.exit" 2>/dev/null); $(tail -3 "$WORK/hk.err" 2>/dev/null)"
fi

# 15b. Tab in the Console inserts a name as one Tcl word: the processor
# named "x} [exec touch pwned_p2] {" completes quoted, and Enter puts
# block 0 on it; nothing runs.
$T kill-session -t tq 2>/dev/null
$T new-session -d -s tq -x 120 -y 36 "sh '$H/run.sh' '$H' '$BIN' '$HD/s.json' 2>'$WORK/tq.err'; echo \$? >'$WORK/tq.exit'; sleep 30"
must tq "Console"
keys tq : "map set 0 x" Tab
must tq 'map set 0 x\}\ \[exec\ touch\ pwned_p2\]\ \{'
keys tq Enter
keys tq : 'return "B0=[map get 0]="' Enter
wait_for tq "B0=x} [exec touch pwned_p2] {=" && [ -z "$(find "$H" -name 'pwned*')" ] &&
    ok "Tab completes a hostile processor name as one Tcl word; nothing ran" ||
    bad "tab quoting" "$(cap tq | tail -5); $(find "$H" -name 'pwned*')"
keys tq q y
must_exit tq

# 16. No lost edit: journals as swap files. Edits by key and console, then
# kill -9: `session recover` restores mapping and model exactly, and a
# script that ends without saving leaves the journal (the only copy of
# that work) where it was. SIGTERM ends the workbench with status 143 and
# keeps the journal; the next workbench on the same scenario offers it,
# one on another scenario does not; keys typed before or into the question
# never answer it; a running workbench's journal is never removed; a
# workbench that stops with nothing unsaved leaves nothing to offer; D
# discards; saving the recovered work and a clean quit leave no journal.
ST=$WORK/state
jstart() { # jstart NAME ?SCENARIO?: the workbench, journal in $ST
    $T kill-session -t "$1" 2>/dev/null
    rm -f "$WORK/$1.exit"
    $T new-session -d -s "$1" -x 120 -y 36 \
        "cd '$top' && XDG_STATE_HOME='$ST' TERM=xterm-256color '$BIN' $2 2>'$WORK/$1.err'; echo \$? >'$WORK/$1.exit'; sleep 30"
    must "$1" "Console"
}
# jpid NAME: the program's pid in tmux session NAME.
jpid() { pgrep -P "$($T list-panes -t "$1" -F '#{pane_pid}')" -f "$BIN" | head -1; }
journals() { ls "$ST"/stencilmap/*.journal 2>/dev/null; }
jstart j1
keys j1 : "map set 0 {cpu0}" Enter
keys j1 : "model configure -deadline 4e-3" Enter
keys j1 l l x m C-u gpu0 Enter
must j1 "map move gpu0"
keys j1 : "map save $WORK/j-expected.json" Enter
must j1 "% map save"
settle j1
kill -9 "$(jpid j1)" 2>/dev/null
must_end j1
out=$(XDG_STATE_HOME=$ST "$BIN" -e "session recover; map save $WORK/j-recovered.json; dict get [model configure] -deadline" 2>&1)
if cmp -s "$WORK/j-expected.json" "$WORK/j-recovered.json" && [ "$out" = 0.004 ]; then
    ok "kill -9: session recover restores every edit (mapping and model)"
else
    bad "journal after kill -9" "$out"
fi
listed=$(XDG_STATE_HOME=$ST "$BIN" -e 'join [lmap j [session journals] {list [dict get $j live] [dict get $j unsaved]}] ,' 2>&1)
[ "$(journals | wc -l)" = 1 ] && [ "$listed" = "0 model" ] &&
    ok "a script that recovers and ends without saving leaves the journal (listed: stopped, model unsaved)" ||
    bad "recover in a script" "$(journals) / '$listed'"
XDG_STATE_HOME=$ST "$BIN" -e "session discard $(journals)" >/dev/null 2>&1
[ -z "$(journals)" ] && ok "session discard removes a stopped workbench's journal" || bad "discard" "$(journals)"
jstart j2
keys j2 : "map set 5 gpu0" Enter
keys j2 : "map save $WORK/j2-expected.json" Enter
must j2 "% map save"
keys j2 : "model configure -deadline 5e-3" Enter
must j2 "% model configure"
kill -TERM "$(jpid j2)" 2>/dev/null
must_end j2
[ "$(cat "$WORK/j2.exit" 2>/dev/null)" = 143 ] && [ -n "$(journals)" ] && grep -q "unsaved work is journaled" "$WORK/j2.err" &&
    ok "SIGTERM: status 143, journal kept" || bad "SIGTERM" "exit $(cat "$WORK/j2.exit" 2>/dev/null): $(cat "$WORK/j2.err")"
j2file=$(journals)
# Another scenario's workbench is not offered it (and runs on, clean).
jstart jo samples/cuboid-cpu-gpu.json
# The question comes before any key is read: a console line that runs
# shows no question was asked.
alive jo "jo-reads-keys" && ! cap jo | grep -q "Recover it?" &&
    ok "a workbench on another scenario is not offered the journal" ||
    bad "offer on another scenario" "$(cap jo | tail -1)"
# The same scenario's is, and keys typed at once (before the question, then
# into it) answer nothing.
$T kill-session -t j3 2>/dev/null
rm -f "$WORK/j3.exit"
$T new-session -d -s j3 -x 120 -y 36 \
    "cd '$top' && XDG_STATE_HOME='$ST' TERM=xterm-256color '$BIN' 2>'$WORK/j3.err'; echo \$? >'$WORK/j3.exit'; sleep 30"
keys j3 : "map set 0 p3" Enter
must j3 "Recover it?" && ok "the next workbench on the scenario offers the stopped one's work"
keys j3 : "map set 0 p3" Enter
sleep 0.5
cap j3 | grep -q "Recover it?" && ! cap j3 | grep -q "% map" && ok "keys typed before and into the question never answer it" ||
    bad "typed keys answered" "$(cap j3 | tail -6)"
keys j3 y
must j3 "session recover"
keys j3 : "map save $WORK/j3-recovered.json" Enter
must j3 "% map save"
keys j3 : 'return "DL=[dict get [model configure] -deadline]"' Enter
cmp -s "$WORK/j2-expected.json" "$WORK/j3-recovered.json" && wait_for j3 "DL=0.005" && ok "y recovers it (mapping and model)" ||
    bad "recover by y" "$(cap j3 | tail -4)"
# j3 runs on in the recovered journal: nothing removes it.
XDG_STATE_HOME=$ST "$BIN" -e "session discard $j2file" >/dev/null 2>&1
[ -f "$j2file" ] && ok "a running workbench's journal is never removed (session discard refuses)" || bad "live journal" "removed"
keys j3 : "scenario save $WORK/j3-saved.json" Enter
must j3 "% scenario save"
keys j3 q
must_exit j3
[ ! -f "$j2file" ] && ok "the recovered work saved, the journal goes" || bad "recovered journal" "$(journals)"
keys jo q
must_exit jo
[ -z "$(journals)" ] && ok "a clean quit leaves no journal" || bad "journal cleanup" "$(journals)"
# Nothing unsaved: nothing offered (and the stopped one's journal goes).
jstart j5
kill -9 "$(jpid j5)" 2>/dev/null
must_end j5
jstart j6
alive j6 "j6-reads-keys" && [ "$(journals | wc -l)" = 1 ] && ! cap j6 | grep -q "Recover it?" &&
    ok "a workbench killed with nothing unsaved leaves nothing to offer" || bad "clean kill" "$(journals); $(cap j6 | tail -1)"
# D discards: the work is gone, the session is the scenario as loaded.
keys j6 : "map set 0 gpu0" Enter
must j6 "% map set 0 gpu0"
kill -9 "$(jpid j6)" 2>/dev/null
must_end j6
# (at 80x24: the answers are on the screen)
$T kill-session -t j7 2>/dev/null
rm -f "$WORK/j7.exit"
$T new-session -d -s j7 -x 80 -y 24 \
    "cd '$top' && XDG_STATE_HOME='$ST' TERM=xterm-256color '$BIN' 2>'$WORK/j7.err'; echo \$? >'$WORK/j7.exit'; sleep 30"
must j7 "Recover it?"
cap j7 | grep -q "Recover it? y yes  n later  D discard" && ok "80x24: the question shows its answers" ||
    bad "question at 80x24" "$(cap j7 | tail -1)"
sleep 0.4
keys j7 D
must j7 "% session discard"
keys j7 : 'return "B0=[map get 0]"' Enter
wait_for j7 "B0=cpu0" && [ "$(journals | wc -l)" = 1 ] && ok "D discards the stopped workbench's journal" ||
    bad "discard by D" "$(journals); $(cap j7 | tail -4)"
keys j7 q
must_exit j7

# 17. Unsaved work part by part. map save keeps the model's change unsaved
# (q still asks); scenario load over it asks (n keeps the work); the quit
# prompt's w saves everything, asks before overwriting a file not loaded
# here, and quits; the saved scenario holds every part.
"$BIN" -e "scenario load $S; scenario save $WORK/u-loaded.json" >/dev/null
echo '{}' >"$WORK/u-other.json"
start uw 120 36 xterm-256color "$WORK/u-loaded.json"
keys uw : "model configure -deadline 6e-3" Enter
keys uw : "map set 3 gpu0" Enter
keys uw : "map save $WORK/u-map.json" Enter
must uw "% map save"
keys uw q
wait_for uw "Unsaved: model." && ok "map save leaves the model unsaved: q still asks" || bad "dirty per part" "$(cap uw | tail -1)"
keys uw n
keys uw : "scenario load $S" Enter
wait_for uw "would be lost. scenario load anyway?" && ok "scenario load over unsaved work asks" || bad "load asks" "$(cap uw | tail -1)"
keys uw n
wait_for uw "cancelled, the unsaved changes are kept" && ok "n keeps the unsaved work" || bad "load cancel" "$(cap uw | tail -3)"
keys uw q w C-u "$WORK/u-other.json" Enter
wait_for uw "was not loaded here. Overwrite it?" && ok "saving over a file not loaded here asks" || bad "overwrite ask" "$(cap uw | tail -1)"
keys uw y
exited uw && ok "w saves everything and quits" || bad "save and quit" "$(cap uw | tail -3)"
got=$("$BIN" -e "scenario load $WORK/u-other.json; list [dict get [model configure] -deadline] [lindex [map list] 3]" 2>&1)
[ "$got" = "0.006 gpu0" ] && ok "the saved scenario holds model and mapping" || bad "saved parts" "$got"

# 18. The panes follow the solver: every pane shows its current mapping
# (status line says SOLVER, the Energy total is the solver's current
# energy as batch computes it); v switches all back to the session's.
start fol 100 30 xterm-256color $S
keys fol : "solver start tabu" Enter
must fol "SOLVER tabu it 0"
keys fol : "solver step 5" Enter
wait_for fol "[SOLVER tabu it 5]" && ok "the status line says the panes show the solver's mapping" ||
    bad "follow" "$(cap fol | head -2)"
settle fol
e_sol=$(screen_energy fol)
e_cur=$("$BIN" -e "scenario load $S; solver start tabu; solver step 5; format %.6g [dict get [solver state] current energy]")
[ -n "$e_sol" ] && [ "$e_sol" = "$e_cur" ] && ok "Energy shows the solver's current $e_sol J" ||
    bad "follow energy" "screen '$e_sol' vs solver's current '$e_cur'"
cap fol | grep -q "Energy  solver vs session" && cap fol | grep -q "total $e_sol J  -" &&
    ok "Energy pane is titled for the solver and compares with the session" || bad "follow energy title" "$(cap fol | sed -n 18,22p)"
keys fol Escape v
must fol "[session]"
settle fol
e_ses=$(screen_energy fol)
e_start=$("$BIN" -e "scenario load $S; format %.6g [dict get [model eval] energy]")
[ "$e_ses" = "$e_start" ] && ok "v: every pane back on the session ($e_ses J)" || bad "v" "'$e_ses' vs '$e_start'"

# 19. Console and keys: puts and puts stderr land in the Console (the
# screen stays whole); navigation keys are not logged; O reverses the
# sort; an empty / clears the filter; PgUp in the Console scrolls back.
start con 100 30 xterm-256color $S
keys con : "puts hello-from-puts; puts stderr oops-on-stderr" Enter
wait_for con "hello-from-puts" && cap con | grep -q "oops-on-stderr" && cap con | head -1 | grep -q "stencilmap" &&
    ok "puts and puts stderr go to the Console" || bad "puts" "$(cap con | tail -8)"
keys con l l j j
settle con
cap con | grep -q "% view cursor" && bad "navigation logged" "$(cap con | tail -6)" || ok "navigation keys are not logged"
keys con Tab O
wait_for con "% view procs -order desc" && wait_for con "sort index desc" && ok "O reverses the sort" ||
    bad "O" "$(cap con | sed -n 2,3p)"
keys con / g p u Enter
must con "% view procs -filter gpu"
keys con / C-u Enter
wait_for con "% view procs -filter {}" && ok "an empty / clears the filter" || bad "empty filter" "$(cap con | tail -5)"
[ "$("$BIN" -e 'view procs -filter gpu; view procs -filter {}; dict get [view procs] filter')" = "" ] &&
    ok "view procs -filter {} clears" || bad "filter clear" "batch"
keys con : "for {set i 0} {\$i < 40} {incr i} {puts line-\$i}" Enter
must con "line-39"
keys con Tab Tab Tab Tab
keys con PgUp
wait_for con "lines back" && ok "PgUp scrolls the Console back" || bad "console scroll" "$(cap con | tail -8)"
keys con PgDn PgDn PgDn
settle con
cap con | grep -q "line-39" && ok "PgDn comes back to the newest line" || bad "console PgDn" "$(cap con | tail -4)"

# 20. Long processor names that differ only at the end stay apart: the
# name column widens, and what does not fit is cut in the middle.
LN=$WORK/longnames
mkdir -p "$LN/topologies"
sed -e 's/"cpu0"/"rack12-chassis3-node0345-cpu0"/' -e 's/"gpu0"/"rack12-chassis3-node0345-gpu0"/' \
    samples/topologies/cpu-gpu.json >"$LN/topologies/cpu-gpu.json"
grep -v '"mapping"' samples/cuboid-cpu-gpu.json >"$LN/s.json"
start ln 100 30 xterm-256color "$LN/s.json"
settle ln
c1=$(cap ln | grep -c "rack12[^ ]*~[^ ]*-cpu0\|rack12-chassis3-node0345-cpu0")
c2=$(cap ln | grep -c "rack12[^ ]*~[^ ]*-gpu0\|rack12-chassis3-node0345-gpu0")
[ "$c1" -ge 1 ] && [ "$c2" -ge 1 ] && ok "long processor names are told apart (elided in the middle)" ||
    bad "long names" "$(cap ln | sed -n 2,6p)"

# 19. Communication pairs show whole processor names (elided in the middle
# only when the pane is narrow).
start cw 200 50 xterm-256color samples/summit-like.json
if cap cw | grep -qE 'n[0-9]{2}\.v100_[0-9]-n[0-9]{2}\.v100_[0-9] '; then ok "Communication: whole pair names"
else bad "pair names" "$(cap cw | grep -F 'Communication' -A3 | head -4)"; fi

# 20. The Console wraps a long result instead of cutting it.
start wr 80 24 xterm-256color $S
keys wr : 'return "[string repeat abcdefghij 30]THE-END"' Enter
settle wr
# The Console's two text rows: the first full (76 characters: the line
# wraps at the pane's width, not where the log stored it in pieces), the
# two together ending the result.
rows=$(cap wr | sed -n '21,22p' | sed 's/^│  //; s/│$//; s/ *$//')
first=$(printf '%s\n' "$rows" | head -n 1)
joined=$(printf '%s' "$rows" | tr -d '\n')
[ "${#first}" -eq 76 ] && case "$joined" in *abcdefghijabcdefghijTHE-END) true ;; *) false ;; esac &&
    ok "a 307-character result wraps at the pane's width, its end visible at 80 columns" ||
    bad "wrap" "first row ${#first} characters; $(cap wr | tail -6)"

# 21. Network pane: L puts link loads in Communication's place, laid out
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

# 22. A mapping strategy steps in the workbench: n runs one generation of
# ga; the status line and the Solver pane say which, the Grid follows it.
start ga 100 30 xterm-256color samples/lu-torus4.json
keys ga : "solver start ga -generations 5 -seed 2" Enter
must ga "SOLVER ga it 0"
keys ga Escape n
wait_for ga "[SOLVER ga it 1]" && cap ga | grep -q "generation 1: best" &&
    cap ga | grep -q "Grid .*solver's current" && ok "n steps ga one generation; Solver pane and Grid follow" ||
    bad "ga step" "$(cap ga | head -2) $(cap ga | grep -F 'generation' | head -2)"

# 23. No key is dropped while a solver runs: a burst of cursor keys, a Tab
# and a `:` line typed during a blocking `solver run` of tabu on the
# 256-processor sample, then during a Space run; the solver is still
# running after each burst (its iteration grows), and every key took
# effect: cursor, focus and the variables the lines set.
status_iter() { cap "$1" | head -1 | sed -n 's/.*SOLVER tabu it \([0-9]*\).*/\1/p'; }
# iter_now NAME: the iteration once the status line shows one (a start
# in the background says "starting" first, and on a loaded machine the
# sanitized start of tabu on 256 processors takes many seconds), or empty
# when the deadline passes.
iter_now() {
    d=$(deadline)
    while before "$d"; do
        it=$(status_iter "$1")
        [ -n "$it" ] && { echo "$it"; return 0; }
        sleep 0.1
    done
}
# iter_past NAME I: the iteration once it is past I, or the last seen when
# the deadline passes.
iter_past() {
    d=$(deadline)
    while before "$d"; do
        it=$(status_iter "$1")
        [ -n "$it" ] && [ "$it" -gt "$2" ] && break
        sleep 0.1
    done
    echo "$it"
}
start kb 120 40 xterm-256color samples/summit-like.json
keys kb : "solver start tabu -iters 1000000; solver run" Enter
must kb "SOLVER tabu it"
keys kb l l l j j : "set ::burst 42" Enter Tab
i1=$(iter_now kb); i2=$(iter_past kb "${i1:-0}")
[ -n "$i1" ] && [ -n "$i2" ] && [ "$i2" -gt "$i1" ] && ok "solver run still running after the burst (it $i1 -> $i2)" ||
    bad "solver run" "iterations '$i1' -> '$i2'"
keys kb Escape
must kb "% set ::burst 42"
keys kb : 'return "K=[lrange [view cursor] 0 2] F=[dict get [view state] focus] B=$::burst"' Enter
wait_for kb "K=3 2 0 F=procs B=42" && ok "keys typed during solver run: cursor, Tab and the : line all took effect" ||
    bad "keys during solver run" "$(cap kb | tail -8)"
keys kb BTab : "solver start tabu -iters 1000000" Enter Space
must kb "[running]"
keys kb h h k : "set ::burst2 7" Enter
i1=$(iter_now kb); i2=$(iter_past kb "${i1:-0}")
[ -n "$i1" ] && [ -n "$i2" ] && [ "$i2" -gt "$i1" ] && ok "Space run still running after the burst (it $i1 -> $i2)" ||
    bad "Space run" "iterations '$i1' -> '$i2'"
keys kb Space : 'return "K=[lrange [view cursor] 0 2] B2=$::burst2"' Enter
wait_for kb "K=1 1 0 B2=7" && ok "keys typed during a Space run all took effect" || bad "keys during Space run" "$(cap kb | tail -8)"
no_sanitizer_errors kb

# 24. Every processor told apart on a 256-processor machine: colour by
# node, glyph by place in the node. n00.p9_0 and n01.p9_0 show the same
# glyph on different colours, at 256 colours and on TERM=xterm; the
# legend line names the processor under the cursor; f lights only the
# cursor's node; the highlight and cursor colours are not in the palette.
b00=$("$BIN" -e 'scenario load samples/summit-like.json; lsearch -exact [map list] n00.p9_0')
b01=$("$BIN" -e 'scenario load samples/summit-like.json; lsearch -exact [map list] n01.p9_0')
# legend_of NAME PROC: the Grid's legend line for PROC, escapes kept.
legend_of() { $T capture-pane -e -p -t "$1" | awk -F'│' '{print $2}' | grep -F "$2 " | grep " blk " | head -1; }
chip_of() { legend_of "$1" "$2" | sed 's/^\(\(\x1b\[[0-9;]*m\)*\)\([0-9A-Za-z]\).*/\1|\3/'; }
for term in xterm-256color xterm; do
    nm=marks8; [ $term = xterm ] || nm=marks256
    start $nm 140 40 $term samples/summit-like.json
    keys $nm : "view cursor $b00" Enter
    must $nm "#$b00 n00.p9_0"
    settle $nm
    c0=$(chip_of $nm n00.p9_0)
    keys $nm : "view cursor $b01" Enter
    must $nm "#$b01 n01.p9_0"
    settle $nm
    c1=$(chip_of $nm n01.p9_0)
    legend_of $nm n01.p9_0 | sed 's/\x1b\[[0-9;]*m//g' | grep -q "n01.p9_0 power9 [0-9]* blk .*%T  node 1: 0 1 2 3 4 5 6 7" &&
        ok "$term: the legend names the processor under the cursor and its node's glyphs" ||
        bad "$term legend" "$(legend_of $nm n01.p9_0 | sed 's/\x1b\[[0-9;]*m//g')"
    if [ -n "$c0" ] && [ "${c0#*|}" = "${c1#*|}" ] && [ "${c0%|*}" != "${c1%|*}" ]; then
        ok "$term: n00.p9_0 and n01.p9_0 share glyph ${c0#*|} on different colours"
    else bad "$term node colours" "$(printf '%s / %s' "$c0" "$c1" | cat -v)"; fi
done
start nodelit 140 40 xterm-256color samples/summit-like.json
if $T capture-pane -e -p -t nodelit | grep -q '48;5;226m'; then bad "palette" "a block has the highlight colour 226"
else ok "no block has the highlight colour (226, in the theme's list)"; fi
keys nodelit : "view cursor $b01" Enter
must nodelit "#$b01 n01.p9_0"
keys nodelit f
must nodelit "% view node cursor"
settle nodelit
dots=$(cap nodelit | sed -n '4,11p' | awk -F'│' '{print $2}' | tr -cd '.' | wc -c)
lit=$(cap nodelit | sed -n '4,11p' | awk -F'│' '{print $2}' | tr -cd '0-9A-Za-z' | wc -c)
[ "$("$BIN" -e 'scenario load samples/summit-like.json; view node 3; view node')" = 3 ] && [ "$dots" -gt 0 ] && [ "$lit" -gt 0 ] &&
    cap nodelit | grep -q "lit node 1: 0 1 2 3 4 5 6 7" && ok "f lights node 1 ($lit blocks) and dims the rest ($dots)" ||
    bad "view node" "dots $dots lit $lit; $(cap nodelit)"
keys nodelit f
wait_for nodelit "% view node none" && ok "f again: every node lit" || bad "view node none" "$(cap nodelit | tail -4)"
no_sanitizer_errors nodelit

# 25. The Study pane: a tiny Table 6.4 sweep run from the Console, then
# `view study`: it takes the Solver pane's place, and zoomed it plots
# energy against deadline with one glyph a solver, a legend naming every
# solver and the published optima marked; c and b cycle the columns, and
# `view study off` brings the Solver pane back.
start sp 120 40 xterm-256color $S
keys sp : "map set 0 gpu0" Enter
keys sp : "study run {scenarios {samples/cuboid-cpu-gpu.json} solvers {{lb -speeds floor} {na -f 0.9}} model {deadline {3.59e-3 3.46e-3 3.34e-3 3.22e-3}}} -out {$WORK/sp-study}; view study {$WORK/sp-study}" Enter
{ wait_for sp "┐┌─[Study]" || wait_for sp "┐┌─[Study]"; } && cap sp | grep -q "^┌.*Study.*┐$" && ! cap sp | grep -q "Solver" &&
    ok "view study: the Study pane in the Solver pane's place" || bad "study pane place" "$(cap sp | sed -n 15,30p)"
# study run put the session back as it was, without asking: the same
# file, the edit still unsaved (3.57222 J), no deadline from the jobs.
cap sp | head -1 | grep -q "stencilmap  $S \\[modified\\]  \\[session\\]  E 3.572 J  T [0-9.]* ms  theme" &&
    ok "study run in the workbench leaves the session as it was" || bad "study run in the workbench" "$(cap sp | head -1)"
keys sp : "view focus study" Enter
keys sp z
must sp "[Study]"
settle sp
cap sp >"$WORK/sp.txt"
marks=$(sed -n 3,33p "$WORK/sp.txt" | grep -o '◆' | wc -l)
if grep -q "energy against deadline by solver  8 jobs  sp-study" "$WORK/sp.txt" &&
   grep -q "^│energy  *│$" "$WORK/sp.txt" && grep -q "^│  *deadline  *│$" "$WORK/sp.txt" &&
   grep -q "3.22 ms  *3.59 ms" "$WORK/sp.txt"; then
    ok "Study plot: axis labels and ranges (energy against deadline)"
else
    bad "study axes" "$(head -32 "$WORK/sp.txt")"
fi
if grep -q "● solver lb -speeds floor" "$WORK/sp.txt" && grep -q "○ solver na -f 0.9" "$WORK/sp.txt" &&
   grep -q "◆ published optimum (Table 6.4)" "$WORK/sp.txt" && [ "$marks" -ge 5 ] &&
   [ "$(grep -c '|.*[●○*]' "$WORK/sp.txt")" -ge 1 ]; then
    ok "Study plot: a legend with every solver, their points, the 4 published optima marked"
else
    bad "study legend" "$marks marks; $(head -32 "$WORK/sp.txt")"
fi
keys sp c
wait_for sp "energy against time by solver" && ok "c plots against the next numeric column" ||
    bad "study c" "$(cap sp | sed -n 2,4p)"
keys sp b
wait_for sp "energy against time by deadline" && ok "b splits the series by another column (the deadline)" ||
    bad "study b" "$(cap sp | sed -n 2,4p)"
keys sp z
keys sp : "view study off" Enter
wait_for sp "< lb >" && ! cap sp | grep -q "Study" && ok "view study off: the Solver pane is back" ||
    bad "study off" "$(cap sp | sed -n 15,30p)"
no_sanitizer_errors sp

# 26. Issue #15's closing case: thesis Table 6.4's CPU-GPU and 2xCPU-2xGPU
# deadline sweep, sharded 2 ways with GNU parallel, then the Study pane
# plots the merged table beside the 8 published optima.
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite -j 2 "$BIN" -b scripts/study.tcl samples/studies/table64-cpu-gpu.json \
        "$WORK/t64" {}/2 ::: 0 1 >"$WORK/t64.out" 2>&1
    start tp 120 40 xterm-256color $S
    keys tp : "view study {$WORK/t64}" Enter
    keys tp : "view focus study" Enter
    keys tp z
    must tp "energy against deadline by solver  8 jobs  t64"
    settle tp
    cap tp >"$WORK/tp.txt"
    # The tabu search reaches the published optima: its points sit on the
    # marks, drawn ◈ (at least the CPU-GPU four); every optimum is marked.
    marks=$(sed -n 3,30p "$WORK/tp.txt" | grep -o '◆\|◈' | wc -l)
    reached=$(sed -n 3,30p "$WORK/tp.txt" | grep -o '◈' | wc -l)
    if grep -q "series tabu points 8 published_point" "$WORK/tp.txt" && grep -q "● solver tabu" "$WORK/tp.txt" &&
       grep -q "◆ published optimum (Table 6.4)" "$WORK/tp.txt" && grep -q "◈ a result on it" "$WORK/tp.txt" &&
       [ "$marks" -ge 8 ] && [ "$reached" -ge 5 ]; then
        ok "Table 6.4 sweep sharded by GNU parallel: tabu's results on the published optima ($((reached - 1)) of $((marks - 2)) marks)"
    else
        bad "table 6.4 study pane" "$marks marks, $reached reached; $(cat "$WORK/t64.out"; head -34 "$WORK/tp.txt")"
    fi
    # b: the deadline, none, then round to the scenario.
    keys tp b b b
    wait_for tp "energy against deadline by scenario" && cap tp | grep -q "cuboid-cpu-gpu.json" &&
        cap tp | grep -q "2cpu-2gpu.json" && ok "b: one series a scenario, both named in the legend" ||
        bad "study b" "$(cap tp | sed -n 2,12p)"
    no_sanitizer_errors tp
else
    ok "GNU parallel not installed: the sharded Table 6.4 sweep is skipped"
fi
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
cap cs | grep -q "session: #0" && cap cs | grep -q "tabu best: " &&
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
must cs "[session]"
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

# 28-32: every pane agrees on the mapping shown (#23 item 5).
. tests/screen/panes_agree.sh
# 33-: what a new user met (#23 item 7).
. tests/screen/new_user.sh
# Text that does not fit gives up whole parts, never cut mid-word.
. "$top/tests/screen/layout_cut.sh"

# 28-32. Stepping a solver like a debugger (issue #23).
. "$top/tests/screen/stepping.sh"
# 43-: a step sought to shows its own states and partition; the timeline
# beside a Pareto front.
. "$top/tests/screen/stepping_state.sh"
# A prompt's offered value is a selected default.
. "$top/tests/screen/prompts.sh"
# 60-: what a new-user trial found (undo, modified, the Solver pane).
. "$top/tests/screen/trial.sh"
# A run launched from the workbench, beside the model (#36).
. "$top/tests/screen/run_pane.sh"
# A measured machine: topo measure in the background, -apply, reopened.
. "$top/tests/screen/measured.sh"

# A dead terminal ends the workbench, journal kept (#40 item 3).
. "$top/tests/screen/hangup.sh"
# 70-: stepping at debugger quality (issue 37): the ILP inside its solve,
# pause, breakpoints, reverse-continue, Home/End under tmux.
. "$top/tests/screen/stepping_debugger.sh"
# 73: branches of a solver's run, V between two runs (issue 37 item 4).
. "$top/tests/screen/branches.sh"
# 74: every pane against solver state at summit-like (issue 37 item 5).
. "$top/tests/screen/agree_summit.sh"
# 75: no text cut inside a word at 80x24 (issue 37 item 6).
. "$top/tests/screen/cut_words.sh"

echo "screen: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
