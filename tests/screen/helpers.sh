# helpers.sh - sourced by run.sh first: counting (ok, bad), starting the
# workbench in tmux (start, begin), keys and captures, waiting with a
# deadline (wait_for, settle, must), endings (ended, exited, must_end,
# must_exit), sanitizer reports, golden screens and colour marks.

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }

# start NAME COLS ROWS TERM ARGS...: the program in a fresh session; its
# exit status lands in $WORK/NAME.exit and stderr in $WORK/NAME.err.
start() {
    name=$1 cols=$2 rows=$3 term=$4
    shift 4
    $T kill-session -t "$name" 2>/dev/null
    # Each workbench its own state directory (journals): two running on
    # one sample would each say the other holds it, in the screen a
    # golden file compares. A session of the same name shares it (begin).
    $T new-session -d -s "$name" -x "$cols" -y "$rows" \
        "cd '$top' && XDG_STATE_HOME='$WORK/state/$name' TERM=$term '$BIN' $* 2>'$WORK/$name.err'; echo \$? >'$WORK/$name.exit'; sleep 30"
    must "$name" "Console"
}
# begin NAME ...: start, then keep this session when a workbench an
# earlier test ended (a session of the same name replaced) left its
# journal and the start offers it.
begin() {
    start "$@"
    if cap "$1" | grep -q "Recover it?"; then
        keys "$1" n
        d=$(deadline)
        while before "$d" && cap "$1" | grep -q "Recover it?"; do sleep 0.1; done
    fi
}
cap() { $T capture-pane -p -t "$1"; }
keys() { n=$1; shift; $T send-keys -t "$n" "$@"; }
# Deadlines are wall-clock seconds, not counts of polls: on a loaded
# machine (another check running on the same two cores) every capture and
# every step of the sanitized program is slower, and a count of 50 polls
# ran out long before the program was late. A wait returns as soon as its
# condition holds, so a passing run costs no more; only a wait that is
# going to fail takes the whole deadline. SCREEN_WAIT overrides (seconds).
WAIT=${SCREEN_WAIT:-30}
# deadline [SECONDS]: the wall-clock second a wait of SECONDS (WAIT) ends.
deadline() { echo $(( $(date +%s) + ${1:-$WAIT} )); }
before() { [ "$(date +%s)" -le "$1" ]; }
# wait_for NAME TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
    d=$(deadline "$3")
    while before "$d"; do
        cap "$1" 2>/dev/null | grep -qF -- "$2" && { sleep 0.1; return 0; }
        sleep 0.1
    done
    return 1
}
# settle NAME: until two captures 0.15 s apart agree; a screen still
# changing when the deadline passes fails the run.
settle() {
    prev=""
    d=$(deadline)
    while before "$d"; do
        cur=$(cap "$1")
        [ "$cur" = "$prev" ] && return 0
        prev=$cur
        sleep 0.15
    done
    bad "settle $1" "the screen was still changing after $WAIT s"
    return 1
}
# must NAME TEXT: a wait that fails the run when TEXT never shows (the
# steps after it would only fail for a reason they do not name).
must() {
    wait_for "$1" "$2" && return 0
    bad "wait $1" "never showed '$2': $(cap "$1" 2>/dev/null | tail -4)"
    return 1
}
# alive NAME MARK: the workbench read and ran every key sent before, and
# runs on: the result of a console line shows (a positive condition, not
# a pause after which nothing is seen to have happened). Leaves the
# console closed.
alive() {
    # The result is MARK upper-cased: the typed line itself never shows it.
    keys "$1" : "string toupper $2" Enter
    wait_for "$1" "$(echo "$2" | tr a-z A-Z)" || return 1
    keys "$1" Escape
    return 0
}
# golden NAME FILE: compare the screen with golden/FILE.
golden() {
    settle "$1"
    cap "$1" >"$WORK/$2"
    if [ -n "$UPDATE_GOLDEN" ]; then
        cp "$WORK/$2" "$GOLD/$2"
        ok "$2 (golden updated)"
    elif diff -u "$GOLD/$2" "$WORK/$2" >"$WORK/$2.diff"; then
        ok "$2"
    else
        bad "$2" "screen differs from $GOLD/$2:"
        cat "$WORK/$2.diff"
    fi
}
ended() { # ended NAME: the program ended before the deadline (any status)
    d=$(deadline)
    while before "$d"; do
        [ -f "$WORK/$1.exit" ] && return 0
        sleep 0.1
    done
    return 1
}
exited() { # exited NAME: the program ended, with status 0
    ended "$1" && [ "$(cat "$WORK/$1.exit")" = 0 ]
}
must_end() { # must_end NAME: ended, or the run fails
    ended "$1" && return 0
    bad "end $1" "still running after $WAIT s: $(cap "$1" 2>/dev/null | tail -3)"
    return 1
}
must_exit() { # must_exit NAME: ended with status 0, or the run fails
    exited "$1" && return 0
    bad "exit $1" "status '$(cat "$WORK/$1.exit" 2>/dev/null)': $(cap "$1" 2>/dev/null | tail -3)"
    return 1
}
no_sanitizer_errors() {
    if grep -q "ERROR: AddressSanitizer\|runtime error" "$WORK/$1.err" 2>/dev/null; then
        bad "$1 sanitizers" "$(head -20 "$WORK/$1.err")"
    else
        ok "$1 ran clean under ASan/UBSan"
    fi
}
# distinct_marks NAME: how many (background, bold, glyph) marks the Grid's
# block rows show, read from the escapes of the captured screen.
distinct_marks() {
    $T capture-pane -e -p -t "$1" | sed -n '4,12p' | awk -F'│' '{print $2}' | awk '
    { s = $0
      while (length(s) > 0) {
        if (match(s, /^\033\[[0-9;]*m/)) {
          n = split(substr(s, 3, RLENGTH - 3), a, ";")
          for (i = 1; i <= n; i++) {
            v = a[i] + 0
            if (a[i] == "" || v == 0) { bg = ""; bold = 0 }
            else if (v == 1) bold = 1
            else if (v == 22) bold = 0
            else if (v >= 40 && v <= 47) bg = v
            else if (v == 49) bg = ""
            else if (v == 48) { bg = "5;" a[i + 2]; i += 2 }
            else if (v == 38) i += 2
          }
          s = substr(s, RLENGTH + 1)
        } else {
          c = substr(s, 1, 1)
          if (c ~ /[0-9A-Za-z]/ && bg != "") seen[bg "/" bold "/" c] = 1
          s = substr(s, 2)
        }
      }
    }
    END { k = 0; for (m in seen) k++; print k }'
}
# The number after "total" in the Energy pane.
screen_energy() { cap "$1" | sed -n 's/.*total \([0-9.eE+-]*\) J.*/\1/p' | head -1; }

S=samples/cuboid-cpu-gpu.json
