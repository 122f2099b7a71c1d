/* optimal_partitioning_ref.h - an independent exact reference for the partition problem
 * of popta: a dynamic programme over processors and blocks left, sharing
 * nothing with the solution tree. Used by test_optimal_partitioning and bench_optimal_partitioning. */
#ifndef SM_OPTIMAL_PARTITIONING_REF_H
#define SM_OPTIMAL_PARTITIONING_REF_H

#include <math.h>
#include <stdlib.h>

typedef struct { int size; double time, energy; } ref_pt;
typedef struct { int n; ref_pt *pts; } ref_proc; /* size 0 implied */

/* Least max (op 0, of time) or sum (op 1, of energy) over distributions
 * of n blocks using only points with time <= T; counts filled; INFINITY
 * when none. */
static double ref_dp(const ref_proc *pr, int P, int n, int op, double T, int *counts)
{
    size_t W = (size_t)n + 1;
    double *f = malloc(sizeof(double) * W * (size_t)(P + 1));
    int *ch = malloc(sizeof(int) * W * (size_t)P);
    for (int r = 0; r <= n; r++) f[(size_t)P * W + (size_t)r] = r == 0 ? 0 : INFINITY;
    for (int i = P - 1; i >= 0; i--) {
        double *fi = &f[(size_t)i * W], *fn = &f[(size_t)(i + 1) * W];
        for (int r = 0; r <= n; r++) { fi[r] = fn[r]; ch[(size_t)i * W + (size_t)r] = 0; }
        for (int k = 0; k < pr[i].n; k++) {
            const ref_pt *q = &pr[i].pts[k];
            if (q->time > T) continue;
            double c = op ? q->energy : q->time;
            for (int r = q->size; r <= n; r++) {
                double sub = fn[r - q->size];
                if (!(sub < INFINITY)) continue;
                double v = op ? c + sub : (c > sub ? c : sub);
                if (v < fi[r]) { fi[r] = v; ch[(size_t)i * W + (size_t)r] = q->size; }
            }
        }
    }
    double best = f[n];
    if (counts) {
        int r = n;
        for (int i = 0; i < P; i++) { counts[i] = ch[(size_t)i * W + (size_t)r]; r -= counts[i]; }
    }
    free(f);
    free(ch);
    return best;
}

#endif
