# stepping_trial.sh - what the third trial of stepping as a new user found
# (issue 37, notes/trial.md), sourced by run.sh (its start/keys/cap/must/
# ok/bad): the ILP live inside a long step, the pane's bound of a proven-
# infeasible ILP, one word for the solver's phase, the solver's own
# deadline on the status line.

# 77. The ILP inside one long step (8x4x4 blocks, 1.7 ms: step 3 is a
# branch and bound of minutes, one node LP of tens of thousands of simplex
# iterations): the Solver pane shows its figures moving while the step
# runs (they read "nodes 0, elapsed 6.285 ms" for 300 s), then Esc pauses
# it inside the solve.
begin live 200 50 xterm-256color samples/cuboid-2cpu-2gpu.json
keys live : "model configure -deadline 0.0017; solver start ilp -timeout 600" Enter
must live "ilp running, ready  it 0"
keys live Escape n
must live "ilp running, paused  it 1"
keys live n
must live "ilp running, paused  it 2"
keys live n
must live "ilp running, stepping  it 2"
# Two readings of the pane at least a second apart, both inside step 3.
figs() { cap live | grep -o "simplex_iterations [0-9]*  elapsed [0-9.]* [a-z]*s" | head -1; }
wait_for live "simplex_iterations" 20
a=$(figs)
sleep 1.5
b=$(figs)
still=$(cap live | grep -c "ilp running, stepping  it 2")
ia=$(echo "$a" | awk '{print $2}'); ib=$(echo "$b" | awk '{print $2}')
if [ -n "$ia" ] && [ -n "$ib" ] && [ "$ib" -gt "$ia" ] && [ "$still" -ge 1 ] &&
    [ "$(echo "$a" | cut -d' ' -f4-)" != "$(echo "$b" | cut -d' ' -f4-)" ]; then
    ok "ILP live inside step 3: '$a' then '$b'"
else
    bad "ilp live in a long step" "'$a' then '$b' (still stepping: $still)"
fi
keys live Escape
must live "ilp paused at step 3 (interrupted)"
must live "ilp running, paused  it 3"
keys live : "solver stop" Enter
must live "ilp stopped  it"
keys live q y
must_exit live
no_sanitizer_errors live

# 78. A proven-infeasible ILP (nothing meets 1 ms): the pane says no
# incumbent and a bound of "infeasible", as solver state (incumbent {},
# bound Inf); it said "incumbent nan J ... bound 0 J".
begin inf 200 50 xterm-256color samples/cuboid-2cpu-2gpu.json
keys inf : "model configure -deadline 0.001; solver start ilp" Enter
must inf "ilp running, ready  it 0"
keys inf Escape n
must inf "ilp infeasible  it 1"
keys inf : "set s [solver state]; list STATE [dict get \$s incumbent] [dict get \$s bound] [dict exists \$s gap]" Enter
must inf "STATE {} Inf 0"
if cap inf | grep -q "incumbent -  bound infeasible" && ! cap inf | grep -qi "nan\|bound 0 J"; then
    ok "infeasible ILP: 'incumbent -  bound infeasible', as solver state's {} and Inf"
else
    bad "infeasible ILP pane" "$(cap inf | grep -i 'incumbent\|nan\|bound' | head -3)"
fi
keys inf q y
must_exit inf
no_sanitizer_errors inf

# 79. One word for one state: after n, N, ] and } (and a seek) the Solver
# pane says "running, paused", the status line "paused" and solver state's
# phase paused; before a step "ready" everywhere.
begin ph 200 50 xterm-256color samples/cuboid-cpu-gpu.json
keys ph : "solver start tabu -iters 200 -seed 2" Enter
must ph "tabu running, ready  it 0"
must ph "[SOLVER tabu it 0] ready"
words=""
for k in n N "}" "{" "]"; do
    keys ph Escape "$k"
    settle ph
    words="$words $(cap ph | grep -o 'tabu running, [a-z]*  it [0-9]*' | head -1 | sed 's/  it [0-9]*//' | tr ' ' '_')"
    words="$words $(cap ph | head -1 | grep -o '\] [a-z]*  E' | tr ' ' '_')"
done
keys ph : "string toupper [dict get [solver state] phase]" Enter
must ph "PAUSED"
want=""
for k in 1 2 3 4 5; do want="$want tabu_running,_paused ]_paused__E"; done
[ "$words" = "$want" ] && ok "phase after n, N, }, {, ]: one word (paused) in the pane, the status line and solver state" ||
    bad "phase words" "got '$words'"
keys ph q y
must_exit ph
no_sanitizer_errors ph

# 80. A solver that took a deadline of its own (the scenario has none):
# the status line judges T against it, as the Energy pane and solver state
# do ("T 5.097 ms" alone, while the solver held 4.752 ms).
begin dl 200 50 xterm-256color samples/cuboid-cpu-gpu.json
keys dl : "solver start tabu -iters 50 -seed 2" Enter
must dl "tabu running, ready  it 0"
keys dl Escape n n n
must dl "[SOLVER tabu it 3]"
settle dl
st=$(cap dl | head -1 | grep -o "T [0-9.]* [a-z]*s [<>=]* *[0-9.]* [a-z]*s")
own=$(cap dl | grep -o "deadline [0-9.]* [a-z]*s (fastest" | head -1 | sed 's/deadline //; s/ (fastest//')
shown=$(echo "$st" | sed 's/.*[<>=]  *//')
[ -n "$own" ] && [ "$shown" = "$own" ] &&
    ok "status line '$st' against the solver's own deadline ($own)" ||
    bad "status line own deadline" "status '$st', solver's deadline '$own'"
keys dl q y
must_exit dl
no_sanitizer_errors dl

# 81. V between runs at unequal steps (b1 at 30, main with 12 steps):
# the status line and the Solver pane say main has 12 steps and where it
# is compared, whole at 80x24 too; and whether b1 (-tenure-add 30) has
# moved otherwise than main yet.
for sz in "200 50" "80 24"; do
    set -- $sz
    nm=uneq$1
    begin $nm $1 $2 xterm-256color samples/cuboid-cpu-gpu.json
    keys $nm : "solver start tabu -iters 200 -seed 2; solver step 12; solver branch 10 -tenure-add 30; solver step 20" Enter
    must $nm "[SOLVER tabu b1 it 30]"
    keys $nm Escape V
    must $nm "vs main @12"
    settle $nm
    status=$(cap $nm | head -1)
    if [ "$1" = 200 ]; then
        cap $nm | grep -q "main has 12 steps; compared at @12" && echo "$status" | grep -q "vs main @12 (has 12 steps)" &&
            cap $nm | grep -q "b1 made main's moves so far (to step 12)" &&
            ok "200x50: V at unequal steps says 'main has 12 steps; compared at @12'; b1 made main's moves" ||
            bad "unequal steps 200x50" "$status / $(cap $nm | grep -o 'main has[^│]*\|b1 [a-z]*[^│]*' | head -2)"
    else
        # Whole: the status line ends with the energy and its unit, the
        # pane's short form keeps the step compared.
        echo "$status" | grep -q "E [0-9.]* [a-zA-Z]*J *$" && cap $nm | grep -q "main: 12 steps, @12" &&
            ok "80x24: status line whole ('$status'), pane 'main: 12 steps, @12'" ||
            bad "unequal steps 80x24" "$status / $(cap $nm | grep -o 'main[^│]*' | head -2)"
    fi
    keys $nm q y
    must_exit $nm
    no_sanitizer_errors $nm
done

# 82. Moves keep block, source and target (summit-like's names at 200x50
# in compare mode, a 48-column Solver pane): "move block 380 n28.v100_4 ->"
# and "swap block 267 (n17.v100_1) with block 283" lost their targets.
# moves_keep_target NAME COLS ROWS READY MIN: tabu 3 steps, V; every move
# line of the compared Solver pane (at least MIN) ends with a processor
# name (a word with a letter), never with "->", "<>", "with" or a bare
# block number.
moves_keep_target() {
    begin "$1" "$2" "$3" xterm-256color samples/summit-like.json
    keys "$1" : "solver start tabu -seed 2" Enter
    must "$1" "$4"
    keys "$1" Escape n n n V
    must "$1" "vs tabu best"
    settle "$1"
    lines=$(cap "$1" | awk -F'│' '{print $(NF-1)}' | grep -E '(move|swap) ')
    bad_lines=$( (echo "$lines" | grep -vE ' [^ ]*[a-z][^ ]* *$'; echo "$lines" | grep -E '(->|<>|with) *$') | grep .)
    [ "$(echo "$lines" | grep -c .)" -ge "$5" ] && [ -z "$bad_lines" ]
}
moves_keep_target mv 200 50 "tabu running, ready  it 0" 4 &&
    ok "moves keep their target in a 48-column Solver pane ($(echo "$lines" | grep -c .) lines)" ||
    bad "moves lose their target" "$bad_lines"
keys mv q y
must_exit mv
no_sanitizer_errors mv
# The same at 80x24, where the compared Solver pane is 19 columns: the
# source names go before the target ("move 269 -> n2~0_2"), never the
# target ("move 380 n2~0_4 ->", the trial of this session).
moves_keep_target mv8 80 24 "it 0" 1 &&
    ok "80x24 comparing: the move keeps its target in a 19-column Solver pane ($lines)" ||
    bad "80x24 comparing: move loses its target" "lines '$lines'; bad '$bad_lines'"
keys mv8 q y
must_exit mv8
no_sanitizer_errors mv8
# 83. The Grid's header gives up whole parts at 80x24: the cut count keeps
# its words or goes ("13909280" alone on the whole Summit, "3966 cut" at
# summit-like's block 1023 said less than they seemed to).
begin gh 80 24 xterm-256color samples/summit-like.json
keys gh : "view cursor 1023" Enter
wait_for gh "#1023"
settle gh
head_line=$(cap gh | sed -n 3p | awk -F'│' '{print $2}' | sed 's/ *$//')
echo "$head_line" | grep -qE '^\(15,7,7\) #1023 [^ ]+(  sel [0-9]+)?(  [0-9]+ cut edges)?$' &&
    ok "80x24: Grid header keeps whole parts ($head_line)" || bad "80x24 Grid header cut" "'$head_line'"
keys gh q
must_exit gh
no_sanitizer_errors gh
