# stepping_state.sh - screen tests: what a step sought to shows is that
# step's, whole (the DVFS states, popta's partition) and the timeline
# beside a Pareto front; sourced by run.sh (its start/keys/cap/must/ok/bad).

# The Energy pane's total in joules ("total 409.6 mJ" -> 0.4096).
screen_total_j() {
    cap "$1" | sed -n 's/.*total \([0-9.eE+-]*\) \([munkM]\{0,1\}\)J.*/\1 \2/p' | head -1 |
        awk '{ m = 1; if ($2 == "m") m = 1e-3; else if ($2 == "u") m = 1e-6; else if ($2 == "n") m = 1e-9;
               else if ($2 == "k") m = 1e3; else if ($2 == "M") m = 1e6; printf "%.6g\n", $1 * m }'
}
# close A B: A and B (numbers) agree to 4 significant digits.
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 5e-4 * (b < 0 ? -b : b)) }'; }

# 43. tabu -dvfs: after a seek the Processors pane shows the step's DVFS
# states and Energy evaluates the step's mapping in them (it showed the
# machine's states and their energy, whatever the step).
D=samples/cuboid-cpu-gpu-dvfs.json
dv_batch() { "$BIN" -e "scenario load $D; model configure -deadline 6e-3; solver start tabu -dvfs on -seed 1 -iters 40; solver step 20; solver seek $1; set s [solver state]; list [dict get \$s current energy] [dict get \$s states]"; }
start dvs 200 50 xterm-256color $D
keys dvs : "model configure -deadline 6e-3" Enter
keys dvs : "solver start tabu -dvfs on -seed 1 -iters 40" Enter
must dvs "% solver start tabu"
keys dvs : "solver step 20" Enter
must dvs "[SOLVER tabu it 20]"
for k in 1 0 2; do
    keys dvs : "solver seek $k" Enter
    must dvs "[SOLVER tabu it $k]"
    settle dvs
    want=$(dv_batch $k)
    e=$(echo "$want" | cut -d' ' -f1)
    st=$(echo "$want" | sed 's/^[^ ]* //; s/[{}]//g')
    cpu=$(echo "$st" | cut -d' ' -f1) gpu=$(echo "$st" | cut -d' ' -f2)
    cpu_t=cpu gpu_t=gpu
    [ "$cpu" != base ] && cpu_t="cpu@$cpu"
    [ "$gpu" != base ] && gpu_t="gpu@$gpu"
    got=$(screen_total_j dvs)
    cap dvs | grep -qE "cpu0 $cpu_t +[#T ]" && cap dvs | grep -qE "gpu0 $gpu_t +[#T ]" && close "$got" "$e" &&
        ok "seek $k: Processors show the step's states ($cpu_t, $gpu_t), Energy its energy ($got J)" ||
        bad "dvfs seek $k" "want $cpu_t $gpu_t $e J, screen: $(cap dvs | grep -E ' (cpu|gpu)0 ' | head -2 | cut -c112-140) total $got"
done
keys dvs q y
must_exit dvs
no_sanitizer_errors dvs

# 44. popta -objective pareto at 200x50: the Solver pane keeps a one-row
# timeline above the front (it had none), and after a seek the front
# plotted and tabled is the step's (6 points at step 24, as solver state
# says), not the head's 15.
start par 200 50 xterm-256color $S
keys par : "solver start popta -objective pareto" Enter
must par "% solver start popta"
keys par : "solver run" Enter
must par "popta optimal"
keys par : "solver seek 24" Enter
must par "popta running, paused  it 24"
settle par
want=$("$BIN" -e "scenario load $S; solver start popta -objective pareto; solver run; solver seek 24; llength [dict get [solver state] front]")
rows=$(cap par | grep -oE "  [0-9]+ [0-9.]+ (ms|us|s) +[0-9.]+ (mJ|J)" | wc -l)
last=$(cap par | grep -oE "  [0-9]+ [0-9.]+ (ms|us|s) +[0-9.]+ (mJ|J)" | tail -1 | awk '{ print $1 }')
cap par | grep -qE "step 24/34 (▁|▂|▃|▄|▅|▆|▇|█)+" && cap par | grep -q "#  time" &&
    ok "200x50 Pareto: a one-row timeline above the front plot" ||
    bad "pareto timeline" "$(cap par | grep -E 'step [0-9]+/|#  time' | head -3)"
[ "$rows" = "$want" ] && [ "$last" = "$((want - 1))" ] &&
    ok "after seek 24 the front shown is the step's ($rows points = solver state)" ||
    bad "pareto seek" "screen rows $rows (last $last), solver state $want"
# A click on the timeline seeks.
row=$(cap par | grep -n "step 24/34 " | head -1 | cut -d: -f1)
dcol=$(cap par | grep "step 24/34 " | head -1 | sed 's/step 24\/34 .*//' | wc -m)
$T send-keys -t par -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $((dcol + 11 + 30)) "$row" $((dcol + 11 + 30)) "$row")"
wait_for par "% solver seek 30" && wait_for par "popta running, paused  it 30" &&
    ok "a click on the compact timeline seeks" || bad "pareto click" "row $row col $dcol: $(cap par | tail -4)"
keys par q y
must_exit par
no_sanitizer_errors par

# 45. The same at 80x24: no room for the front, so the full timeline and
# the step explained; every row whole and readable.
start par8 80 24 xterm-256color $S
keys par8 : "solver start popta -objective pareto" Enter
must par8 "running, ready  it 0"
keys par8 : "solver run" Enter
must par8 "popta optimal"
keys par8 : "solver seek 24" Enter
must par8 "running, paused  it 24"
settle par8
# (The step's best goes whole or not at all: at 25 columns "cur 3.349 J
# best 3.349 J" above says it; a bare "best 3.349" lost its unit.)
cap par8 | grep -qE "│step 24/34(  best [0-9.]+ (m|k)?J( at [0-9]+|@[0-9]+)?)? *│" && cap par8 | grep -qE "│(▁|▂|▃|▄|▅|▆|▇|█)+ *│" &&
    cap par8 | grep -q "│why: " && ok "80x24 Pareto: timeline, its line and why, each on its own row" ||
    bad "pareto 80x24" "$(cap par8 | sed -n 11,19p)"
keys par8 q y
must_exit par8
