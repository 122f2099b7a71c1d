#!/bin/sh
# safe_run.sh SECONDS [BIN] - fuzzes the safe interpreter's commands: runs
# tests/fuzz/safe_cmds.tcl under `BIN -safe -allow WORK -limit-time 600
# -limit-memory 1G -b` (the grants and limits in force) with seed after seed (2000
# commands each) for SECONDS, in a sandbox whose current directory holds
# symlinks out, dangling, looping and to /, next to an outside directory
# with a FIFO and files holding a secret. After every run: the program
# exited 0 (no sanitizer report, no crash, no hang past 15 minutes), the
# outside directory is byte for byte as it was, nothing named pwned
# exists, and no error quoted the secret. BIN defaults to the sanitized
# build. Prints runs, commands, seconds and failures; failing seeds are
# kept in the sandbox's log.
secs=${1:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${2:-$top/build/san/stencilmap}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "safe fuzz: $bin: no such program (make build/san/stencilmap)"; exit 1; }
count=2000
root=$(mktemp -d "${TMPDIR:-/tmp}/sm-safe-fuzz.XXXXXX")
# A copy: a rebuild of BIN while this runs must not fail a run.
cp "$bin" "$root/stencilmap" && bin=$root/stencilmap
out=$root/out
work=$root/work
mkdir -p "$out" "$work/in"
"$bin" -e "scenario save $out/s.json; grid save $out/g.json; topo save $out/t.json; map save $out/m.json; scenario save $work/in/s.json" \
    "$top/samples/cuboid-cpu-gpu.json" >/dev/null || { echo "safe fuzz: cannot make the sandbox"; exit 1; }
printf 'SAFE-FUZZ-SECRET first line\nmap set 0 1\n' >"$out/secret.tcl"
printf 'SAFE-FUZZ-SECRET\n' >"$out/victim.txt"
sed -i 's/"version"/"name": "SAFE-FUZZ-SECRET", "version"/' "$out/s.json"
mkfifo "$out/fifo"
ln -s ../out "$work/link"
ln -s ../out/dangled "$work/dangle"
ln -s loop2 "$work/loop1"
ln -s loop1 "$work/loop2"
ln -s self "$work/self"
ln -s / "$work/abs"
snapshot() { (cd "$out" && find . -printf '%p %y %s %T@\n' | sort && find . -type f -exec md5sum {} + | sort); }
before=$(snapshot)
log=$root/log
start=$(date +%s)
runs=0
fails=0
limits=0
seed=$(date +%s)
while [ $(( $(date +%s) - start )) -lt "$secs" ]; do
    seed=$((seed + 1))
    # With the grants and limits a user would give: the working directory
    # allowed, 10 minutes, 1 GB.
    (cd "$work" && timeout 900 "$bin" -safe -allow "$work" -limit-time 600 -limit-memory 1G \
        -b "$top/tests/fuzz/safe_cmds.tcl" "$seed" "$count" "$out") >"$root/run.out" 2>&1
    rc=$?
    runs=$((runs + 1))
    bad=""
    # Reaching a limit ends a run with status 1 and says which: that is
    # the limit working (counted), not a failure.
    if [ "$rc" -eq 1 ] && grep -aq "past its time limit\|past its memory limit\|past the safe script's memory limit\|past what Tcl can hold" "$root/run.out"; then
        limits=$((limits + 1))
    elif [ "$rc" -ne 0 ]; then
        bad="exit $rc"
    fi
    grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$root/run.out" && bad="$bad sanitizer"
    [ "$(snapshot)" = "$before" ] || bad="$bad outside-changed"
    [ -n "$(find "$root" -name pwned)" ] && bad="$bad pwned"
    # No name a safe script made holds a control character.
    [ -n "$(find "$work" -name '*[[:cntrl:]]*' | head -1)" ] && bad="$bad control-name"
    # A limit is an error, never a crash (Tcl's panic is SIGABRT: 134).
    [ "$rc" -ge 128 ] && bad="$bad signal-$((rc - 128))"
    if [ -n "$bad" ]; then
        fails=$((fails + 1))
        { echo "== seed $seed: $bad"; tail -40 "$root/run.out"; } >>"$log"
        # Put the sandbox back for the next seed.
        before=$(snapshot)
    fi
    # What a run wrote in the current directory goes; the links stay.
    find "$work" -mindepth 1 -maxdepth 1 ! -name in ! -name link ! -name dangle ! -name loop1 \
        ! -name loop2 ! -name self ! -name abs -exec rm -rf {} +
done
elapsed=$(( $(date +%s) - start ))
echo "safe fuzz: $runs runs, $((runs * count)) commands, ${elapsed} s, $limits ended at a limit, $fails failing"
[ "$fails" -eq 0 ] && rm -rf "$root" || echo "safe fuzz: details in $log"
[ "$fails" -eq 0 ]
