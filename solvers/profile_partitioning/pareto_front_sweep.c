/* pareto_front_sweep.c - HEPOPTA's front by one sweep over the points in time
 * order with Lagrangian cuts and exact checks (see pareto_front_sweep.h). */
#include "pareto_front_sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

enum { LAMBDAS = 192, CHEAP_EVENTS = 4096 };

static int cmp_time(const void *a, const void *b)
{
    const sm_ps_pt *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return x->size - y->size;
}

static int cmp_size(const void *a, const void *b)
{
    const sm_ps_pt *x = a, *y = b;
    return x->size - y->size;
}

static int cmp_event(const void *a, const void *b)
{
    const sm_ps_event *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->p != y->p) return x->p - y->p;
    return x->i - y->i;
}

/* A value strictly below v by more than summation-order noise. */
static double below(double v)
{
    return isfinite(v) ? v - 1e-12 * fabs(v) : v;
}

void sm_ps_init(sm_ps *s, int P, int n, const sm_ps_pt *const *pts, const int *npts)
{
    memset(s, 0, sizeof *s);
    s->P = P;
    s->n = n;
    s->K = LAMBDAS;
    s->by_time = sm_xcalloc((size_t)P + 1, sizeof(sm_ps_pt *));
    s->by_size = sm_xcalloc((size_t)P + 1, sizeof(sm_ps_pt *));
    s->npts = sm_xcalloc((size_t)P + 1, sizeof(int));
    s->nadm = sm_xcalloc((size_t)P + 1, sizeof(int));
    size_t total = 0;
    double rmin = INFINITY, rmax = 0;
    for (int p = 0; p < P; p++) {
        int k = 0;
        size_t sz = sizeof(sm_ps_pt) * (size_t)(npts[p] ? npts[p] : 1);
        s->by_time[p] = sm_xmalloc(sz);
        for (int i = 0; i < npts[p]; i++)
            if (pts[p][i].size > 0 && pts[p][i].size <= n) s->by_time[p][k++] = pts[p][i];
        s->npts[p] = k;
        qsort(s->by_time[p], (size_t)k, sizeof(sm_ps_pt), cmp_time);
        s->by_size[p] = sm_xmalloc(sz);
        memcpy(s->by_size[p], s->by_time[p], sizeof(sm_ps_pt) * (size_t)k);
        qsort(s->by_size[p], (size_t)k, sizeof(sm_ps_pt), cmp_size);
        total += (size_t)k;
        for (int i = 0; i < k; i++) {
            double r = s->by_time[p][i].energy / s->by_time[p][i].size;
            if (r < rmin) rmin = r;
            if (r > rmax) rmax = r;
        }
    }
    /* Classes of identical processors (same points): their checks are
     * the same by symmetry. */
    s->cls = sm_xmalloc(sizeof(int) * ((size_t)P + 1));
    for (int p = 0; p < P; p++) {
        s->cls[p] = p;
        for (int q = 0; q < p && s->cls[p] == p; q++) {
            if (s->cls[q] != q || s->npts[q] != s->npts[p]) continue;
            int same = 1;
            for (int i = 0; i < s->npts[p] && same; i++)
                same = s->by_time[p][i].size == s->by_time[q][i].size &&
                       s->by_time[p][i].time == s->by_time[q][i].time &&
                       s->by_time[p][i].energy == s->by_time[q][i].energy;
            if (same) s->cls[p] = q;
        }
    }
    s->ev = sm_xmalloc(sizeof(sm_ps_event) * (total ? total : 1));
    for (int p = 0; p < P; p++)
        for (int i = 0; i < s->npts[p]; i++) s->ev[s->nev++] = (sm_ps_event){s->by_time[p][i].time, p, i};
    qsort(s->ev, (size_t)s->nev, sizeof(sm_ps_event), cmp_event);
    /* Multipliers over the energy per block of the points: the price of a
     * block at the margin lies among them (see LAMBDAS in the header). */
    if (!isfinite(rmin)) rmin = rmax = 0;
    s->lam = sm_xmalloc(sizeof(double) * (size_t)s->K);
    for (int k = 0; k < s->K; k++) s->lam[k] = rmin + (rmax - rmin) * k / (s->K - 1);
    s->h = sm_xcalloc((size_t)P * (size_t)s->K + 1, sizeof(double));
    s->H = sm_xcalloc((size_t)s->K, sizeof(double));
    s->hall = sm_xcalloc((size_t)s->K, sizeof(double));
    for (int p = 0; p < P; p++)
        for (int k = 0; k < s->K; k++) {
            double m = 0;
            for (int i = 0; i < s->npts[p]; i++)
                m = fmin(m, s->by_time[p][i].energy - s->lam[k] * s->by_time[p][i].size);
            s->hall[k] += m;
        }
    size_t W = (size_t)n + 1;
    s->val = sm_xmalloc(sizeof(double) * W);
    s->val2 = sm_xmalloc(sizeof(double) * W);
    for (size_t r = 0; r < W; r++) s->val[r] = s->val2[r] = INFINITY;
    s->act = sm_xmalloc(sizeof(int) * W);
    s->act2 = sm_xmalloc(sizeof(int) * W);
    s->cand = sm_xmalloc(sizeof(sm_ps_cand) * (total + (size_t)P + 1));
    s->cand_n = sm_xcalloc((size_t)P + 1, sizeof(int));
    s->cand_off = sm_xcalloc((size_t)P + 1, sizeof(int));
    s->hsel = sm_xmalloc(sizeof(double) * ((size_t)P + 1));
    s->rest = sm_xmalloc(sizeof(int) * 2 * ((size_t)P + 2));
    s->order = sm_xmalloc(sizeof(int) * ((size_t)P + 1));
    s->choice = sm_xmalloc(sizeof(int) * ((size_t)P + 1) * W);
    s->cur = sm_xcalloc((size_t)P + 1, sizeof(int));
    s->cache = sm_xmalloc(sizeof(int) * (total + 1));
    s->cache_off = sm_xcalloc((size_t)P + 1, sizeof(int));
    s->cache_n = sm_xcalloc((size_t)P + 1, sizeof(int));
    s->cache_adm = sm_xcalloc((size_t)P + 1, sizeof(int));
    for (int p = 1; p <= P; p++) s->cache_off[p] = s->cache_off[p - 1] + s->npts[p - 1];
    s->cache_kb = -1;
    s->last = INFINITY;
}

void sm_ps_free(sm_ps *s)
{
    for (int p = 0; p < s->P; p++) {
        free(s->by_time[p]);
        free(s->by_size[p]);
    }
    free(s->by_time);
    free(s->by_size);
    free(s->npts);
    free(s->nadm);
    free(s->ev);
    free(s->cls);
    free(s->lam);
    free(s->h);
    free(s->H);
    free(s->hall);
    free(s->ft);
    free(s->fe);
    free(s->fc);
    free(s->val);
    free(s->val2);
    free(s->hsel);
    free(s->rest);
    free(s->act);
    free(s->act2);
    free(s->cand);
    free(s->cand_n);
    free(s->cand_off);
    free(s->choice);
    free(s->order);
    free(s->cur);
    free(s->cache);
    free(s->cache_off);
    free(s->cache_n);
    free(s->cache_adm);
    memset(s, 0, sizeof *s);
}

static const sm_ps_pt *point_of(const sm_ps *s, int p, int size)
{
    int lo = 0, hi = s->npts[p] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int v = s->by_size[p][mid].size;
        if (v == size) return &s->by_size[p][mid];
        if (v < size) lo = mid + 1;
        else hi = mid - 1;
    }
    return NULL;
}

void sm_ps_profile(const sm_ps *s, const int *counts, double *time, double *energy)
{
    *time = *energy = 0;
    for (int p = 0; p < s->P; p++) {
        if (counts[p] == 0) continue;
        const sm_ps_pt *q = point_of(s, p, counts[p]);
        if (!q) { *time = *energy = INFINITY; return; }
        if (q->time > *time) *time = q->time;
        *energy += q->energy;
    }
}

/* Admit event e: its point becomes choosable, h and H fall. */
static void admit(sm_ps *s, const sm_ps_event *e)
{
    const sm_ps_pt *q = &s->by_time[e->p][e->i];
    s->nadm[e->p] = e->i + 1;
    double *h = &s->h[(size_t)e->p * (size_t)s->K];
    for (int k = 0; k < s->K; k++) {
        double v = q->energy - s->lam[k] * q->size;
        if (v < h[k]) {
            s->H[k] += v - h[k];
            h[k] = v;
        }
    }
}

/* The Lagrangian bound on a distribution that gives j x blocks at cost
 * ej (j < 0: none fixed) over the admitted points (all = every point). */
static double bound(const sm_ps *s, int j, int x, double ej, int all, int *kbest)
{
    double best = -INFINITY;
    int kb = 0;
    for (int k = 0; k < s->K; k++) {
        double hk = all ? s->hall[k] : s->H[k] - (j >= 0 ? s->h[(size_t)j * (size_t)s->K + (size_t)k] : 0);
        double b = ej + s->lam[k] * (s->n - x) + hk;
        if (b > best) { best = b; kb = k; }
    }
    if (kbest) *kbest = kb;
    return best;
}

/* Margin for float sums of this size (the bound is kept by updates). */
static double margin(const sm_ps *s, double U, double L)
{
    return 1e-9 * (fabs(U) + fabs(L) * s->n + 1e-300);
}

static int cmp_cand(const void *a, const void *b)
{
    const sm_ps_cand *x = a, *y = b;
    return x->y - y->y;
}

/* The least energy below U of a distribution giving j (>= 0) x blocks at
 * cost ej, the others choosing admitted points; counts filled. INFINITY
 * when none is below U. */
static double check(sm_ps *s, int j, int x, double ej, double U, int *counts)
{
    int kb;
    double LB = bound(s, j, x, ej, 0, &kb);
    double L = s->lam[kb], tol = margin(s, U, L);
    if (LB - tol >= U) { s->bound_cuts++; return INFINITY; }
    s->checks++;
    double S = U - LB + tol; /* slack of the reduced costs, all >= 0 */
    int R = s->n - x, m = 0, off = 0;
    /* The candidates of each processor: reduced cost below the slack. A
     * cache per processor holds every admitted point below a wider slack
     * at this multiplier; h only falls, so reduced costs only grow, and a
     * narrower slack later needs the cache and the points admitted since. */
    if (kb != s->cache_kb || S > s->cache_S) {
        s->cache_kb = kb;
        s->cache_S = 2 * S;
        for (int i = 0; i < s->P; i++) s->cache_n[i] = s->cache_adm[i] = 0;
    }
    for (int i = 0; i < s->P; i++) {
        if (i == j) continue;
        double hi = s->h[(size_t)i * (size_t)s->K + (size_t)kb];
        const sm_ps_pt *q = s->by_time[i];
        int *cache = &s->cache[s->cache_off[i]], cn = s->cache_n[i];
        for (int a = s->cache_adm[i]; a < s->nadm[i]; a++)
            if (q[a].energy - L * q[a].size - hi < s->cache_S) cache[cn++] = a;
        s->cache_n[i] = cn;
        s->cache_adm[i] = s->nadm[i];
        s->cand_off[i] = off;
        int c = 0;
        sm_ps_cand *cd = &s->cand[off];
        if (-hi < S) cd[c++] = (sm_ps_cand){0, 0};
        for (int a = 0; a < cn; a++) {
            const sm_ps_pt *pt = &q[cache[a]];
            if (pt->energy - L * pt->size - hi < S && pt->size <= R) cd[c++] = (sm_ps_cand){pt->size, pt->energy};
        }
        if (!c) return INFINITY;
        qsort(cd, (size_t)c, sizeof *cd, cmp_cand); /* by size: each state scans one window */
        s->cand_n[i] = c;
        off += c;
        s->order[m++] = i;
        s->hsel[i] = hi;
    }
    /* Fewest candidates first: the states stay few while they can. */
    for (int a = 1; a < m; a++) {
        int v = s->order[a], b = a;
        while (b > 0 && s->cand_n[s->order[b - 1]] > s->cand_n[v]) { s->order[b] = s->order[b - 1]; b--; }
        s->order[b] = v;
    }
    /* Suffix reach: the least and most blocks levels l.. can take. */
    int *minrest = s->rest, *maxrest = s->rest + m + 1;
    minrest[m] = maxrest[m] = 0;
    for (int l = m - 1; l >= 0; l--) {
        int i = s->order[l], a = s->cand_off[i];
        minrest[l] = minrest[l + 1] + s->cand[a].y;
        maxrest[l] = maxrest[l + 1] + s->cand[a + s->cand_n[i] - 1].y;
        if (maxrest[l] > R) maxrest[l] = R;
    }
    double *val = s->val, *nxt = s->val2;
    int *act = s->act, *act2 = s->act2, nact = 0;
    size_t W = (size_t)s->n + 1;
    double got = INFINITY;
    if (R >= minrest[0] && R <= maxrest[0]) {
        val[0] = 0;
        act[nact++] = 0;
        double Hpre = 0;
        for (int l = 0; l < m && nact; l++) {
            int i = s->order[l], nc = s->cand_n[i], nact2 = 0;
            const sm_ps_cand *cd = &s->cand[s->cand_off[i]];
            Hpre += s->hsel[i]; /* reduced cost of a prefix: energy - L blocks - its h */
            int *ch = &s->choice[(size_t)l * W];
            for (int u = 0; u < nact; u++) {
                int r = act[u];
                double b = val[r];
                /* Sizes that leave the levels after it a count they can
                 * hold: one window of the size-sorted candidates. */
                int ylo = R - r - maxrest[l + 1], yhi = R - r - minrest[l + 1];
                int lo = 0, hi = nc;
                while (lo < hi) {
                    int mid = (lo + hi) / 2;
                    if (cd[mid].y < ylo) lo = mid + 1;
                    else hi = mid;
                }
                for (int c = lo; c < nc && cd[c].y <= yhi; c++) {
                    int rr = r + cd[c].y;
                    double v = b + cd[c].e;
                    if (v - L * rr - Hpre >= S) continue;
                    if (nxt[rr] == INFINITY) act2[nact2++] = rr;
                    if (v < nxt[rr]) { nxt[rr] = v; ch[rr] = cd[c].y; }
                }
            }
            for (int u = 0; u < nact; u++) val[act[u]] = INFINITY;
            double *tv = val; val = nxt; nxt = tv;
            int *ta = act; act = act2; act2 = ta;
            nact = nact2;
            s->states += nact;
        }
        if (nact && val[R] < INFINITY) {
            int r = R;
            for (int l = m - 1; l >= 0; l--) {
                int y = s->choice[(size_t)l * W + (size_t)r];
                counts[s->order[l]] = y;
                r -= y;
            }
            if (j >= 0) counts[j] = x;
            double t, e;
            sm_ps_profile(s, counts, &t, &e);
            got = e;
        }
        for (int u = 0; u < nact; u++) val[act[u]] = INFINITY;
    }
    /* The arrays may have swapped: keep both clean for the next check. */
    s->val = val;
    s->val2 = nxt;
    s->act = act;
    s->act2 = act2;
    return got < U ? got : INFINITY;
}

static void add_front(sm_ps *s, const int *counts)
{
    double t, e;
    sm_ps_profile(s, counts, &t, &e);
    if (s->nfront == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->ft = sm_xrealloc(s->ft, sizeof(double) * (size_t)s->cap);
        s->fe = sm_xrealloc(s->fe, sizeof(double) * (size_t)s->cap);
        s->fc = sm_xrealloc(s->fc, sizeof(int) * (size_t)s->cap * (size_t)s->P);
    }
    s->ft[s->nfront] = t;
    s->fe[s->nfront] = e;
    memcpy(&s->fc[(size_t)s->nfront * (size_t)s->P], counts, sizeof(int) * (size_t)s->P);
    s->nfront++;
    s->last = e;
}

void sm_ps_begin(sm_ps *s, double tstar, const int *counts)
{
    while (s->iev < s->nev && s->ev[s->iev].t <= tstar) admit(s, &s->ev[s->iev++]);
    s->T = tstar;
    memcpy(s->cur, counts, sizeof(int) * (size_t)s->P);
    s->started = 1;
}

/* Nothing left below the last front point, whatever the threshold: the
 * bound over every point says so. (An exact check over every point can
 * prove it earlier, but its slack is the bound's gap at the end of the
 * sweep and it costs far more than the cheap events it would save.) */
static int front_complete(const sm_ps *s)
{
    double U = below(s->last);
    return bound(s, -1, 0, 0, 1, NULL) - margin(s, U, 0) >= U;
}

int sm_ps_step(sm_ps *s)
{
    if (s->done) return 1;
    int *best = sm_xmalloc(sizeof(int) * ((size_t)s->P + 1));
    int *tmp = sm_xmalloc(sizeof(int) * ((size_t)s->P + 1));
    if (s->nfront == 0) {
        /* The least energy at the least makespan: below the incumbent's
         * energy (with its margin), else the incumbent itself. */
        double t0, e0;
        sm_ps_profile(s, s->cur, &t0, &e0);
        memcpy(best, s->cur, sizeof(int) * (size_t)s->P);
        double U = e0 + 1e-12 * fabs(e0) + 1e-300;
        double e = check(s, -1, 0, 0, U, tmp);
        if (isfinite(e) && e < e0) memcpy(best, tmp, sizeof(int) * (size_t)s->P);
        add_front(s, best);
        free(best);
        free(tmp);
        return 0;
    }
    int cheap = 0, ran = 0;
    while (s->iev < s->nev && cheap < CHEAP_EVENTS && !ran) {
        int a = s->iev, b = a;
        double T = s->ev[a].t;
        while (b < s->nev && s->ev[b].t == T) admit(s, &s->ev[b++]);
        s->iev = b;
        s->T = T;
        double bestE = s->last;
        int found = 0;
        for (int k = a; k < b; k++) {
            const sm_ps_event *e = &s->ev[k];
            const sm_ps_pt *q = &s->by_time[e->p][e->i];
            /* A processor identical to one already asked about the same
             * point (same profile, so the same admitted points) answers
             * the same: ask once per class. */
            int twin = 0;
            for (int k2 = a; k2 < k && !twin; k2++)
                twin = s->ev[k2].i == e->i && s->cls[s->ev[k2].p] == s->cls[e->p];
            if (twin) continue;
            double U = below(bestE);
            int64_t before = s->checks;
            double v = check(s, e->p, q->size, q->energy, U, tmp);
            if (s->checks != before) ran = 1;
            if (isfinite(v) && v < U) {
                bestE = v;
                memcpy(best, tmp, sizeof(int) * (size_t)s->P);
                found = 1;
            }
        }
        cheap += b - a;
        if (found) add_front(s, best);
        if (found && front_complete(s)) s->done = 1;
    }
    if (s->iev >= s->nev) s->done = 1;
    free(best);
    free(tmp);
    return s->done;
}
