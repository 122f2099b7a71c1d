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

# hup_ready NAME: its screen came up and its pid is known (in $pid).
hup_ready() {
    hwait "$1" "$2" && [ -s "$WORK/$1.pid" ] || return 1
    pid=$(cat "$WORK/$1.pid")
}
# hup_edit NAME: the edit every case expects the journal to recover.
hup_edit() {
    hkeys "$1" : "map counts {100 28}" Enter
    hwait "$1" "% map counts"
}
# hup_type NAME COMMAND: type a console command and wait for its echo.
hup_type() {
    hkeys "$1" : "$2" Enter
    hwait "$1" "% $(printf %.15s "$2")"
}
# hup_end HOW LABEL: end $pid (term: SIGTERM; hangup: kill its terminal)
# and check it is gone within 3 s; LABEL names the case.
hup_end() {
    t0=$(ticks_of "$pid")
    if [ "$1" = term ]; then kill -TERM "$pid"; else $H kill-server; fi
    if gone_within "$pid" 3; then ok "$2: gone within 3 s"
    else
        bad "$2" "pid $pid still running 3 s after the $1 (cpu ticks $t0 -> $(ticks_of "$pid"))"
        kill -9 "$pid" 2>/dev/null
    fi
}
# hup_journal LABEL: the newest stopped journal recovers the edit.
hup_journal() {
    recovered && ok "$1" || bad "$1" "$(ls -l "$HUPSTATE"/stencilmap 2>&1 | tail -3)"
}
# hup_said FILE TEXT LABEL: the workbench's stderr says TEXT.
hup_said() {
    grep -q "$2" "$1" && ok "$3" || bad "$3" "$(tail -3 "$1")"
}

# 1. Idle, after an edit: the server killed, the workbench gone.
hup_start hupidle "" samples/cuboid-cpu-gpu.json
if hup_ready hupidle "Console"; then
    hup_edit hupidle || bad "hangup idle edit" "$(hcap hupidle | tail -3)"
    sleep 0.3
    hup_end hangup "hang-up while idle"
    hup_journal "hang-up while idle: the journal recovers the edit"
else
    bad "hangup idle start" "$(hcap hupidle | tail -3)"
fi

# 2. Inside a long command, SIGHUP ignored (nohup): only the dead
# terminal itself can end it, and it does, without spinning.
rm -f "$HUPSTATE"/stencilmap/*.journal
hup_start huplong "trap '' HUP;" samples/cuboid-cpu-gpu.json
if hup_ready huplong "Console"; then
    hup_edit huplong
    hup_type huplong "solver start tabu -iters 100000000"
    hup_type huplong "solver run" || bad "hangup long run" "$(hcap huplong | tail -3)"
    sleep 1
    hup_end hangup "hang-up inside solver run (SIGHUP ignored)"
    hup_said "$WORK/huplong.err" "terminal hung up" "hang-up inside solver run: says the terminal hung up"
    hup_journal "hang-up inside solver run: the journal recovers the edit"
else
    bad "hangup long start" "$(hcap huplong | tail -3)"
fi

# 3. At the recovery question (the journal of 2 is offered): SIGTERM,
# then a hang-up, each ends it; the offered journal stays.
for how in term hangup; do
    hup_start "hupq$how" "" samples/cuboid-cpu-gpu.json
    if hup_ready "hupq$how" "Recover it?"; then
        sleep 0.5
        hup_end $how "$how at the recovery question"
        hup_journal "$how at the recovery question: the offered journal is kept"
    else
        bad "hupq$how start" "no recovery question: $(hcap "hupq$how" | tail -3)"
    fi
    $H kill-server 2>/dev/null
done

# 4. SIGTERM inside a command that never looks at the terminal nor
# returns to the loop (a long load does not; a script's own loop of 2e9
# steps stands for it): the watchdog ends it within a second, the edit
# before it in the journal.
busy_loop='for {set i 0} {$i < 2000000000} {incr i} {}'
rm -f "$HUPSTATE"/stencilmap/*.journal
hup_start hupterm "" samples/cuboid-cpu-gpu.json
if hup_ready hupterm "Console"; then
    hup_edit hupterm
    hup_type hupterm "$busy_loop"
    sleep 0.5
    hup_end term "SIGTERM inside a long command"
    hup_said "$WORK/hupterm.err" "during a long command" "SIGTERM inside a long command: says where the journal is"
    hup_journal "SIGTERM inside a long command: the journal recovers the edit"
else
    bad "hupterm start" "$(hcap hupterm | tail -3)"
fi
$H kill-server 2>/dev/null

# 5. The terminal killed inside that same command, SIGHUP ignored: no
# signal and no read of the terminal ends it, only the watchdog seeing
# the hang-up; gone within a few seconds, the edit in the journal.
rm -f "$HUPSTATE"/stencilmap/*.journal
hup_start hupbusy "trap '' HUP;" samples/cuboid-cpu-gpu.json
if hup_ready hupbusy "Console"; then
    hup_edit hupbusy
    hup_type hupbusy "$busy_loop"
    sleep 0.5
    hup_end hangup "hang-up inside a long command (SIGHUP ignored)"
    hup_journal "hang-up inside a long command: the journal recovers the edit"
else
    bad "hupbusy start" "$(hcap hupbusy | tail -3)"
fi
$H kill-server 2>/dev/null
rm -rf "$HUPSTATE"
