/* edge_colouring.c - edge colouring of the processor multigraph as
 * matchings with durations (the rounds), built from scratch, and the
 * same schedule repaired in place as the multigraph changes (second
 * half, below).
 *
 * From scratch: Up to four communicating processors the colouring is exact
 * (every matching of K4 is an edge or one of its three perfect matchings);
 * beyond that a greedy that keeps every busiest processor busy, beside a
 * lower bound max(Delta, triangle sums, odd-order bound). */
#include "edge_colouring.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/pairmap.h"
#include "core/lib/util.h"

int64_t sm_multigraph_maxdeg(const sm_pairmu *pairs, int n, int nprocs)
{
    int64_t *deg = sm_xcalloc((size_t)nprocs, sizeof(int64_t)), best = 0;
    for (int i = 0; i < n; i++) {
        deg[pairs[i].p] += pairs[i].mu;
        deg[pairs[i].q] += pairs[i].mu;
    }
    for (int v = 0; v < nprocs; v++)
        if (deg[v] > best) best = deg[v];
    free(deg);
    return best;
}

int64_t sm_multigraph_maxmu(const sm_pairmu *pairs, int n)
{
    int64_t best = 0;
    for (int i = 0; i < n; i++)
        if (pairs[i].mu > best) best = pairs[i].mu;
    return best;
}

static void add_round(sm_schedule *s, int64_t dur)
{
    if (!s) return;
    if (s->nrounds == s->cap_rounds) {
        s->cap_rounds = s->cap_rounds ? 2 * s->cap_rounds : 16;
        s->rounds = sm_xrealloc(s->rounds, sizeof(sm_round) * (size_t)s->cap_rounds);
    }
    s->rounds[s->nrounds++] = (sm_round){dur, s->nentries, 0};
    s->colours += dur;
}

static void add_entry(sm_schedule *s, int p, int q, int64_t quanta)
{
    if (!s) return;
    if (s->nentries == s->cap_entries) {
        s->cap_entries = s->cap_entries ? 2 * s->cap_entries : 32;
        s->entries = sm_xrealloc(s->entries,
                                 sizeof(sm_round_entry) * (size_t)s->cap_entries);
    }
    s->entries[s->nentries++] = (sm_round_entry){p, q, quanta};
    s->rounds[s->nrounds - 1].count++;
}

/* Exact for at most four active vertices. */
static int64_t exact_small(const sm_pairmu *pairs, int n, const int *act,
                           int na, sm_schedule *out)
{
    int64_t mu[4][4] = {{0}};
    int idx[4];
    for (int i = 0; i < n; i++) {
        int a = -1, b = -1;
        for (int k = 0; k < na; k++) {
            if (act[k] == pairs[i].p) a = k;
            if (act[k] == pairs[i].q) b = k;
        }
        mu[a][b] += pairs[i].mu;
        mu[b][a] += pairs[i].mu;
    }
    (void)idx;
    int64_t total = 0;
    if (na == 4) {
        static const int pm[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
        for (int m = 0; m < 3; m++) {
            int64_t x = mu[pm[m][0]][pm[m][1]], y = mu[pm[m][2]][pm[m][3]];
            int64_t d = x > y ? x : y;
            if (d == 0) continue;
            add_round(out, d);
            if (x) add_entry(out, act[pm[m][0]], act[pm[m][1]], x);
            if (y) add_entry(out, act[pm[m][2]], act[pm[m][3]], y);
            total += d;
        }
        return total;
    }
    /* Two or three vertices: every two edges meet, one pair per round. */
    for (int a = 0; a < na; a++)
        for (int b = a + 1; b < na; b++)
            if (mu[a][b]) {
                add_round(out, mu[a][b]);
                add_entry(out, act[a], act[b], mu[a][b]);
                total += mu[a][b];
            }
    return total;
}

/* What cmp_pair orders by: one greedy round's state. */
typedef struct pair_order {
    const int64_t *r, *deg;
    const sm_pairmu *pairs;
    int64_t delta;
} pair_order;

/* Pairs touching a busiest vertex first, then by how busy both ends are. */
static int cmp_pair(const void *x, const void *y, void *ctx)
{
    const pair_order *o = ctx;
    const int64_t *sort_r = o->r, *sort_deg = o->deg, sort_delta = o->delta;
    int i = *(const int *)x, j = *(const int *)y;
    const sm_pairmu *a = &o->pairs[i], *b = &o->pairs[j];
    int ca = (sort_deg[a->p] == sort_delta) + (sort_deg[a->q] == sort_delta);
    int cb = (sort_deg[b->p] == sort_delta) + (sort_deg[b->q] == sort_delta);
    if (ca != cb) return cb - ca;
    int64_t sa = sort_deg[a->p] + sort_deg[a->q], sb = sort_deg[b->p] + sort_deg[b->q];
    if (sa != sb) return sb > sa ? 1 : -1;
    if (sort_r[i] != sort_r[j]) return sort_r[j] > sort_r[i] ? 1 : -1;
    return i - j;
}

static int64_t greedy(const sm_pairmu *pairs, int n, int nprocs,
                      sm_schedule *out)
{
    int64_t *r = sm_xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    int64_t *deg = sm_xcalloc((size_t)nprocs, sizeof(int64_t));
    int *live = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    char *busy = sm_xcalloc((size_t)nprocs, 1);
    int *chosen = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    int nlive = 0;
    for (int i = 0; i < n; i++) {
        r[i] = pairs[i].mu;
        deg[pairs[i].p] += r[i];
        deg[pairs[i].q] += r[i];
        if (r[i] > 0) live[nlive++] = i;
    }
    int64_t total = 0;
    while (nlive > 0) {
        int64_t delta = 0;
        for (int v = 0; v < nprocs; v++)
            if (deg[v] > delta) delta = deg[v];
        pair_order o = {r, deg, pairs, delta};
        sm_sort_r(live, (size_t)nlive, sizeof(int), cmp_pair, &o);
        int nc = 0;
        int64_t d = 0;
        for (int k = 0; k < nlive; k++) {
            const sm_pairmu *pr = &pairs[live[k]];
            if (busy[pr->p] || busy[pr->q]) continue;
            busy[pr->p] = busy[pr->q] = 1;
            chosen[nc++] = live[k];
            if (d == 0 || r[live[k]] < d) d = r[live[k]];
        }
        /* Keep the busiest idle vertex from becoming the bottleneck. */
        int64_t idle_max = 0;
        for (int v = 0; v < nprocs; v++)
            if (!busy[v] && deg[v] > idle_max) idle_max = deg[v];
        if (delta - idle_max > 0 && delta - idle_max < d) d = delta - idle_max;
        add_round(out, d);
        for (int c = 0; c < nc; c++) {
            const sm_pairmu *pr = &pairs[chosen[c]];
            add_entry(out, pr->p, pr->q, d);
            r[chosen[c]] -= d;
            deg[pr->p] -= d;
            deg[pr->q] -= d;
            busy[pr->p] = busy[pr->q] = 0;
        }
        total += d;
        int w = 0;
        for (int k = 0; k < nlive; k++)
            if (r[live[k]] > 0) live[w++] = live[k];
        nlive = w;
    }
    free(r);
    free(deg);
    free(live);
    free(busy);
    free(chosen);
    return total;
}

/* max(Delta, heaviest triangle, 2E/(m-1) for odd m active vertices). */
int64_t sm_schedule_lower(const sm_pairmu *pairs, int n, int nprocs)
{
    int64_t lb = sm_multigraph_maxdeg(pairs, n, nprocs);
    sm_pairmap pm;
    sm_pairmap_init(&pm);
    int64_t *mu = sm_xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    int *adj_off = sm_xcalloc((size_t)nprocs + 1, sizeof(int));
    int *adj = sm_xmalloc(sizeof(int) * (size_t)(2 * n + 1));
    for (int i = 0; i < n; i++) mu[i] = 0;
    for (int i = 0; i < n; i++) {
        int created;
        int s = sm_pairmap_get(&pm, pairs[i].p, pairs[i].q, 1, &created);
        if (s >= n) { /* cannot happen: at most n distinct pairs */ }
        mu[s] += pairs[i].mu;
        if (created) {
            adj_off[pairs[i].p + 1]++;
            adj_off[pairs[i].q + 1]++;
        }
    }
    for (int v = 0; v < nprocs; v++) adj_off[v + 1] += adj_off[v];
    int *fill = sm_xmalloc(sizeof(int) * (size_t)(nprocs + 1));
    memcpy(fill, adj_off, sizeof(int) * (size_t)nprocs);
    int active = 0;
    int64_t total = 0;
    for (int s = 0; s < pm.n; s++) {
        adj[fill[pm.p[s]]++] = pm.q[s];
        adj[fill[pm.q[s]]++] = pm.p[s];
        total += mu[s];
    }
    for (int v = 0; v < nprocs; v++)
        if (adj_off[v + 1] > adj_off[v]) active++;
    /* Triangles a < b < c through each pair's smaller-degree end. */
    for (int s = 0; s < pm.n; s++) {
        int a = pm.p[s], b = pm.q[s];
        int x = (adj_off[a + 1] - adj_off[a]) < (adj_off[b + 1] - adj_off[b]) ? a : b;
        int y = x == a ? b : a;
        for (int k = adj_off[x]; k < adj_off[x + 1]; k++) {
            int c = adj[k];
            if (c <= b) continue;
            int t1 = sm_pairmap_get(&pm, x, c, 0, NULL);
            int t2 = sm_pairmap_get(&pm, y, c, 0, NULL);
            if (t1 < 0 || t2 < 0) continue;
            int64_t sum = mu[s] + mu[t1] + mu[t2];
            if (sum > lb) lb = sum;
        }
    }
    if (active >= 3 && active % 2 == 1) {
        int64_t odd = (2 * total + active - 2) / (active - 1);
        if (odd > lb) lb = odd;
    }
    free(fill);
    free(adj);
    free(adj_off);
    free(mu);
    sm_pairmap_free(&pm);
    return lb;
}

static int cmp_pq(const void *a, const void *b)
{
    const sm_pairmu *x = a, *y = b;
    int xp = x->p < x->q ? x->p : x->q, yp = y->p < y->q ? y->p : y->q;
    int xq = x->p < x->q ? x->q : x->p, yq = y->p < y->q ? y->q : y->p;
    if (xp != yp) return xp - yp;
    return xq - yq;
}

static int64_t build(const sm_pairmu *pairs, int n, int nprocs,
                     sm_schedule *out, int64_t *lower);

/* The schedule depends on the multigraph only, not on the order in which
 * its pairs are listed: sort a copy first. */
int64_t sm_schedule_build(const sm_pairmu *pairs, int n, int nprocs,
                          sm_schedule *out, int64_t *lower)
{
    sm_pairmu *v = sm_xmalloc(sizeof(sm_pairmu) * (size_t)(n ? n : 1));
    memcpy(v, pairs, sizeof(sm_pairmu) * (size_t)n);
    qsort(v, (size_t)n, sizeof(sm_pairmu), cmp_pq);
    int64_t r = build(v, n, nprocs, out, lower);
    free(v);
    return r;
}

static int64_t build(const sm_pairmu *pairs, int n, int nprocs,
                     sm_schedule *out, int64_t *lower)
{
    if (out) memset(out, 0, sizeof *out);
    int act[5], na = 0;
    char *seen = sm_xcalloc((size_t)nprocs, 1);
    for (int i = 0; i < n && na <= 4; i++) {
        if (pairs[i].mu <= 0) continue;
        int v[2] = {pairs[i].p, pairs[i].q};
        for (int k = 0; k < 2; k++)
            if (!seen[v[k]]) {
                seen[v[k]] = 1;
                if (na < 5) act[na] = v[k];
                na++;
            }
    }
    free(seen);
    int64_t colours;
    if (na <= 4) {
        colours = exact_small(pairs, n, act, na, out);
        if (lower) *lower = colours;
    } else {
        colours = greedy(pairs, n, nprocs, out);
        if (lower) *lower = sm_schedule_lower(pairs, n, nprocs);
    }
    if (out) out->lower = lower ? *lower : 0;
    return colours;
}

void sm_schedule_free(sm_schedule *s)
{
    free(s->rounds);
    free(s->entries);
    memset(s, 0, sizeof *s);
}

int sm_schedule_check(const sm_schedule *s, const sm_pairmu *pairs, int n, int nprocs,
                      char *why, size_t whylen)
{
    sm_pairmap pm;
    sm_pairmap_init(&pm);
    int64_t *want = sm_xcalloc((size_t)(n + s->nentries + 1), sizeof(int64_t));
    int64_t *got = sm_xcalloc((size_t)(n + s->nentries + 1), sizeof(int64_t));
    int *seen = sm_xmalloc(sizeof(int) * (size_t)(nprocs > 0 ? nprocs : 1));
    for (int v = 0; v < nprocs; v++) seen[v] = -1;
    int ok = 1;
    int64_t colours = 0;
    char buf[160] = "";
    for (int i = 0; i < n; i++) want[sm_pairmap_get(&pm, pairs[i].p, pairs[i].q, 1, NULL)] += pairs[i].mu;
    for (int r = 0; r < s->nrounds && ok; r++) {
        const sm_round *rd = &s->rounds[r];
        colours += rd->duration;
        for (int i = rd->first; i < rd->first + rd->count && ok; i++) {
            const sm_round_entry *en = &s->entries[i];
            if (en->quanta <= 0 || en->quanta > rd->duration) {
                snprintf(buf, sizeof buf, "round %d: entry %d-%d of %lld quanta in a round of %lld", r,
                         en->p, en->q, (long long)en->quanta, (long long)rd->duration);
                ok = 0;
            } else if (seen[en->p] == r || seen[en->q] == r) {
                snprintf(buf, sizeof buf, "round %d: processor %d twice", r, seen[en->p] == r ? en->p : en->q);
                ok = 0;
            }
            seen[en->p] = seen[en->q] = r;
            got[sm_pairmap_get(&pm, en->p, en->q, 1, NULL)] += en->quanta;
        }
    }
    for (int k = 0; k < pm.n && ok; k++)
        if (want[k] != got[k]) {
            snprintf(buf, sizeof buf, "pair %d-%d: %lld quanta scheduled, multiplicity %lld", pm.p[k], pm.q[k],
                     (long long)got[k], (long long)want[k]);
            ok = 0;
        }
    if (ok && colours != s->colours) {
        snprintf(buf, sizeof buf, "colours %lld but durations sum to %lld", (long long)s->colours,
                 (long long)colours);
        ok = 0;
    }
    if (why && whylen) snprintf(why, whylen, "%s", buf);
    free(want);
    free(got);
    free(seen);
    sm_pairmap_free(&pm);
    return ok;
}

/* ---- The schedule repaired in place as the
 * multigraph changes (rounds model "colouring", issue 14).
 *
 * The schedule is a list of rounds, each a matching of processor pairs
 * with a duration (its longest entry). Taking quanta away from a pair
 * shortens its entries, longest first, and with them any round they
 * defined; adding quanta fills the pair's own slack, then rounds where
 * both processors are idle, and only then opens a round. Either way the
 * rounds stay matchings and cover the multigraph exactly; the caller
 * decides from a lower bound when a full rebuild is worth it. */


typedef struct {
    int round, p, q; /* p < q; round -1 when free */
    int64_t quanta;
} isent;

typedef struct {
    int *v;
    int n, cap;
} ivec;

struct sm_isched {
    int nprocs;
    int nr, capr;
    int64_t *dur;
    ivec *rent;      /* round -> entries */
    ivec *pent;      /* processor -> entries */
    isent *ent;
    int ne, cape;
    ivec freeent, freeround;
    int64_t colours;
    unsigned *mark;  /* per round, stamped */
    unsigned stamp;
};

static void ivec_push(ivec *a, int x)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 4;
        a->v = sm_xrealloc(a->v, sizeof(int) * (size_t)a->cap);
    }
    a->v[a->n++] = x;
}

static void ivec_drop(ivec *a, int x)
{
    for (int i = 0; i < a->n; i++)
        if (a->v[i] == x) {
            a->v[i] = a->v[--a->n];
            return;
        }
}

sm_isched *sm_isched_new(int nprocs)
{
    sm_isched *s = sm_xcalloc(1, sizeof *s);
    s->nprocs = nprocs;
    s->pent = sm_xcalloc((size_t)(nprocs > 0 ? nprocs : 1), sizeof(ivec));
    return s;
}

static void clear(sm_isched *s)
{
    for (int r = 0; r < s->nr; r++) free(s->rent[r].v);
    for (int p = 0; p < s->nprocs; p++) s->pent[p].n = 0;
    s->nr = 0;
    s->ne = 0;
    s->freeent.n = s->freeround.n = 0;
    s->colours = 0;
}

void sm_isched_free(sm_isched *s)
{
    if (!s) return;
    clear(s);
    for (int p = 0; p < s->nprocs; p++) free(s->pent[p].v);
    free(s->pent);
    free(s->rent);
    free(s->dur);
    free(s->ent);
    free(s->mark);
    free(s->freeent.v);
    free(s->freeround.v);
    free(s);
}

static int new_round(sm_isched *s, int64_t dur)
{
    int r;
    if (s->freeround.n) {
        r = s->freeround.v[--s->freeround.n];
    } else {
        if (s->nr == s->capr) {
            s->capr = s->capr ? 2 * s->capr : 16;
            s->dur = sm_xrealloc(s->dur, sizeof(int64_t) * (size_t)s->capr);
            s->rent = sm_xrealloc(s->rent, sizeof(ivec) * (size_t)s->capr);
            s->mark = sm_xrealloc(s->mark, sizeof(unsigned) * (size_t)s->capr);
        }
        r = s->nr++;
        memset(&s->rent[r], 0, sizeof(ivec));
        s->mark[r] = 0;
    }
    s->dur[r] = dur;
    s->colours += dur;
    return r;
}

static void new_entry(sm_isched *s, int r, int p, int q, int64_t quanta)
{
    int e;
    if (s->freeent.n) {
        e = s->freeent.v[--s->freeent.n];
    } else {
        if (s->ne == s->cape) {
            s->cape = s->cape ? 2 * s->cape : 32;
            s->ent = sm_xrealloc(s->ent, sizeof(isent) * (size_t)s->cape);
        }
        e = s->ne++;
    }
    s->ent[e] = (isent){r, p < q ? p : q, p < q ? q : p, quanta};
    ivec_push(&s->rent[r], e);
    ivec_push(&s->pent[p], e);
    ivec_push(&s->pent[q], e);
}

static void drop_entry(sm_isched *s, int e)
{
    isent *x = &s->ent[e];
    ivec_drop(&s->rent[x->round], e);
    ivec_drop(&s->pent[x->p], e);
    ivec_drop(&s->pent[x->q], e);
    x->round = -1;
    ivec_push(&s->freeent, e);
}

/* A round's duration after its entries shrank. */
static void refit(sm_isched *s, int r)
{
    int64_t d = 0;
    for (int i = 0; i < s->rent[r].n; i++) {
        int64_t k = s->ent[s->rent[r].v[i]].quanta;
        if (k > d) d = k;
    }
    s->colours -= s->dur[r] - d;
    s->dur[r] = d;
    if (d == 0) ivec_push(&s->freeround, r);
}

static void ivec_copy(ivec *dst, const ivec *src)
{
    dst->n = dst->cap = src->n;
    dst->v = src->n ? sm_xmalloc(sizeof(int) * (size_t)src->n) : NULL;
    if (src->n) memcpy(dst->v, src->v, sizeof(int) * (size_t)src->n);
}

void sm_isched_copy(sm_isched *dst, const sm_isched *src)
{
    clear(dst);
    for (int p = 0; p < dst->nprocs; p++) free(dst->pent[p].v);
    free(dst->pent);
    free(dst->rent);
    free(dst->dur);
    free(dst->ent);
    free(dst->mark);
    free(dst->freeent.v);
    free(dst->freeround.v);
    dst->nprocs = src->nprocs;
    dst->pent = sm_xcalloc((size_t)(src->nprocs > 0 ? src->nprocs : 1), sizeof(ivec));
    for (int p = 0; p < src->nprocs; p++) ivec_copy(&dst->pent[p], &src->pent[p]);
    dst->nr = dst->capr = src->nr;
    size_t nr = (size_t)(src->nr ? src->nr : 1);
    dst->dur = sm_xmalloc(sizeof(int64_t) * nr);
    dst->rent = sm_xcalloc(nr, sizeof(ivec));
    dst->mark = sm_xcalloc(nr, sizeof(unsigned));
    if (src->nr) memcpy(dst->dur, src->dur, sizeof(int64_t) * (size_t)src->nr);
    for (int r = 0; r < src->nr; r++) ivec_copy(&dst->rent[r], &src->rent[r]);
    dst->ne = dst->cape = src->ne;
    dst->ent = sm_xmalloc(sizeof(isent) * (size_t)(src->ne ? src->ne : 1));
    if (src->ne) memcpy(dst->ent, src->ent, sizeof(isent) * (size_t)src->ne);
    ivec_copy(&dst->freeent, &src->freeent);
    ivec_copy(&dst->freeround, &src->freeround);
    dst->colours = src->colours;
    dst->stamp = 0;
}

void sm_isched_load(sm_isched *s, const sm_schedule *full)
{
    clear(s);
    for (int r = 0; r < full->nrounds; r++) {
        const sm_round *rd = &full->rounds[r];
        if (rd->duration <= 0) continue;
        int k = new_round(s, rd->duration);
        for (int i = rd->first; i < rd->first + rd->count; i++) {
            const sm_round_entry *en = &full->entries[i];
            if (en->quanta > 0) new_entry(s, k, en->p, en->q, en->quanta);
        }
    }
}

static void take(sm_isched *s, int p, int q, int64_t delta)
{
    /* The pair's entries, longest first: shortening them may shorten
     * the rounds they define. */
    int lo = p < q ? p : q, hi = p < q ? q : p;
    while (delta > 0) {
        int best = -1;
        const ivec *pe = &s->pent[p];
        for (int i = 0; i < pe->n; i++) {
            const isent *x = &s->ent[pe->v[i]];
            if (x->p == lo && x->q == hi && (best < 0 || x->quanta > s->ent[best].quanta)) best = pe->v[i];
        }
        if (best < 0) return; /* caller's multigraph disagrees: nothing to take */
        isent *x = &s->ent[best];
        int64_t g = delta < x->quanta ? delta : x->quanta;
        x->quanta -= g;
        delta -= g;
        int r = x->round;
        if (x->quanta == 0) drop_entry(s, best);
        refit(s, r);
    }
}

static void give(sm_isched *s, int p, int q, int64_t delta)
{
    int lo = p < q ? p : q, hi = p < q ? q : p;
    /* The pair's own slack. */
    const ivec *pe = &s->pent[p];
    for (int i = 0; i < pe->n && delta > 0; i++) {
        isent *x = &s->ent[pe->v[i]];
        if (x->p != lo || x->q != hi) continue;
        int64_t g = s->dur[x->round] - x->quanta;
        if (g > delta) g = delta;
        x->quanta += g;
        delta -= g;
    }
    if (delta <= 0) return;
    /* Rounds where both are idle: the shortest that holds all of it (one
     * entry, long rounds kept for others), else the longest ones, so the
     * pair is split into as few pieces as possible. */
    if (++s->stamp == 0) {
        memset(s->mark, 0, sizeof(unsigned) * (size_t)s->nr);
        s->stamp = 1;
    }
    for (int i = 0; i < s->pent[p].n; i++) s->mark[s->ent[s->pent[p].v[i]].round] = s->stamp;
    for (int i = 0; i < s->pent[q].n; i++) s->mark[s->ent[s->pent[q].v[i]].round] = s->stamp;
    while (delta > 0) {
        int fit = -1, longest = -1;
        for (int r = 0; r < s->nr; r++) {
            if (s->dur[r] <= 0 || s->mark[r] == s->stamp) continue;
            if (s->dur[r] >= delta && (fit < 0 || s->dur[r] < s->dur[fit])) fit = r;
            if (longest < 0 || s->dur[r] > s->dur[longest]) longest = r;
        }
        int r = fit >= 0 ? fit : longest;
        if (r < 0) break;
        int64_t g = s->dur[r] < delta ? s->dur[r] : delta;
        new_entry(s, r, p, q, g);
        s->mark[r] = s->stamp;
        delta -= g;
    }
    if (delta > 0) new_entry(s, new_round(s, delta), p, q, delta);
}

void sm_isched_add(sm_isched *s, int p, int q, int64_t delta)
{
    if (p == q || delta == 0) return;
    if (delta > 0) give(s, p, q, delta);
    else take(s, p, q, -delta);
}

int64_t sm_isched_colours(const sm_isched *s) { return s->colours; }

void sm_isched_export(const sm_isched *s, sm_schedule *out)
{
    memset(out, 0, sizeof *out);
    sm_isched_refill(s, out);
}

void sm_isched_refill(const sm_isched *s, sm_schedule *out)
{
    int rounds = 0, entries = 0;
    for (int r = 0; r < s->nr; r++)
        if (s->dur[r] > 0) { rounds++; entries += s->rent[r].n; }
    /* Arrays kept from the last export, with a quarter to spare: fresh
     * ones of ~700 000 entries (1 M blocks) cost more in page faults than
     * the copy itself, and a move adds an entry or two. */
    if (out->cap_rounds < rounds + 1) {
        free(out->rounds);
        out->cap_rounds = rounds + rounds / 4 + 16;
        out->rounds = sm_xmalloc(sizeof(sm_round) * (size_t)out->cap_rounds);
    }
    if (out->cap_entries < entries + 1) {
        free(out->entries);
        out->cap_entries = entries + entries / 4 + 64;
        out->entries = sm_xmalloc(sizeof(sm_round_entry) * (size_t)out->cap_entries);
    }
    out->nrounds = out->nentries = 0;
    out->colours = out->lower = 0;
    for (int r = 0; r < s->nr; r++) {
        if (s->dur[r] <= 0) continue;
        sm_round *rd = &out->rounds[out->nrounds++];
        *rd = (sm_round){s->dur[r], out->nentries, 0};
        for (int i = 0; i < s->rent[r].n; i++) {
            const isent *x = &s->ent[s->rent[r].v[i]];
            out->entries[out->nentries++] = (sm_round_entry){x->p, x->q, x->quanta};
            rd->count++;
        }
        out->colours += s->dur[r];
    }
}
