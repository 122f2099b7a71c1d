# hangup.sh - sourced by run.sh (its helpers): a dead terminal ends the
# workbench the way Vim ends (#40 item 3). The workbench is the first
# process of a pane of its own tmux server; killing that server closes
# the terminal under it. Whether it is idle, inside a long command
# (`solver run`) or waiting at the recovery question, it must be gone
# within a few seconds, never spinning on the dead terminal, with every
# edit in its journal for `session recover`. One run keeps SIGHUP
# ignored (nohup), so only the terminal's hang-up itself can end it.

HUPSOCK="sm-hup-$$"
H="tmux -L $HUPSOCK -f /dev/null"
HUPSTATE="$WORK/hup-state"
mkdir -p "$HUPSTATE"

# hup_start NAME PREFIX ARGS...: the workbench as the pane's process
# (exec: its pid is in WORK/NAME.pid), stderr in WORK/NAME.err.
hup_start() {
    name=$1 prefix=$2
    shift 2
    rm -f "$WORK/$name.pid"
    $H new-session -d -s "$name" -x 100 -y 30 \
        "cd '$top' && echo \$\$ >'$WORK/$name.pid' && $prefix exec env XDG_STATE_HOME='$HUPSTATE' TERM=xterm-256color '$BIN' $* 2>'$WORK/$name.err'"
}
hcap() { $H capture-pane -p -t "$1" 2>/dev/null; }
hwait() { # hwait NAME TEXT: the screen shows TEXT before the deadline
    d=$(deadline)
    while before "$d"; do
        hcap "$1" | grep -qF -- "$2" && return 0
        sleep 0.1
    done
    return 1
}
hkeys() { n=$1; shift; $H send-keys -t "$n" "$@"; }
# gone_within PID SECONDS: the process ended within SECONDS.
gone_within() {
    end=$(( $(date +%s) + $2 ))
    while [ "$(date +%s)" -le "$end" ]; do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}
# cpu_of PID: its CPU seconds so far (utime + stime, in clock ticks).
ticks_of() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
# recovered: the newest stopped journal, recovered in batch mode, holds
# the edit (map counts {100 28}: block 50 on cpu0; lb had it on gpu0).
recovered() {
    cat >"$WORK/hup-recover.tcl" <<'EOF'
foreach d [session journals] {
    if {![dict get $d live] && [llength [dict get $d unsaved]]} { session recover [dict get $d file]; break }
}
puts "block50=[map get 50]"
EOF
    XDG_STATE_HOME="$HUPSTATE" "$BIN" -b "$WORK/hup-recover.tcl" 2>&1 | grep -q "block50=cpu0"
}

# 1. Idle, after an edit: the server killed, the workbench gone.
hup_start hupidle "" samples/cuboid-cpu-gpu.json
if hwait hupidle "Console" && [ -s "$WORK/hupidle.pid" ]; then
    pid=$(cat "$WORK/hupidle.pid")
    hkeys hupidle : "map counts {100 28}" Enter
    hwait hupidle "% map counts" || bad "hangup idle edit" "$(hcap hupidle | tail -3)"
    sleep 0.3
    $H kill-server
    if gone_within "$pid" 3; then ok "hang-up while idle: gone within 3 s"
    else bad "hang-up idle" "pid $pid still running 3 s after the terminal went"; kill -9 "$pid" 2>/dev/null; fi
    recovered && ok "hang-up while idle: the journal recovers the edit" ||
        bad "hang-up idle journal" "$(ls -l "$HUPSTATE"/stencilmap 2>&1 | tail -3)"
else
    bad "hangup idle start" "$(hcap hupidle | tail -3)"
fi

# 2. Inside a long command, SIGHUP ignored (nohup): only the dead
# terminal itself can end it, and it does, without spinning.
rm -f "$HUPSTATE"/stencilmap/*.journal
hup_start huplong "trap '' HUP;" samples/cuboid-cpu-gpu.json
if hwait huplong "Console" && [ -s "$WORK/huplong.pid" ]; then
    pid=$(cat "$WORK/huplong.pid")
    hkeys huplong : "map counts {100 28}" Enter
    hwait huplong "% map counts"
    hkeys huplong : "solver start tabu -iters 100000000" Enter
    hwait huplong "% solver start tabu"
    hkeys huplong : "solver run" Enter
    hwait huplong "% solver run" || bad "hangup long run" "$(hcap huplong | tail -3)"
    sleep 1
    $H kill-server
    t0=$(ticks_of "$pid")
    if gone_within "$pid" 3; then ok "hang-up inside solver run (SIGHUP ignored): gone within 3 s"
    else
        t1=$(ticks_of "$pid")
        bad "hang-up long" "pid $pid still running 3 s after the terminal went (cpu ticks $t0 -> $t1)"
        kill -9 "$pid" 2>/dev/null
    fi
    grep -q "terminal hung up" "$WORK/huplong.err" && ok "hang-up inside solver run: says the terminal hung up" ||
        bad "hang-up long message" "$(cat "$WORK/huplong.err" | tail -3)"
    recovered && ok "hang-up inside solver run: the journal recovers the edit" ||
        bad "hang-up long journal" "$(ls -l "$HUPSTATE"/stencilmap 2>&1 | tail -3)"
else
    bad "hangup long start" "$(hcap huplong | tail -3)"
fi

# 3. At the recovery question (the journal of 2 is offered): SIGTERM,
# then a hang-up, each ends it; the offered journal stays.
for how in term hangup; do
    hup_start "hupq$how" "" samples/cuboid-cpu-gpu.json
    if hwait "hupq$how" "Recover it?" && [ -s "$WORK/hupq$how.pid" ]; then
        pid=$(cat "$WORK/hupq$how.pid")
        sleep 0.5
        if [ $how = term ]; then kill -TERM "$pid"; else $H kill-server; fi
        if gone_within "$pid" 3; then ok "$how at the recovery question: gone within 3 s"
        else bad "$how at the question" "pid $pid still running after 3 s"; kill -9 "$pid" 2>/dev/null; fi
        recovered && ok "$how at the recovery question: the offered journal is kept" ||
            bad "$how question journal" "$(ls -l "$HUPSTATE"/stencilmap 2>&1 | tail -3)"
    else
        bad "hupq$how start" "no recovery question: $(hcap "hupq$how" | tail -3)"
    fi
    $H kill-server 2>/dev/null
done

# 4. SIGTERM inside a command that never looks at the terminal nor
# returns to the loop (a long load does not; a script's own loop of 2e9
# steps stands for it): the watchdog ends it within a second, the edit
# before it in the journal.
rm -f "$HUPSTATE"/stencilmap/*.journal
hup_start hupterm "" samples/cuboid-cpu-gpu.json
if hwait hupterm "Console" && [ -s "$WORK/hupterm.pid" ]; then
    pid=$(cat "$WORK/hupterm.pid")
    hkeys hupterm : "map counts {100 28}" Enter
    hwait hupterm "% map counts"
    hkeys hupterm : "for {set i 0} {\$i < 2000000000} {incr i} {}" Enter
    hwait hupterm "% for {set i 0}"
    sleep 0.5
    kill -TERM "$pid"
    if gone_within "$pid" 3; then ok "SIGTERM inside a long command: gone within 3 s"
    else bad "SIGTERM long" "pid $pid still running 3 s after SIGTERM"; kill -9 "$pid" 2>/dev/null; fi
    grep -q "during a long command" "$WORK/hupterm.err" && ok "SIGTERM inside a long command: says where the journal is" ||
        bad "SIGTERM long message" "$(tail -3 "$WORK/hupterm.err")"
    recovered && ok "SIGTERM inside a long command: the journal recovers the edit" ||
        bad "SIGTERM long journal" "$(ls -l "$HUPSTATE"/stencilmap 2>&1 | tail -3)"
else
    bad "hupterm start" "$(hcap hupterm | tail -3)"
fi
$H kill-server 2>/dev/null

# 5. The terminal killed inside that same command, SIGHUP ignored: no
# signal and no read of the terminal ends it, only the watchdog seeing
# the hang-up; gone within a few seconds, the edit in the journal.
rm -f "$HUPSTATE"/stencilmap/*.journal
hup_start hupbusy "trap '' HUP;" samples/cuboid-cpu-gpu.json
if hwait hupbusy "Console" && [ -s "$WORK/hupbusy.pid" ]; then
    pid=$(cat "$WORK/hupbusy.pid")
    hkeys hupbusy : "map counts {100 28}" Enter
    hwait hupbusy "% map counts"
    hkeys hupbusy : "for {set i 0} {\$i < 2000000000} {incr i} {}" Enter
    hwait hupbusy "% for {set i 0}"
    sleep 0.5
    $H kill-server
    if gone_within "$pid" 3; then ok "hang-up inside a long command (SIGHUP ignored): gone within 3 s"
    else bad "hang-up busy" "pid $pid still running 3 s after the terminal went"; kill -9 "$pid" 2>/dev/null; fi
    recovered && ok "hang-up inside a long command: the journal recovers the edit" ||
        bad "hang-up busy journal" "$(ls -l "$HUPSTATE"/stencilmap 2>&1 | tail -3)"
else
    bad "hupbusy start" "$(hcap hupbusy | tail -3)"
fi
$H kill-server 2>/dev/null
rm -rf "$HUPSTATE"
