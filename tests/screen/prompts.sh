# prompts.sh - sourced by run.sh (its helpers): a value a prompt offers is
# a selected default (#kfixb item 2: typing appended to it, so m gave
# "map move gpu0gpu1 7"; S ended in a hidden blank the first Backspace
# removed unseen). The first character typed replaces the offer, Enter
# takes it, Backspace and the arrows edit it; S's command takes typed
# options as further words.

begin pr 80 24 xterm-256color samples/cuboid-2cpu-2gpu.json
# m with gpu0 chosen in Processors offers gpu0; typing gpu1 replaces it.
keys pr : "view proc gpu0" Enter
must pr "% view proc gpu0"
keys pr Escape m
must pr "to processor: gpu0"
keys pr g p u 1 Enter
if wait_for pr "% map move gpu1 0"; then
    ok "m: typing over the offered gpu0 gives map move gpu1 0"
else
    bad "m replaces" "$(cap pr | grep -F '% map move' | tail -2)"
fi
cap pr | grep -qF "gpu0gpu1" && bad "m appended" "$(cap pr | grep -F gpu0gpu1)"
# Enter takes the offer as it is.
keys pr : "view proc cpu1" Enter
must pr "% view proc cpu1"
keys pr Escape m
must pr "to processor: cpu1"
keys pr Enter
wait_for pr "% map move cpu1 0" && ok "m: Enter takes the offered cpu1" ||
    bad "m Enter" "$(cap pr | tail -4)"
# Backspace edits the offer: cpu1 -> cpu0.
keys pr m
must pr "to processor: cpu1"
keys pr BSpace 0 Enter
wait_for pr "% map move cpu0 0" && ok "m: Backspace edits the offer (cpu1 -> cpu0)" ||
    bad "m Backspace" "$(cap pr | tail -4)"
# / offers the current filter; typing replaces it, Left edits it.
keys pr / g p u Enter
must pr "% view procs -filter gpu"
keys pr /
must pr "filter processors (name, type or nN): gpu"
keys pr c p u Enter
wait_for pr "% view procs -filter cpu" && ok "/: typing replaces the current filter" ||
    bad "/ replaces" "$(cap pr | tail -4)"
cap pr | grep -qF -- "-filter gpucpu" && bad "/ appended" "$(cap pr | grep -F gpucpu)"
keys pr /
must pr "(name, type or nN): cpu"
keys pr Left Left Left n Enter
wait_for pr "% view procs -filter ncpu" && ok "/: Left then a key edits the filter (ncpu)" ||
    bad "/ Left" "$(cap pr | tail -4)"
keys pr / C-u Enter
must pr "% view procs -filter {}"
# S: no hidden blank; Backspace removes a visible character, typed
# options become words after the solver's name.
keys pr S
must pr ":solver start "
# (A capture drops trailing blanks: the cursor says where the line ends.)
line=$(cap pr | tail -1)
cx=$($T display-message -p -t pr '#{cursor_x}')
case "$line" in
*":solver start "[a-z]*) [ "$cx" -eq "${#line}" ] && ok "S offers '$line', the cursor right after it (no hidden blank)" ||
    bad "S trailing blank" "cursor at $cx after '$line' (${#line} columns)" ;;
*) bad "S prompt" "'$line'" ;;
esac
keys pr Escape q y
must_end pr
no_sanitizer_errors pr
# At 200x50, where the Console keeps the echoed line in view.
begin pr2 200 50 xterm-256color samples/cuboid-2cpu-2gpu.json
keys pr2 S
must pr2 ":solver start "
keys pr2 C-u "solver start tabu" Enter
must pr2 "% solver start tabu"
keys pr2 S
must pr2 ":solver start tabu"
keys pr2 -- "-seed 4" Enter
wait_for pr2 "% solver start tabu -seed 4" && ok "S: typed options go after the command as words" ||
    bad "S options" "$(cap pr2 | grep -F '% solver' | tail -3)"
keys pr2 S BSpace
must pr2 ":solver start tab"
cap pr2 | tail -1 | grep -q ":solver start tab *$" && ok "S: the first Backspace removes a visible character" ||
    bad "S Backspace" "'$(cap pr2 | tail -1)'"
keys pr2 Escape
keys pr2 q y
must_end pr2
no_sanitizer_errors pr2
