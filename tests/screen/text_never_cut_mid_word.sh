# text_never_cut_mid_word.sh - sourced by run.sh (its helpers): 75. text is never cut
# inside a word at 80x24 (issue 37 item 6: "T 48 us <= 177.6 us co",
# "3432 cut edg", "theme defaul", "Load Balancing: f", "swap block 125
# (cpu0) wit"). summit-like after 20 tabu steps at 80x24 and at 250x60
# (where nothing needs cutting): every line of the status line, the Grid's
# header, the Energy and the Solver panes at 80x24 ends with a whole word
# of the 250x60 screen (sparkline and timeline rows aside), and a number
# never loses its unit.
cw_run() { # cw_run NAME COLS ROWS
    begin "$1" "$2" "$3" xterm-256color samples/summit-like.json
    keys "$1" : "solver start tabu -seed 1; solver step 20" Enter
    must "$1" "[SOLVER tabu it 20]"
    keys "$1" Escape
    settle "$1"
}
cw_run cww 250 60
wide=$(cap cww | tr '│┌┐└┘─[]' '        ' | tr -s ' ' '\n' | sort -u)
cw_run cwn 80 24
narrow=$(cap cwn)
{
    echo "$narrow" | head -1
    echo "$narrow" | sed -n 3p | awk -F'│' '{print $2}'
    echo "$narrow" | sed -n '12,18p' | awk -F'│' '{print $4; print $6}'
} | grep -v '[▁▂▃▄▅▆▇█]' | sed 's/ *$//' | grep . >"$WORK/cw.lines"
# cut_words FILE LABELS: sets n (the lines of FILE) and cut_at (those whose
# last word is not a word of the wide screen, or that end in a number
# right after one of LABELS: a figure that lost its unit).
cut_words() {
    cut_at=""
    n=0
    while IFS= read -r line; do
        n=$((n + 1))
        last=${line##* }
        # The Energy pane's short bound form ends in the whole percent of
        # the gap ("E 2.695 J ≥2.6 J 4%", stencilmap(1)); wide: "gap 3.5 %".
        case "$line" in *" ≥"[0-9]*" "[0-9]*%) continue ;; esac
        # A name elided in its middle ("n2~0_1", sm_ui_fit_names) is whole
        # on purpose: the move keeps its target.
        case "$last" in *"~"*) continue ;; esac
        echo "$wide" | grep -qxF -- "$last" || cut_at="$cut_at|$line"
        case "$last" in *[0-9]) echo "$line" | grep -qE "($2) [0-9.]+\$" && cut_at="$cut_at|$line (no unit)" ;; esac
    done <"$1"
}
cut_words "$WORK/cw.lines" '<=|>|cur|best|total|comp|comm'
[ "$n" -ge 10 ] && [ -z "$cut_at" ] && ok "80x24: $n lines of the status line, Grid header, Energy and Solver end with whole words" ||
    bad "80x24 cut mid-word" "$n lines; cut: $cut_at"
# The same in compare mode with a branch (V): the Solver pane is narrower
# there ("cur 2.695 J  best 2" and "step 13/13  best 2." at 80x24).
for nm in cww cwn; do
    keys $nm : "solver branch 10 -tenure-add 30; solver step 3" Enter
    must $nm "b1 it 13"
    keys $nm Escape V
    must $nm "vs main"
    settle $nm
done
wide=$(cap cww | tr '│┌┐└┘─[]' '        ' | tr -s ' ' '\n' | sort -u)
cap cwn | sed -n '11,18p' | awk -F'│' '{print $6}' | grep -v '[▁▂▃▄▅▆▇█━·]' | sed 's/ *$//' | grep . >"$WORK/cw2.lines"
cut_words "$WORK/cw2.lines" 'cur|best'
[ "$n" -ge 4 ] && [ -z "$cut_at" ] && ok "80x24, comparing a branch: $n lines of the Solver pane end with whole words" ||
    bad "80x24 comparing: Solver pane cut mid-word" "$n lines; cut: $cut_at"
for nm in cww cwn; do
    keys $nm q y
    must_exit $nm
done
no_sanitizer_errors cwn
