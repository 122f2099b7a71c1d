#!/bin/sh
# deps.sh - what stencilmap needs, checked first: by the files and commands
# each package provides (so it works where dpkg is not the package manager),
# then only what is missing is installed, with apt-get as root or through
# sudo, saying which packages only the tests need. Where apt-get is not
# there (or may not be used) it prints what to install and exits 1.
#
#   tools/deps.sh            build + test needs (make check, make run)
#   tools/deps.sh --bench    also the benchmarks' peers (METIS, Scotch)
#   tools/deps.sh --slurm    also Slurm and MUNGE (CI's check-slurm)
#   tools/deps.sh --check    report only, never install (also when
#                            STENCILMAP_NO_INSTALL=1)
# The one list (tools/ci-debian-packages.txt): .ci/run, `make run` and `make
# check` all use it.
set -u
bench=0
slurm=0
check=${STENCILMAP_NO_INSTALL:-0}
for a in "$@"; do
    case $a in
    --bench) bench=1 ;;
    --slurm) slurm=1 ;;
    --check) check=1 ;;
    *) echo "usage: tools/deps.sh [--bench] [--slurm] [--check]" >&2; exit 2 ;;
    esac
done

# The list itself: tools/ci-debian-packages.txt (PACKAGE ROLE CHECK WHAT, its
# head says what each field means), beside this script.
case $0 in */*) list=${0%/*}/ci-debian-packages.txt ;; *) list=ci-debian-packages.txt ;; esac
[ -r "$list" ] || { echo "stencilmap: $list: the package list is missing" >&2; exit 2; }

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
while read -r pkg role chk desc; do
    case $pkg in ''|'#'*) continue ;; esac
    [ "$role" = bench ] && [ $bench = 0 ] && continue
    [ "$role" = slurm ] && [ $slurm = 0 ] && continue
    have "$chk" && continue
    echo "$pkg $role $desc"
done < "$list" > "${TMPDIR:-/tmp}/stencilmap-deps.$$"
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
