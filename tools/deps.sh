#!/bin/sh
# deps.sh - what stencilmap needs, checked first: by the files and commands
# each package provides (so it works where dpkg is not the package manager),
# then only what is missing is installed, with apt-get as root or through
# sudo, saying which packages only the tests need. Where apt-get is not
# there (or may not be used) it prints what to install and exits 1.
#
#   tools/deps.sh            build + test needs (make check, make run)
#   tools/deps.sh --bench    also the benchmarks' peers (METIS, Scotch)
#   tools/deps.sh --check    report only, never install (also when
#                            STENCILMAP_NO_INSTALL=1)
# The one list: .ci/run, `make run` and `make check` all use it.
set -u
bench=0
check=${STENCILMAP_NO_INSTALL:-0}
for a in "$@"; do
    case $a in
    --bench) bench=1 ;;
    --check) check=1 ;;
    *) echo "usage: tools/deps.sh [--bench] [--check]" >&2; exit 2 ;;
    esac
done

# PACKAGE ROLE CHECK WHAT: ROLE build|test|optional|bench; CHECK cmd:NAME,
# hdr:PATH or pc:NAME; WHAT says it for someone without Debian.
REQS="
gcc build cmd:gcc a C11 compiler (gcc)
make build cmd:make GNU make
pkg-config build cmd:pkg-config pkg-config
libc6-dev build hdr:/usr/include/stdio.h the C library headers
libncurses-dev build hdr:/usr/include/curses.h ncursesw (wide-character curses) headers
libcjson-dev build hdr:/usr/include/cjson/cJSON.h cJSON headers
zlib1g-dev build hdr:/usr/include/zlib.h zlib headers and library (the compact mapping form)
liblpsolve55-dev build hdr:/usr/include/lpsolve/lp_lib.h lp_solve 5.5 headers and library
tcl8.6-dev build hdr:/usr/include/tcl8.6/tcl.h Tcl 8.6 headers and library
libhwloc-dev optional pc:hwloc hwloc (optional: topo detect, topo import -format hwloc)
hwloc test cmd:hwloc-calc hwloc-calc, hwloc-info and hwloc-bind (the hwloc corpus test compares the import with them; run launch -slurm binds srun ranks with hwloc-bind)
libcmocka-dev test hdr:/usr/include/cmocka.h cmocka (unit tests)
tmux test cmd:tmux tmux (screen tests)
locales test cmd:locale-gen a UTF-8 locale (screen tests)
parallel test cmd:parallel GNU parallel (study tests)
gnuplot-nox test cmd:gnuplot gnuplot (study plot tests)
openmpi-bin test cmd:mpirun Open MPI mpirun (stencilmap-run tests, run launch)
libopenmpi-dev test cmd:mpicc Open MPI mpicc and headers (builds stencilmap-run)
metis test cmd:gpmetis METIS gpmetis (the -tpwgts test, benchmarks)
scotch bench cmd:gmap Scotch gmap (benchmarks)
"

have() {
    case $1 in
    cmd:*) n=${1#cmd:}; command -v "$n" >/dev/null 2>&1 || [ -x "/usr/sbin/$n" ] || [ -x "/sbin/$n" ] ;;
    hdr:*) [ -f "${1#hdr:}" ] ;;
    pc:*) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "${1#pc:}" ;;
    esac
}

missing=""
testonly=""
what=""
nl='
'
echo "$REQS" | {
    while read -r pkg role chk desc; do
        [ -n "$pkg" ] || continue
        [ "$role" = bench ] && [ $bench = 0 ] && continue
        have "$chk" && continue
        echo "$pkg $role $desc"
    done
} > "${TMPDIR:-/tmp}/stencilmap-deps.$$"
while read -r pkg role desc; do
    missing="$missing $pkg"
    [ "$role" = test ] && testonly="$testonly $pkg"
    what="$what$nl   $pkg: $desc"
done < "${TMPDIR:-/tmp}/stencilmap-deps.$$"
rm -f "${TMPDIR:-/tmp}/stencilmap-deps.$$"
[ -z "$missing" ] && exit 0

if [ "$check" = 1 ]; then
    echo "stencilmap: missing (Debian package: what it provides):$what" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "stencilmap: missing, and no apt-get here to install it; install the equivalents" >&2
    echo "of these Debian packages with your system's package manager:$what" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "stencilmap: cannot install as $(id -un) (no root, no sudo without a password)." >&2
    echo "Install these Debian packages:$missing" >&2
    exit 1
fi
echo "stencilmap: installing missing Debian packages:$missing"
[ -n "$testonly" ] && echo "stencilmap: of these, only the tests use:$testonly (STENCILMAP_NO_INSTALL=1 to skip installing)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing >/dev/null || {
    echo "stencilmap: apt-get failed; install these Debian packages:$missing" >&2
    exit 1
}
