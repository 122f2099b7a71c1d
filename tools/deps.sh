#!/bin/sh
# deps.sh - install the Debian packages stencilmap needs, when missing:
# with apt-get as root, through sudo otherwise; when neither works, print
# the exact package list and stop.
# The one list: .ci/run and `make run`/`make check` all install from here.
PKGS="gcc make libc6-dev libncurses-dev libcjson-dev liblpsolve55-dev tcl8.6-dev libcmocka-dev tmux locales parallel libhwloc-dev gnuplot-nox"
# The benchmarks' peers (make bench), not needed to build or check:
# `tools/deps.sh --bench` installs them too.
BENCH_PKGS="metis scotch"
[ "${1:-}" = "--bench" ] && PKGS="$PKGS $BENCH_PKGS"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "stencilmap: installing missing packages:$missing"
if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "stencilmap: cannot install as $(id -un) (no root, no sudo). Install these Debian packages:" >&2
    echo "   $missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing >/dev/null || {
    echo "stencilmap: apt-get failed; install these Debian packages:$missing" >&2
    exit 1
}
