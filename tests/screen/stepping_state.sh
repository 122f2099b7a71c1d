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
