#!/bin/sh
# run.sh - packaging as a user and a packager meet it: make install with
# PREFIX=/usr and DESTDIR after a plain make, the installed program run from
# elsewhere (its themes and samples found), man pages naming the installed
# paths with EXIT STATUS, ENVIRONMENT and FILES, the documents (LICENSE,
# CHANGELOG, CITATION.cff), CFLAGS/LDFLAGS and pkg-config in the build
# commands, and tools/deps.sh checking before it installs.
# Ends with "install: N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d /tmp/stencilmap-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
has() { grep -q -- "$2" "$1" 2>/dev/null; }

# 1. make install PREFIX=/usr DESTDIR=... after the plain make (built with
# the default PREFIX=/usr/local).
if make --no-print-directory -s install PREFIX=/usr DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1; then
    ok "make install PREFIX=/usr DESTDIR=$tmp/root"
else
    bad "make install failed: $(tail -3 "$tmp/install.log")"
fi
bin=$tmp/root/usr/bin/stencilmap
data=$tmp/root/usr/share/stencilmap
[ -x "$bin" ] && [ -f "$data/themes/light.json" ] && [ -f "$data/samples/summit-like.json" ] && [ -f "$data/samples/profiles/gpu-measured.csv" ] &&
    [ -f "$data/scripts/study-slurm-submit.sh" ] && ok "binary, themes, samples, scripts under DESTDIR/usr" ||
    bad "installed tree incomplete: $(cd "$tmp/root" && find . -maxdepth 4 | head -20)"
[ -z "$(find "$tmp/root" -path '*usr/local*' | head -1)" ] && ok "nothing under usr/local" || bad "files under usr/local"

# 2. The installed program from another directory: its data is found
# relative to itself, not at the /usr/local compiled in.
mkdir -p "$tmp/elsewhere"
out=$(cd "$tmp/elsewhere" && env -u STENCILMAP_DATADIR -u STENCILMAP_THEMES "$bin" -e \
      'list [theme list] [theme load light] [llength [map list]]' summit-like.json 2>&1)
case $out in
*colorblind*light*"light 1024"*) ok "installed program finds its themes and samples: $out" ;;
*) bad "installed program from elsewhere: $out" ;;
esac
out=$(cd "$tmp/elsewhere" && env -u STENCILMAP_DATADIR -u STENCILMAP_THEMES "$bin" -e 'theme load nosuch' 2>&1)
case $out in
*"$data/themes"*) ok "its data directory is the installed one ($data)" ;;
*) bad "theme search does not name $data/themes: $out" ;;
esac

# 3. Man pages: installed paths, the new sections.
man1=$tmp/root/usr/share/man/man1/stencilmap.1
if has "$man1" '/usr/share/stencilmap/themes' && ! has "$man1" '/usr/local/share'; then
    ok "stencilmap(1) names /usr/share/stencilmap, not /usr/local"
else
    bad "stencilmap(1) paths: $(grep -n 'share/stencilmap' "$man1" | head -3)"
fi
for s in 'EXIT STATUS' ENVIRONMENT FILES; do
    has "$man1" "^\.SH $s" && ok "stencilmap(1) has $s" || bad "stencilmap(1) lacks $s"
done
lacks=""
for v in XDG_STATE_HOME TERM NO_COLOR STENCILMAP_DATADIR STENCILMAP_THEMES STENCILMAP_STUDY_SHARDS; do
    sed -n '/^\.SH ENVIRONMENT/,/^\.SH FILES/p' "$man1" | grep -q "^\.B.*$v" || lacks="$lacks $v"
done
[ -z "$lacks" ] && ok "ENVIRONMENT names XDG_STATE_HOME TERM NO_COLOR STENCILMAP_*" || bad "ENVIRONMENT lacks$lacks"
for m in man5/stencilmap-formats.5 man7/stencilmap-script.7 man7/stencilmap-model.7; do
    [ -f "$tmp/root/usr/share/man/$m" ] || bad "$m not installed"
done
stale=""
for m in "$tmp"/root/usr/share/man/man*/stencilmap*; do
    head -1 "$m" | grep -q "\"stencilmap $(cat VERSION)\"" || stale="$stale ${m##*/}"
done
[ -z "$stale" ] && ok "every installed man page's footer says stencilmap $(cat VERSION)" ||
    bad "man page footers not at $(cat VERSION):$stale"
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$man1" 2>/dev/null | grep -q '^EXIT STATUS' && ok "man -l renders EXIT STATUS" ||
        bad "man -l does not render EXIT STATUS"
fi

# 4. The documents, installed too; the citation names the published work.
doc=$tmp/root/usr/share/doc/stencilmap
for f in LICENSE CHANGELOG.md CITATION.cff README.md; do
    [ -s "$doc/$f" ] || bad "$f not installed in $doc"
done
n=0
for t in 'Energy-aware resource management for stencil computations in HPC' \
         'Energy aware scheduling model and online heuristics for stencil codes' \
         'Cluster Computing' 'Process-to-Node Mapping Strategies for the HAEC Box' \
         'Khaleghzadeh' 'Scientific Programming'; do
    has CITATION.cff "$t" && n=$((n + 1))
done
[ $n -eq 6 ] && has CITATION.cff '^cff-version: 1.2.0' && ok "CITATION.cff cites the program and the 5 published works" ||
    bad "CITATION.cff: $n of 6 citations"
has LICENSE 'Permission is hereby granted' && has CHANGELOG.md "^## $(cat VERSION) " &&
    ok "LICENSE, CHANGELOG.md has the version $(cat VERSION)" || bad "LICENSE or CHANGELOG entry for $(cat VERSION) missing"

# 5. CFLAGS, LDFLAGS, CPPFLAGS reach the commands; libraries by pkg-config.
make --no-print-directory -n -B stencilmap CFLAGS=-DSM_PKG_TEST_CFLAG CPPFLAGS=-DSM_PKG_TEST_CPP \
    LDFLAGS=-Wl,-O1,--sort-common >"$tmp/dry" 2>&1
grep 'tui/main.c' "$tmp/dry" | grep -q -- '-DSM_PKG_TEST_CFLAG' && grep 'tui/main.c' "$tmp/dry" | grep -q -- '-DSM_PKG_TEST_CPP' &&
    ok "CFLAGS and CPPFLAGS in the compile commands" || bad "CFLAGS/CPPFLAGS not in: $(grep 'tui/main.c' "$tmp/dry")"
grep -- '-o stencilmap' "$tmp/dry" | grep -q -- '-Wl,-O1,--sort-common' && ok "LDFLAGS in the link command" ||
    bad "LDFLAGS not in: $(grep -- '-o stencilmap' "$tmp/dry")"
if pkg-config --exists ncursesw 2>/dev/null; then
    want=$(pkg-config --libs ncursesw)
    grep -- '-o stencilmap' "$tmp/dry" | grep -q -- "$want" && ok "ncursesw linked as pkg-config says ($want)" ||
        bad "link line lacks pkg-config's $want"
    make --no-print-directory -n -B stencilmap PKG_CONFIG=false >"$tmp/dry2" 2>&1
    grep -- '-o stencilmap' "$tmp/dry2" | grep -q -- '-lncursesw -lcjson\|-lncursesw .*-lcjson' &&
        ok "without pkg-config: the Debian library names" || bad "PKG_CONFIG=false link: $(grep -- '-o stencilmap' "$tmp/dry2")"
fi

# 6. tools/deps.sh checks first: nothing to do here says nothing; without
# tmux and without apt-get it installs nothing and says what to install.
out=$(sh tools/deps.sh 2>&1)
rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && ok "deps.sh: everything present, nothing installed, nothing said" ||
    bad "deps.sh on this machine: rc $rc: $out"
mkdir -p "$tmp/path"
for c in sh gcc make pkg-config parallel gnuplot rm id cat; do
    p=$(command -v $c) && ln -s "$p" "$tmp/path/$c"
done
out=$(PATH=$tmp/path sh tools/deps.sh 2>&1)
rc=$?
case "$rc:$out" in
1:*"no apt-get"*"tmux: tmux (screen tests)"*) ok "deps.sh without tmux and apt-get: says what to install, exit 1" ;;
*) bad "deps.sh without tmux and apt-get: rc $rc: $out" ;;
esac
out=$(PATH=$tmp/path STENCILMAP_NO_INSTALL=1 sh tools/deps.sh 2>&1)
rc=$?
case "$rc:$out" in
1:*"missing"*"tmux"*) ok "STENCILMAP_NO_INSTALL=1: reports, installs nothing" ;;
*) bad "STENCILMAP_NO_INSTALL=1: rc $rc: $out" ;;
esac

echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
