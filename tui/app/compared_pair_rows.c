/* compared_pair_rows.c - the Communication pane's compared pairs, kept by
 * what changed (see compared_pair_rows.h). */
#include "compared_pair_rows.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

/* One side's pair table as read: slot -> pair and multiplicity. */
typedef struct pair_table {
    int n;
    const int *p, *q;
    const int64_t *mu;
} pair_table;

/* A listing from scratch on a worker: copies of both sides' tables in,
 * a whole sm_cmp_rows (rows, ids, counts) out. */
struct sm_cmp_listing {
    pthread_t thread;
    atomic_int done;
    int *p[2], *q[2];
    int64_t *mu[2];
    int n[2];
    const sm_cost *cost[2];
    unsigned long long serial[2];
    sm_cmp_rows out;          /* its proc_len/proc_node borrowed from the caller's */
    int dropped;              /* compare mode went off: thrown away when done */
};

static int by_change(const void *x, const void *y)
{
    const sm_cmp_row *a = x, *b = y;
    int64_t da = llabs(a->b - a->a), db = llabs(b->b - b->a);
    if (da != db) return da < db ? 1 : -1;
    int64_t ma = a->a > a->b ? a->a : a->b, mb = b->a > b->b ? b->a : b->b;
    if (ma != mb) return ma < mb ? 1 : -1;
    return a->p != b->p ? (a->p > b->p) - (a->p < b->p) : (a->q > b->q) - (a->q < b->q);
}

static void count_row(sm_cmp_rows *r, const sm_cmp_row *x, int by)
{
    int l = r->proc_len[x->p] + r->proc_len[x->q] + 1;
    r->by_len[l < 1023 ? l : 1023] += by;
    r->nother += by * (x->b > 0);
}

static void width_now(sm_cmp_rows *r)
{
    r->width = 13;
    for (int l = 1023; l > 13; l--)
        if (r->by_len[l]) {
            r->width = l;
            break;
        }
}

/* The id of pair {p, q}, made when new. */
static int pair_id(sm_cmp_rows *r, int p, int q)
{
    int made;
    int id = sm_pairmap_get(&r->ids, p, q, 1, &made);
    if (id >= r->id_cap) {
        int cap = r->id_cap ? r->id_cap : 1024;
        while (cap <= id) cap *= 2;
        r->id_a = sm_xrealloc(r->id_a, sizeof(int64_t) * (size_t)cap);
        r->id_b = sm_xrealloc(r->id_b, sizeof(int64_t) * (size_t)cap);
        r->id_changed = sm_xrealloc(r->id_changed, (size_t)cap);
        memset(r->id_changed + r->id_cap, 0, (size_t)(cap - r->id_cap));
        r->id_cap = cap;
    }
    if (made) r->id_a[id] = r->id_b[id] = 0;
    return id;
}

static sm_cmp_row row_of(const sm_cmp_rows *r, int id)
{
    int p = r->ids.p[id], q = r->ids.q[id];
    return (sm_cmp_row){p, q, r->id_a[id], r->id_b[id], r->proc_node[p] != r->proc_node[q], id};
}

/* Every pair either table uses, afresh (no side read). */
static void list_whole(sm_cmp_rows *r, const pair_table *a, const pair_table *b)
{
    sm_pairmap_free(&r->ids);
    memset(r->by_len, 0, sizeof r->by_len);
    r->nother = 0;
    const pair_table *side[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < side[k]->n; s++) {
            if (side[k]->mu[s] <= 0) continue;
            int id = pair_id(r, side[k]->p[s], side[k]->q[s]);
            (k ? r->id_b : r->id_a)[id] = side[k]->mu[s];
        }
    int m = r->ids.n;
    free(r->rows);
    r->rows = sm_xmalloc(sizeof *r->rows * (size_t)(m + 1));
    for (int id = 0; id < m; id++) {
        r->rows[id] = row_of(r, id);
        count_row(r, &r->rows[id], 1);
    }
    qsort(r->rows, (size_t)m, sizeof *r->rows, by_change);
    r->n = m;
    width_now(r);
}

static void side_read(struct sm_cmp_side *sd, const sm_cost *cost)
{
    sd->cost = cost;
    sd->serial = cost->serial;
    sd->nseen = cost->pairs.n;
    sd->seen = sm_xrealloc(sd->seen, sizeof(int64_t) * (size_t)(sd->nseen + 1));
    if (sd->nseen) memcpy(sd->seen, cost->mu, sizeof(int64_t) * (size_t)sd->nseen);
}

/* Side k's pair slots whose multiplicity changed since it was read, as
 * ids (marked changed, a or b updated), appended to chg: the count, or
 * -1 when it is another cost state or too many changed. */
static int side_changes(sm_cmp_rows *r, int k, const sm_cost *cost, int limit, int **chg, int *cap, int n)
{
    struct sm_cmp_side *sd = &r->side[k];
    if (sd->cost != cost || sd->serial != cost->serial || cost->pairs.n < sd->nseen) return -1;
    int slots = cost->pairs.n;
    for (int s = 0; s < slots; s++) {
        int64_t was = s < sd->nseen ? sd->seen[s] : 0;
        if (cost->mu[s] == was) continue;
        if (n >= limit) return -1;
        int id = pair_id(r, cost->pairs.p[s], cost->pairs.q[s]);
        (k ? r->id_b : r->id_a)[id] = cost->mu[s];
        if (!r->id_changed[id]) {
            r->id_changed[id] = 1;
            if (n == *cap) *chg = sm_xrealloc(*chg, sizeof(int) * (size_t)(*cap = *cap ? 2 * *cap : 64));
            (*chg)[n++] = id;
        }
    }
    if (slots > sd->nseen) sd->seen = sm_xrealloc(sd->seen, sizeof(int64_t) * (size_t)(slots + 1));
    if (slots) memcpy(sd->seen, cost->mu, sizeof(int64_t) * (size_t)slots);
    sd->nseen = slots;
    return n;
}

/* The first of rows[0..n) that sorts after x. */
static int insert_at(const sm_cmp_row *rows, int n, const sm_cmp_row *x)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (by_change(&rows[mid], x) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The changed pairs chg[0..k): their rows dropped, then each put back
 * where it sorts now if either side still sends. */
static void reorder(sm_cmp_rows *r, const int *chg, int k)
{
    int m = 0;
    for (int i = 0; i < r->n; i++) {
        if (r->id_changed[r->rows[i].id]) count_row(r, &r->rows[i], -1);
        else r->rows[m++] = r->rows[i];
    }
    sm_cmp_row *add = sm_xmalloc(sizeof *add * (size_t)(k + 1));
    int na = 0;
    for (int i = 0; i < k; i++) {
        r->id_changed[chg[i]] = 0;
        sm_cmp_row x = row_of(r, chg[i]);
        if (x.a > 0 || x.b > 0) add[na++] = x;
    }
    qsort(add, (size_t)na, sizeof *add, by_change);
    sm_cmp_row *out = sm_xmalloc(sizeof *out * (size_t)(m + na + 1));
    int from = 0, o = 0;
    for (int i = 0; i < na; i++) {
        int at = from + insert_at(r->rows + from, m - from, &add[i]);
        memcpy(out + o, r->rows + from, sizeof *out * (size_t)(at - from));
        o += at - from;
        from = at;
        out[o++] = add[i];
        count_row(r, &add[i], 1);
    }
    memcpy(out + o, r->rows + from, sizeof *out * (size_t)(m - from));
    o += m - from;
    free(r->rows);
    r->rows = out;
    r->n = o;
    free(add);
    width_now(r);
}

static void procs_of(sm_cmp_rows *r, const sm_topo *t, unsigned long long structure)
{
    if (r->topo == t && r->structure == structure && r->nprocs == t->nprocs && r->proc_len) return;
    r->nprocs = t->nprocs;
    r->proc_len = sm_xrealloc(r->proc_len, sizeof(int) * (size_t)(t->nprocs + 1));
    r->proc_node = sm_xrealloc(r->proc_node, sizeof(int) * (size_t)(t->nprocs + 1));
    for (int p = 0; p < t->nprocs; p++) {
        r->proc_len[p] = (int)strlen(t->procs[p].name);
        r->proc_node[p] = t->procs[p].node;
    }
    r->topo = t;
    r->structure = structure;
}

/* Only the listing's own fields: rows, ids, counts, sides. */
static void rows_free(sm_cmp_rows *r)
{
    free(r->rows);
    r->rows = NULL;
    r->n = 0;
    for (int k = 0; k < 2; k++) {
        free(r->side[k].seen);
        memset(&r->side[k], 0, sizeof r->side[k]);
    }
    sm_pairmap_free(&r->ids);
    free(r->id_a);
    free(r->id_b);
    free(r->id_changed);
    r->id_a = r->id_b = NULL;
    r->id_changed = NULL;
    r->id_cap = 0;
}

static void *listing_work(void *arg)
{
    struct sm_cmp_listing *l = arg;
    pair_table a = {l->n[0], l->p[0], l->q[0], l->mu[0]}, b = {l->n[1], l->p[1], l->q[1], l->mu[1]};
    list_whole(&l->out, &a, &b);
    atomic_store(&l->done, 1);
    return NULL;
}

static void listing_free(struct sm_cmp_listing *l)
{
    for (int k = 0; k < 2; k++) {
        free(l->p[k]);
        free(l->q[k]);
        free(l->mu[k]);
    }
    l->out.proc_len = l->out.proc_node = NULL;   /* borrowed */
    rows_free(&l->out);
    free(l);
}

/* Copies of both sides' tables (memcpy: a few MB at a whole machine)
 * listed on a worker. 0 when no thread could be had. */
static int listing_begin(sm_cmp_rows *r, const sm_cost *a, const sm_cost *b)
{
    struct sm_cmp_listing *l = sm_xcalloc(1, sizeof *l);
    const sm_cost *side[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        int n = side[k]->pairs.n;
        l->n[k] = n;
        l->p[k] = sm_xmalloc(sizeof(int) * (size_t)(n + 1));
        l->q[k] = sm_xmalloc(sizeof(int) * (size_t)(n + 1));
        l->mu[k] = sm_xmalloc(sizeof(int64_t) * (size_t)(n + 1));
        memcpy(l->p[k], side[k]->pairs.p, sizeof(int) * (size_t)n);
        memcpy(l->q[k], side[k]->pairs.q, sizeof(int) * (size_t)n);
        memcpy(l->mu[k], side[k]->mu, sizeof(int64_t) * (size_t)n);
        l->cost[k] = side[k];
        l->serial[k] = side[k]->serial;
    }
    l->out.proc_len = r->proc_len;
    l->out.proc_node = r->proc_node;
    atomic_init(&l->done, 0);
    if (pthread_create(&l->thread, NULL, listing_work, l) != 0) {
        listing_free(l);
        return 0;
    }
    r->listing = l;
    return 1;
}

/* The finished listing taken in: its rows, and each side as read when
 * copied (the update after it moves them on by what changed since). */
static void listing_take(sm_cmp_rows *r)
{
    struct sm_cmp_listing *l = r->listing;
    pthread_join(l->thread, NULL);
    r->listing = NULL;
    if (l->dropped) {
        listing_free(l);
        return;
    }
    rows_free(r);
    r->rows = l->out.rows;
    r->n = l->out.n;
    r->nother = l->out.nother;
    r->width = l->out.width;
    r->ids = l->out.ids;
    r->id_a = l->out.id_a;
    r->id_b = l->out.id_b;
    r->id_changed = l->out.id_changed;
    r->id_cap = l->out.id_cap;
    memcpy(r->by_len, l->out.by_len, sizeof r->by_len);
    memset(&l->out.ids, 0, sizeof l->out.ids);
    l->out.rows = NULL;
    l->out.id_a = l->out.id_b = NULL;
    l->out.id_changed = NULL;
    for (int k = 0; k < 2; k++) {
        r->side[k].cost = l->cost[k];
        r->side[k].serial = l->serial[k];
        r->side[k].seen = l->mu[k];
        r->side[k].nseen = l->n[k];
        l->mu[k] = NULL;
    }
    listing_free(l);
}

int sm_cmp_rows_ready(const sm_cmp_rows *r) { return r->listing && atomic_load(&r->listing->done); }

int sm_cmp_rows_busy(const sm_cmp_rows *r) { return r->listing && !r->listing->dropped; }

int sm_cmp_rows_update(sm_cmp_rows *r, const sm_topo *t, unsigned long long structure, const sm_cost *a,
                       const sm_cost *b, int background)
{
    if (r->listing) {
        if (!atomic_load(&r->listing->done)) {
            if (!r->listing->dropped) return 0;
            /* A listing for a compare gone: this one starts afresh. */
            pthread_join(r->listing->thread, NULL);
        }
        listing_take(r);
    }
    procs_of(r, t, structure);
    int *chg = NULL, cap = 0, limit = r->n / 8 + 64;
    int k = r->rows ? side_changes(r, 0, a, limit, &chg, &cap, 0) : -1;
    if (k >= 0) k = side_changes(r, 1, b, limit, &chg, &cap, k);
    if (k < 0) {
        free(chg);
        for (int i = 0; i < r->id_cap; i++) r->id_changed[i] = 0;
        if ((background > 1 || (background && a->pairs.n + b->pairs.n >= SM_CMP_ROWS_BACKGROUND_SLOTS)) &&
            listing_begin(r, a, b)) {
            rows_free(r);
            return 0;
        }
        pair_table ta = {a->pairs.n, a->pairs.p, a->pairs.q, a->mu}, tb = {b->pairs.n, b->pairs.p, b->pairs.q, b->mu};
        list_whole(r, &ta, &tb);
        side_read(&r->side[0], a);
        side_read(&r->side[1], b);
        return 1;
    }
    if (k > 0) reorder(r, chg, k);
    free(chg);
    return 1;
}

void sm_cmp_rows_clear(sm_cmp_rows *r)
{
    if (r->listing) {
        if (atomic_load(&r->listing->done)) {
            pthread_join(r->listing->thread, NULL);
            listing_free(r->listing);
            r->listing = NULL;
        } else {
            r->listing->dropped = 1;
        }
    }
    rows_free(r);
}

void sm_cmp_rows_free(sm_cmp_rows *r)
{
    if (r->listing) {
        pthread_join(r->listing->thread, NULL);
        listing_free(r->listing);
        r->listing = NULL;
    }
    rows_free(r);
    free(r->proc_len);
    free(r->proc_node);
    r->proc_len = r->proc_node = NULL;
    r->topo = NULL;
}
