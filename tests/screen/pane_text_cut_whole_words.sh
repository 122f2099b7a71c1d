# pane_text_cut_whole_words.sh - sourced by run.sh (its helpers): text that did not fit
# its pane was cut mid-word (#kfixb item 3): at 80x24 the Energy pane
# dropped the bound and gap, the Communication pane named a pair by one
# cut name ("6-34 n00~00_0") under a header cut to "s", the Processors
# title lost its filter and the Grid's legend ended "70%T  node"; at
# 200x50 the Energy pane's last row ended "... 36793 procs u". Each now
# gives up whole parts, or wraps, instead.

begin lc 80 24 xterm-256color samples/summit-like.json
settle lc
scr=$(cap lc)
# Energy: the bound and gap beside the total ("total 3.37 J ≥2.6 J 23%").
erow=$(echo "$scr" | sed -n '10,19p' | awk -F'│' '{print $4}' | grep -E '^(total|E) ')
case "$erow" in
*"≥"[0-9.]*" "*J" "[0-9]*%*) ok "80x24 Energy: the bound and gap beside the total ($erow)" ;;
*) bad "80x24 energy bound" "'$erow'" ;;
esac
# Communication: each row names both ends, no header or row cut to "s".
rows=$(echo "$scr" | sed -n '13,17p' | awk -F'│' '{print $2}' | awk '{print $1}')
n=$(echo "$rows" | grep -c .)
pairs=$(echo "$rows" | grep -cE '^n[0-9]+\.[^-]*-n[0-9]+\.')
head=$(echo "$scr" | sed -n 12p | awk -F'│' '{print $2}' | sed 's/ *$//')
case "$head" in *" s") hcut=1 ;; *) hcut=0 ;; esac
[ "$n" -ge 4 ] && [ "$pairs" = "$n" ] && [ "$hcut" = 0 ] &&
    ok "80x24 Communication: $n rows name both ends ($(echo "$rows" | head -1)), header '$head'" ||
    bad "80x24 comm pairs" "rows: $(echo "$rows" | tr '\n' ' ') header: '$head'"
# Grid legend: whole parts only.
legend=$(echo "$scr" | sed -n 9p | awk -F'│' '{print $2}' | sed 's/ *$//')
case "$legend" in
*"%T"|*"node "[0-9]*|*"node "[0-9]*": "*) ok "80x24 Grid legend whole: '$legend'" ;;
*) bad "80x24 grid legend" "'$legend'" ;;
esac
# Processors: a filter stays in the title.
keys lc / n 0 3 Enter
must lc "% view procs -filter n03"
wait_for lc "filter n03 " && cap lc | sed -n 2p | grep -q "Processors  filter n03 " &&
    ok "80x24 Processors title keeps 'filter n03'" || bad "80x24 procs title" "$(cap lc | sed -n 2p)"
keys lc q
must_end lc
no_sanitizer_errors lc

# 120x40: the Energy pane's last rows wrap at word boundaries.
begin lw 120 40 xterm-256color samples/summit-like.json
settle lw
last=$(cap lw | awk -F'│' '{print $4}' | grep -A1 '^feasible' | sed 's/ *$//' | tr '\n' '|')
case "$last" in
"feasible  3966 cut edges|(48460 quanta), 216 procs used|") ok "120x40 Energy: feasibility wraps whole ($last)" ;;
*) bad "120x40 energy last rows" "'$last'" ;;
esac
keys lw q
must_end lw
no_sanitizer_errors lw
