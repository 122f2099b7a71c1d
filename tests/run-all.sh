#!/bin/sh
# run-all.sh BUILD - runs every suite and sums them into one closing line
# "N passed, N failed". Each suite's own output is shown as it runs.
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

add() { pass=$((pass + $1)); fail=$((fail + $2)); }

# Every suite runs under a time limit, so a hang (a deadlock in the thread
# pool, a prompt nobody answers) fails `make check` with the suite's name
# instead of stopping it for good. timeout(1) signals the suite's whole
# process group. The limits are several times each suite's usual time on
# a 2-core machine under the sanitizers; SM_LIMIT_UNIT (each unit suite and
# fuzz replay), SM_LIMIT_SCRIPT, SM_LIMIT_SCREEN and SM_LIMIT_INSTALL
# (seconds) change them.
lim_unit=${SM_LIMIT_UNIT:-900}
lim_script=${SM_LIMIT_SCRIPT:-3600}
lim_screen=${SM_LIMIT_SCREEN:-3600}
lim_install=${SM_LIMIT_INSTALL:-1800}
# limited SECONDS NAME COMMAND...: runs COMMAND, its output in $log; exit
# 124 when it ran past SECONDS (it is killed 10 s after the TERM).
limited() {
    secs=$1; name=$2; shift 2
    timeout -k 10 "$secs" "$@" </dev/null >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 124 ]; then
        echo "suite $name ran past its limit of $secs s and was stopped" >>"$log"
        return 124
    elif [ "$rc" -eq 137 ]; then
        # KILL: 10 s after the limit's TERM was ignored, or from elsewhere
        # (the kernel's out-of-memory killer).
        echo "suite $name was killed (SIGKILL: past its limit of $secs s and deaf to TERM, or out of memory)" >>"$log"
        return 124
    fi
    return "$rc"
}

# The layout's rules (tools/check-layout.tcl): every folder in its layer,
# includes pointing down, no circle between files.
tclsh8.6 tools/check-layout.tcl "$B" >"$log" 2>&1
cat "$log"
p=$(sed -n 's/^layout: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log")
f=$(sed -n 's/^layout: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log")
add "${p:-0}" "${f:-1}"

# cmocka unit suites (sanitized).
for t in $(find "$B"/san/tests -type f -name 'test_*' | sort); do
    [ -x "$t" ] || continue
    limited "$lim_unit" "$(basename "$t")" "$t"
    rc=$?
    cat "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    p=${p:-0}; f=${f:-0}
    if [ "$rc" -eq 124 ]; then
        f=$((f + 1))
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "suite $(basename "$t") crashed (exit $rc)"
        f=1
    fi
    add "$p" "$f"
done

# Fuzz corpus replay (sanitized): every seed and every saved crash input.
for t in "$B"/san/fuzz/fuzz_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    dir=tests/fuzz/corpus/${name#fuzz_}
    if limited "$lim_unit" "$name" "$t" "$dir"/*; then
        echo "fuzz replay $name: $(wc -l <"$log") inputs ok"
        add 1 0
    else
        cat "$log"
        echo "fuzz replay $name: FAILED"
        add 0 1
    fi
done

# Script suites (tcltest) through the sanitized program.
limited "$lim_script" script "$B"/san/stencilmap -b tests/script/all.tcl
rc=$?
cat "$log"
line=$(grep -E '^all.tcl:[[:space:]]+Total' "$log" | tail -1)
if [ -n "$line" ]; then
    p=$(echo "$line" | sed -n 's/.*Passed[[:space:]]*\([0-9]*\).*/\1/p')
    f=$(echo "$line" | sed -n 's/.*Failed[[:space:]]*\([0-9]*\).*/\1/p')
    add "${p:-0}" "${f:-0}"
    [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ] && { echo "script suites exited $rc"; add 0 1; }
else
    echo "script suites did not report (exit $rc)"
    add 0 1
fi

# Screen tests (tmux), when present.
if [ -x tests/screen/run.sh ]; then
    limited "$lim_screen" screen sh tests/screen/run.sh
    cat "$log"
    p=$(sed -n 's/^screen: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^screen: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -1)
    add "${p:-0}" "${f:-1}"
fi

# Packaging: make install under DESTDIR, man pages, documents, build flags,
# tools/deps.sh.
if [ -f tests/install/run.sh ]; then
    limited "$lim_install" install sh tests/install/run.sh
    cat "$log"
    p=$(sed -n 's/^install: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^install: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -1)
    add "${p:-0}" "${f:-1}"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
