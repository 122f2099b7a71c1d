/* bench_optimal_partitioning.c - popta at scale first: 64 processors with a noisy profile
 * point at every size (times and energies not monotone, energy unlike
 * time), n = 1 000 and 10 000, every objective against a peer run in the
 * same process: the exact DP for time and energy, a plain threshold sweep
 * (the exact DP at every distinct time from the least makespan on) for
 * pareto and total. Then the solution tree against the DP and lp_solve on
 * 100-point profiles, as processors and blocks grow. Times are CPU
 * seconds of this process (the machine is shared); ratios are peer/popta
 * from the same run. */
#define _POSIX_C_SOURCE 200809L
#include <lp_lib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/model/grid.h"
#include "core/model/topology.h"
#include "core/io/topology_file.h"
#include "solvers/stepper/solver_stepper.h"
#include "tests/unit/solvers/profile_partitioning/optimal_partitioning_ref.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double urand(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

/* m-point profiles over 1..n for P processors of different speeds. */
static void make_profiles(int P, int n, int m, unsigned long long seed, ref_proc *pr)
{
    for (int i = 0; i < P; i++) {
        double speed = 1 + 7 * urand(&seed), epb = 0.5 + urand(&seed);
        pr[i].pts = malloc(sizeof(ref_pt) * (size_t)m);
        pr[i].n = 0;
        int last = 0;
        for (int k = 1; k <= m; k++) {
            int x = (int)((double)k * n / m + (urand(&seed) - 0.5) * n / (2.0 * m));
            if (x <= last) x = last + 1;
            if (x > n) break;
            last = x;
            double noise = 1 + 0.3 * (urand(&seed) - 0.5);
            pr[i].pts[pr[i].n++] = (ref_pt){x, x / speed * noise, x * epb * (1 + 0.3 * (urand(&seed) - 0.5))};
        }
    }
}

static sm_topo *profile_topo(const ref_proc *pr, int P)
{
    size_t cap = 4096, len = 0;
    for (int i = 0; i < P; i++) cap += 200 + (size_t)pr[i].n * 64;
    char *b = malloc(cap);
    len += (size_t)snprintf(b + len, cap - len, "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{");
    for (int i = 0; i < P; i++) {
        len += (size_t)snprintf(b + len, cap - len, "%s\"t%d\":{\"p0\":%d,\"p_idle\":0,\"profile\":[", i ? "," : "",
                                i, 10 + 5 * (i % 4));
        for (int k = 0; k < pr[i].n; k++)
            len += (size_t)snprintf(b + len, cap - len, "%s[%d,%.17g,%.17g]", k ? "," : "", pr[i].pts[k].size,
                                    pr[i].pts[k].time, pr[i].pts[k].energy);
        len += (size_t)snprintf(b + len, cap - len, "]}");
    }
    len += (size_t)snprintf(b + len, cap - len, "},\"processors\":[");
    for (int i = 0; i < P; i++)
        len += (size_t)snprintf(b + len, cap - len, "%s{\"name\":\"p%d\",\"type\":\"t%d\",\"node\":%d}", i ? "," : "",
                                i, i, i / 4);
    len += (size_t)snprintf(b + len, cap - len,
                            "],\"network\":{\"kind\":\"tree\",\"group_sizes\":[64]},\"links\":{\"intra\":{\"*\":"
                            "{\"time_per_cell\":0,\"energy_per_cell\":0}},\"inter\":[{\"time_per_cell\":0,"
                            "\"energy_per_cell\":0},{\"time_per_cell\":0,\"energy_per_cell\":0}]}}");
    sm_err e;
    sm_topo *t = sm_topo_parse_text(b, len, "bench", &e);
    if (!t) fprintf(stderr, "topology: %s\n", e.msg);
    free(b);
    return t;
}

/* Run popta; returns seconds, the result's profile_time/energy. */
static double run_popta(const sm_grid *g, const sm_topo *t, const char *obj, int levels, double *time,
                        double *energy, int *nfront)
{
    sm_model m;
    sm_model_default(&m);
    int *start = calloc((size_t)g->ntasks, sizeof(int));
    char lv[8];
    snprintf(lv, sizeof lv, "%d", levels);
    const char *argv[] = {"-objective", obj, "-levels", lv};
    sm_err e;
    double t0 = now();
    sm_solver *s = sm_solver_new(&sm_solver_popta, g, t, &m, start, 4, argv, &e);
    if (!s) { fprintf(stderr, "popta: %s\n", e.msg); exit(1); }
    sm_solver_step(s, LLONG_MAX);
    double dt = now() - t0;
    *time = s->partition->time;
    *energy = s->partition->energy;
    if (nfront) *nfront = s->partition->nfront;
    sm_solver_free(s);
    free(start);
    return dt;
}

/* lp_solve on the MILP: y[p][k] picks point k (or none) of processor p. */
static double run_ilp(const ref_proc *pr, int P, int n, double timeout, double *best, const char **status)
{
    double t0 = now();
    int ncols = 1;
    for (int i = 0; i < P; i++) ncols += pr[i].n + 1;
    lprec *lp = make_lp(0, ncols);
    set_verbose(lp, NEUTRAL);
    set_add_rowmode(lp, TRUE);
    double *row = calloc((size_t)ncols + 1, sizeof(double));
    int *col = calloc((size_t)ncols + 1, sizeof(int));
    int base = 2; /* column 1 is T */
    int *first = malloc(sizeof(int) * (size_t)P);
    for (int i = 0; i < P; i++) { first[i] = base; base += pr[i].n + 1; }
    for (int i = 0; i < P; i++) {
        int k = 0;
        for (int j = 0; j <= pr[i].n; j++) { col[k] = first[i] + j; row[k++] = 1; }
        add_constraintex(lp, k, row, col, EQ, 1);
        k = 0;
        for (int j = 1; j <= pr[i].n; j++) { col[k] = first[i] + j; row[k++] = pr[i].pts[j - 1].time; }
        col[k] = 1; row[k++] = -1;
        add_constraintex(lp, k, row, col, LE, 0);
    }
    int k = 0;
    for (int i = 0; i < P; i++)
        for (int j = 1; j <= pr[i].n; j++) { col[k] = first[i] + j; row[k++] = pr[i].pts[j - 1].size; }
    add_constraintex(lp, k, row, col, EQ, n);
    set_add_rowmode(lp, FALSE);
    for (int c = 2; c <= ncols; c++) set_binary(lp, c, TRUE);
    col[0] = 1; row[0] = 1;
    set_obj_fnex(lp, 1, row, col);
    set_minim(lp);
    set_timeout(lp, (long)timeout);
    int rc = solve(lp);
    *best = rc == OPTIMAL || rc == SUBOPTIMAL ? get_objective(lp) : NAN;
    *status = rc == OPTIMAL ? "optimal" : rc == SUBOPTIMAL ? "timeout*" : rc == TIMEOUT ? "timeout" : "other";
    delete_lp(lp);
    free(row);
    free(col);
    free(first);
    return now() - t0;
}

static sm_grid *line_grid(int n)
{
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    s.blocks[0] = n; s.blocks[1] = 1; s.blocks[2] = 1;
    s.cells[0] = n; s.cells[1] = 1; s.cells[2] = 1;
    s.stencil = SM_ST_5PT;
    sm_err e;
    return sm_grid_build(&s, &e);
}

/* One instance: profiles, the machine that carries them, a line of n
 * blocks. */
typedef struct {
    int P, n;
    ref_proc pr[64];
    sm_topo *t;
    sm_grid *g;
} instance;

static void instance_make(instance *in, int P, int n, int m, unsigned long long seed)
{
    in->P = P;
    in->n = n;
    make_profiles(P, n, m, seed, in->pr);
    in->t = profile_topo(in->pr, P);
    in->g = line_grid(n);
}

static void instance_free(instance *in)
{
    sm_grid_free(in->g);
    sm_topo_free(in->t);
    for (int i = 0; i < in->P; i++) free(in->pr[i].pts);
}

/* One popta run: CPU seconds, the result and its front. */
typedef struct {
    double cpu, time, energy, total, base_power;
    int nfront;
    double *ft, *fe, *fc; /* front: time, energy, total */
} popta_run;

static void popta_front(const sm_grid *g, const sm_topo *t, const char *obj, popta_run *r)
{
    sm_model m;
    sm_model_default(&m);
    int *start = calloc((size_t)g->ntasks, sizeof(int));
    const char *argv[] = {"-objective", obj};
    sm_err e;
    double c0 = cpu_now();
    sm_solver *s = sm_solver_new(&sm_solver_popta, g, t, &m, start, 2, argv, &e);
    if (!s) { fprintf(stderr, "popta: %s\n", e.msg); exit(1); }
    sm_solver_step(s, LLONG_MAX);
    r->cpu = cpu_now() - c0;
    const sm_partition *pt = s->partition;
    r->time = pt->time;
    r->energy = pt->energy;
    r->total = pt->total;
    r->base_power = pt->base_power;
    r->nfront = pt->has_front ? pt->nfront : 0;
    r->ft = malloc(sizeof(double) * (size_t)(r->nfront + 1));
    r->fe = malloc(sizeof(double) * (size_t)(r->nfront + 1));
    r->fc = malloc(sizeof(double) * (size_t)(r->nfront + 1));
    for (int i = 0; i < r->nfront; i++) {
        r->ft[i] = pt->front[i].time;
        r->fe[i] = pt->front[i].energy;
        r->fc[i] = pt->front[i].total;
    }
    sm_solver_free(s);
    free(start);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int near_rel(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Profiles at every size 1..n: linear in the size (smooth), or with
 * +-15 % noise on time and on energy, independently, so neither is
 * monotone and energy is unlike time. */
static void every_size(int P, int n, unsigned long long seed, double noise, ref_proc *pr)
{
    for (int i = 0; i < P; i++) {
        double speed = 1 + 7 * urand(&seed), epb = 0.5 + urand(&seed);
        pr[i].pts = malloc(sizeof(ref_pt) * (size_t)n);
        pr[i].n = n;
        for (int x = 1; x <= n; x++)
            pr[i].pts[x - 1] = (ref_pt){x, x / speed * (1 + noise * (urand(&seed) - 0.5)),
                                        x * epb * (1 + noise * (urand(&seed) - 0.5))};
    }
}

static void scale_table(void)
{
    const int P = 64, sizes[] = {1000, 10000, 1000, 10000}, samples[] = {24, 6, 24, 6};
    const double noise[] = {0.3, 0.3, 0, 0};
    printf("popta at scale: %d processors, a profile point at every size (noisy: +-15 %% on time and energy;\n"
           "smooth: linear); CPU seconds, one run\n", P);
    printf("%6s %-6s %-9s %10s  %-34s %12s %11s %7s %6s\n", "n", "kind", "objective", "popta (s)", "peer",
           "peer (s)", "peer/popta", "points", "exact");
    for (int c = 0; c < 4; c++) {
        int n = sizes[c];
        const char *kind = noise[c] > 0 ? "noisy" : "smooth";
        ref_proc pr[64];
        every_size(P, n, 77 + (unsigned long long)c, noise[c], pr);
        sm_topo *t = profile_topo(pr, P);
        sm_grid *g = line_grid(n);
        if (!t || !g) exit(1);
        popta_run rt, re, rp, rtot;
        /* time and energy against the exact DP */
        popta_front(g, t, "time", &rt);
        double c0 = cpu_now(), tstar = ref_dp(pr, P, n, 0, INFINITY, NULL), dt = cpu_now() - c0;
        printf("%6d %-6s %-9s %10.3f  %-34s %12.3f %11.1f %7s %6s\n", n, kind, "time", rt.cpu, "exact DP", dt,
               dt / rt.cpu, "-",
               rt.time == tstar ? "yes" : "NO");
        popta_front(g, t, "energy", &re);
        c0 = cpu_now();
        double emin = ref_dp(pr, P, n, 1, INFINITY, NULL), de = cpu_now() - c0;
        printf("%6d %-6s %-9s %10.3f  %-34s %12.3f %11.1f %7s %6s\n", n, kind, "energy", re.cpu, "exact DP", de,
               de / re.cpu, "-",
               near_rel(re.energy, emin) ? "yes" : "NO");
        /* pareto and total against the plain sweep: the exact DP at every
         * distinct time from the least makespan until the least energy is
         * reached. Its cost is measured on evenly spaced thresholds and
         * scaled to all of them; each sampled value must equal the
         * energy of popta's front at that time. */
        popta_front(g, t, "pareto", &rp);
        popta_front(g, t, "total", &rtot);
        double tend = rp.ft[rp.nfront - 1];
        size_t cap = (size_t)P * (size_t)n, nt = 0;
        double *ts = malloc(sizeof(double) * cap);
        for (int i = 0; i < P; i++)
            for (int k = 0; k < pr[i].n; k++)
                if (pr[i].pts[k].time >= tstar && pr[i].pts[k].time <= tend) ts[nt++] = pr[i].pts[k].time;
        qsort(ts, nt, sizeof(double), cmp_dbl);
        size_t m = 0;
        for (size_t i = 0; i < nt; i++)
            if (m == 0 || ts[i] != ts[m - 1]) ts[m++] = ts[i];
        int k = samples[c], ok = 1;
        double spent = 0;
        for (int i = 0; i < k; i++) {
            double T = ts[(size_t)((double)i / (k - 1) * (double)(m - 1))];
            c0 = cpu_now();
            double E = ref_dp(pr, P, n, 1, T, NULL);
            spent += cpu_now() - c0;
            int f = 0;
            while (f + 1 < rp.nfront && rp.ft[f + 1] <= T) f++;
            if (!near_rel(E, rp.fe[f])) ok = 0;
        }
        double est = de + spent / k * (double)m;
        char peer[64];
        snprintf(peer, sizeof peer, "plain sweep (%d of %zu thresholds)", k, m);
        printf("%6d %-6s %-9s %10.3f  %-34s %11.4g* %11.4g %7d %6s\n", n, kind, "pareto", rp.cpu, peer, est,
               est / rp.cpu,
               rp.nfront, ok ? "yes" : "NO");
        /* total: its front points are on the dynamic front, each at the
         * least energy of its time, and none of the sampled thresholds
         * does better. */
        int tok = rtot.nfront > 0;
        for (int i = 0; i < rtot.nfront && tok; i += (rtot.nfront + 2) / 3) {
            double E = ref_dp(pr, P, n, 1, rtot.ft[i], NULL);
            if (!near_rel(E, rtot.fe[i]) || !near_rel(rtot.fc[i], E + rtot.base_power * rtot.ft[i])) tok = 0;
        }
        for (int i = 0; i < rp.nfront; i++)
            if (rp.fe[i] + rtot.base_power * rp.ft[i] < rtot.total * (1 - 1e-12)) tok = 0;
        printf("%6d %-6s %-9s %10.3f  %-34s %11.4g* %11.4g %7d %6s\n", n, kind, "total", rtot.cpu, peer, est,
               est / rtot.cpu,
               rtot.nfront, tok ? "yes" : "NO");
        popta_run *all[] = {&rt, &re, &rp, &rtot};
        for (int i = 0; i < 4; i++) { free(all[i]->ft); free(all[i]->fe); free(all[i]->fc); }
        free(ts);
        sm_grid_free(g);
        sm_topo_free(t);
        for (int i = 0; i < P; i++) free(pr[i].pts);
    }
    printf("* the plain sweep's cost: the least-energy DP plus the mean DP of the sampled thresholds times\n"
           "  their number (too long to run whole); exact: popta's front equals the DP at every sample\n\n");
}

int main(void)
{
    static const int cases[][2] = {{4, 100}, {8, 1000}, {16, 1000}, {16, 10000}, {64, 1000}, {64, 10000}};
    const int m = 100;
    const double ilp_timeout = 10;
    /* BENCH_POPTA=pareto: only the last table; =scale: only the first. */
    const char *only = getenv("BENCH_POPTA");
    if (!only || strcmp(only, "pareto") != 0) scale_table();
    if (only && strcmp(only, "scale") == 0) return 0;
    if (only && strcmp(only, "pareto") == 0) goto pareto;
    printf("popta (HPOPTA, -objective time) vs exact DP vs lp_solve MILP; %d-point profiles, ILP timeout %.0f s\n",
           m, ilp_timeout);
    printf("%4s %6s %12s %12s %12s %9s %9s %9s %s\n", "p", "n", "popta (s)", "DP (s)", "ILP (s)", "DP/popta",
           "ILP/popta", "popta=DP", "ILP status (gap to the optimum)");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int P = cases[c][0], n = cases[c][1];
        instance I;
        instance_make(&I, P, n, m, 1000 + c);
        const ref_proc *pr = I.pr;
        const sm_topo *t = I.t;
        const sm_grid *g = I.g;
        double pt, pe;
        double tp = run_popta(g, t, "time", 1, &pt, &pe, NULL);
        double t0 = now();
        double dp = ref_dp(pr, P, n, 0, INFINITY, NULL);
        double td = now() - t0;
        double ib;
        const char *ist;
        double ti = run_ilp(pr, P, n, ilp_timeout, &ib, &ist);
        printf("%4d %6d %12.4g %12.4g %12.4g %9.1f %9.1f %9s %s", P, n, tp, td, ti, td / tp, ti / tp,
               pt == dp ? "yes" : "NO", ist);
        if (!isnan(ib)) printf(" (%+.2g%%)", 100 * (ib - dp) / dp);
        printf("\n");
        instance_free(&I);
    }
    printf("\npopta energy (HEOPTA) and -levels 2 (HiPOPTA, 4 processors per node) vs exact DP\n");
    printf("%4s %6s %12s %12s %12s %9s %9s\n", "p", "n", "energy (s)", "DP (s)", "levels 2 (s)", "DP/popta", "same opt");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int P = cases[c][0], n = cases[c][1];
        instance I;
        instance_make(&I, P, n, m, 1000 + c);
        const ref_proc *pr = I.pr;
        const sm_topo *t = I.t;
        const sm_grid *g = I.g;
        double pt, pe, pt2, pe2;
        double tp = run_popta(g, t, "energy", 1, &pt, &pe, NULL);
        double t0 = now();
        double dp = ref_dp(pr, P, n, 1, INFINITY, NULL);
        double td = now() - t0;
        double tl = run_popta(g, t, "time", 2, &pt2, &pe2, NULL);
        double dpt = ref_dp(pr, P, n, 0, INFINITY, NULL);
        printf("%4d %6d %12.4g %12.4g %12.4g %9.1f %9s\n", P, n, tp, td, tl, td / tp,
               fabs(pe - dp) <= 1e-9 * dp && pt2 == dpt ? "yes" : "NO");
        instance_free(&I);
    }
pareto:
    printf("\npopta pareto (HEPOPTA) vs a DP per time threshold (the same front, point by point)\n");
    printf("%4s %6s %8s %12s %12s %9s %9s\n", "p", "n", "points", "pareto (s)", "DP sweep (s)", "DP/popta", "same");
    static const int pc[][2] = {{4, 100}, {8, 1000}, {16, 1000}};
    for (size_t c = 0; c < sizeof pc / sizeof pc[0]; c++) {
        int P = pc[c][0], n = pc[c][1];
        instance I;
        instance_make(&I, P, n, m, 2000 + c);
        const ref_proc *pr = I.pr;
        const sm_topo *t = I.t;
        const sm_grid *g = I.g;
        double pt, pe;
        int nf;
        double tp = run_popta(g, t, "pareto", 1, &pt, &pe, &nf);
        /* Reference: every distinct time as a threshold, keep strict
         * energy improvements. */
        double t0 = now();
        int nts = 0;
        double *ts = malloc(sizeof(double) * (size_t)P * (size_t)m);
        for (int i = 0; i < P; i++) for (int k = 0; k < pr[i].n; k++) ts[nts++] = pr[i].pts[k].time;
        for (int i = 1; i < nts; i++) { double v = ts[i]; int j = i; while (j > 0 && ts[j - 1] > v) { ts[j] = ts[j - 1]; j--; } ts[j] = v; }
        double lastE = INFINITY;
        int rf = 0;
        for (int i = 0; i < nts; i++) {
            if (i && ts[i] == ts[i - 1]) continue;
            double e = ref_dp(pr, P, n, 1, ts[i], NULL);
            if (e < lastE) { rf++; lastE = e; }
        }
        double td = now() - t0;
        printf("%4d %6d %8d %12.4g %12.4g %9.1f %9s\n", P, n, nf, tp, td, td / tp, rf == nf ? "yes" : "NO");
        free(ts);
        instance_free(&I);
    }
    return 0;
}
