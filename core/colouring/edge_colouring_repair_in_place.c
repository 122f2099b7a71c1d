/* edge_colouring_repair_in_place.c - a communication schedule repaired in place as the
 * multigraph changes (rounds model "colouring", issue 14).
 *
 * The schedule is a list of rounds, each a matching of processor pairs
 * with a duration (its longest entry). Taking quanta away from a pair
 * shortens its entries, longest first, and with them any round they
 * defined; adding quanta fills the pair's own slack, then rounds where
 * both processors are idle, and only then opens a round. Either way the
 * rounds stay matchings and cover the multigraph exactly; the caller
 * decides from a lower bound when a full rebuild is worth it. */
#include "edge_colouring_repair_in_place.h"

#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

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
