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
    "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    p=${p:-0}; f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
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
    if "$t" "$dir"/* >"$log" 2>&1; then
        echo "fuzz replay $name: $(wc -l <"$log") inputs ok"
        add 1 0
    else
        cat "$log"
        echo "fuzz replay $name: FAILED"
        add 0 1
    fi
done

# Script suites (tcltest) through the sanitized program.
"$B"/san/stencilmap -b tests/script/all.tcl >"$log" 2>&1
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
    sh tests/screen/run.sh >"$log" 2>&1
    cat "$log"
    p=$(sed -n 's/^screen: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^screen: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -1)
    add "${p:-0}" "${f:-1}"
fi

# Packaging: make install under DESTDIR, man pages, documents, build flags,
# tools/deps.sh.
if [ -f tests/install/run.sh ]; then
    sh tests/install/run.sh >"$log" 2>&1
    cat "$log"
    p=$(sed -n 's/^install: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^install: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -1)
    add "${p:-0}" "${f:-1}"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
