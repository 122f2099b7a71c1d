#!/bin/sh
# run.sh - screen tests: drive the workbench through tmux (start it, send
# keys, capture the pane) and compare with golden screens in golden/.
# UPDATE_GOLDEN=1 rewrites the golden files from this run (review the diff).
# Ends with "screen: N passed, N failed".
# The checks live one file per topic (sourced below, in this order, in
# this shell: later files use what earlier ones set up); this file holds
# only the set-up and the list.
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

. "$top/tests/screen/helpers.sh"

# 1-14: first screen, keys, undo, help, dump, themes, quit, resize, mouse.
. "$top/tests/screen/basics.sh"
# 18 (Pareto mode): popta's front in the Solver pane.
. "$top/tests/screen/pareto_mode.sh"
# 15: data never becomes code.
. "$top/tests/screen/hostile_names_stay_data.sh"
# 16-17: journals and unsaved work.
. "$top/tests/screen/journals_unsaved.sh"
# 18-20: the panes follow the solver; the Console.
. "$top/tests/screen/solver_panes_console.sh"
# 21: the Network pane's link loads.
. "$top/tests/screen/network_pane.sh"
# 22-23: a strategy steps; keys while a solver runs.
. "$top/tests/screen/strategy_steps_keys.sh"
# 24: 256 processors told apart.
. "$top/tests/screen/many_processors.sh"
# 25-26: the Study pane.
. "$top/tests/screen/study_pane.sh"
# 27: compare mode.
. "$top/tests/screen/compare_mode.sh"

. tests/screen/panes_agree.sh
# 33-: what a new user met (#23 item 7).
. tests/screen/sizes_and_large_samples.sh
# Text that does not fit gives up whole parts, never cut mid-word.
. "$top/tests/screen/pane_text_cut_whole_words.sh"

# 28-32. Stepping a solver like a debugger (issue #23).
. "$top/tests/screen/stepping.sh"
# 43-: a step sought to shows its own states and partition; the timeline
# beside a Pareto front.
. "$top/tests/screen/stepping_state.sh"
# A prompt's offered value is a selected default.
. "$top/tests/screen/prompts.sh"
# 60-: what a new-user trial found (undo, modified, the Solver pane).
. "$top/tests/screen/undo_modified_solver.sh"
# A run launched from the workbench, beside the model (#36).
. "$top/tests/screen/run_launch_in_workbench.sh"
# A measured machine: topo measure in the background, -apply, reopened.
. "$top/tests/screen/topo_measure_in_workbench.sh"

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
. "$top/tests/screen/text_never_cut_mid_word.sh"
# 76: compare mode at 80x24 with long processor names (issue 37 item 6).
. "$top/tests/screen/compare_mode_at_80x24.sh"
# 77-: what the third trial as a new user found (issue 37): the ILP live
# inside a long step, an infeasible ILP's bound, one word per phase, the
# solver's own deadline on the status line.
. "$top/tests/screen/stepping_trial.sh"
# The Energy pane at 80x24 keeps the bound and gap of a followed solver.
. "$top/tests/screen/energy_bound_at_80x24.sh"

echo "screen: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
