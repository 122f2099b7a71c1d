#!/bin/sh
# run.sh SECONDS [NAME...] - builds each loader's libFuzzer target (or
# only fuzz_NAME for each NAME given) with clang
# (AddressSanitizer + UBSan) and runs it for SECONDS on a copy of its seed
# corpus. New crashing inputs are left in tests/fuzz/work/; add them to the
# corpus once fixed so `make check` replays them.
set -e
secs=${1:-60}
[ $# -gt 0 ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
command -v clang >/dev/null || { echo "fuzz: clang is needed (apt-get install clang)"; exit 1; }
mkdir -p tests/fuzz/work
src=$(find core -name '*.c' | sort)
targets=tests/fuzz/fuzz_*.c
[ $# -gt 0 ] && targets=$(for n in "$@"; do echo "tests/fuzz/fuzz_${n#fuzz_}.c"; done)
for t in $targets; do
    name=$(basename "$t" .c)
    corpus=tests/fuzz/corpus/${name#fuzz_}
    work=tests/fuzz/work/${name#fuzz_}
    mkdir -p "$work"
    cp "$corpus"/* "$work"/ 2>/dev/null || true
    extra=""
    [ "$name" = fuzz_theme ] && extra="tui/app/colour_theme.c tui/app/installed_data_directory.c"
    clang -std=c11 -I. -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 -g -O1 -fsanitize=fuzzer,address,undefined,float-divide-by-zero -fno-sanitize-recover=all \
        -o tests/fuzz/work/$name "$t" $src $extra -lcjson -lz -lm
    echo "== $name: ${secs}s"
    (cd tests/fuzz/work && ./$name -max_total_time="$secs" -max_len=65536 -timeout=120 -rss_limit_mb=4096 \
        -artifact_prefix="$name-" "${name#fuzz_}" 2>&1 | tail -3)
done
