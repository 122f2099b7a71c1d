#!/bin/sh
# run.sh - builds and runs every benchmark in tests/bench; tables only.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
mkdir -p build/bench
for b in tests/bench/bench_*.c; do
    name=$(basename "$b" .c)
    cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -I. -I/usr/include/lpsolve \
        -o build/bench/$name "$b" build/libsm.a -llpsolve55 -lcolamd -ldl -lcjson -lz -lm -pthread
    ./build/bench/$name
    echo
done
for s in tests/bench/bench_*.tcl; do
    [ -f "$s" ] || continue
    ./stencilmap -b "$s"
    echo
done
