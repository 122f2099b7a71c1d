# trial.sh - sourced by run.sh (its helpers): what a new-user trial found
# in undo, "modified" and the Solver pane, one check each.

# 60. Undo after applying a DVFS solve restores the mapping and the
# states (the processor runs "gpu", not "gpu@low"), and with the mapping
# back as saved the title no longer says [modified].
begin tr 200 50 xterm-256color samples/cuboid-cpu-gpu-dvfs.json
keys tr : "model configure -deadline 0.006" Enter
must tr "-deadline 0.006 -unused"
keys tr Escape : "scenario save $WORK/trial-dvfs.json" Enter
must tr "% scenario save"
keys tr Escape : "solver start tabu -dvfs on" Enter
must tr "% solver start tabu -dvfs on"
keys tr Escape " "
must tr "tabu done after"
keys tr a
must tr "gpu0 gpu@low"
applied=$(cap tr | head -1)
keys tr u
must tr "% map undo"
settle tr
after=$(cap tr)
case "$applied" in *"[modified]"*) a_ok=1 ;; *) a_ok=0 ;; esac
if [ "$a_ok" = 1 ] && echo "$after" | grep -q "gpu0 gpu  " && ! echo "$after" | grep -q "@low" &&
    ! echo "$after" | head -1 | grep -qF "[modified]" && echo "$after" | head -1 | grep -qF "E 3.486 J"; then
    ok "a then u after tabu -dvfs: base states, the saved mapping (3.486 J), not [modified]"
else
    bad "dvfs undo" "applied: $applied; after: $(echo "$after" | sed -n '1p;4,6p')"
fi
keys tr q
must_exit tr
no_sanitizer_errors tr
