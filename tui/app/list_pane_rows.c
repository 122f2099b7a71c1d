/* list_pane_rows.c - list-pane rows (see list_pane_rows.h). */
#include "list_pane_rows.h"

#include <stdlib.h>
#include <string.h>
#include "core/net/net.h"

static int group_of(const sm_topo *t, int p, int by_net)
{
    int node = t->procs[p].node;
    return by_net ? sm_net_group(t->net, node) : node;
}

static int key_cmp(const sm_app *sort_app, const sm_proc_row *a, const sm_proc_row *b)
{
    const sm_view *v = sort_app->view;
    const sm_topo *t = sort_app->session->topo;
    double x = 0, y = 0;
    switch (v->sort) {
    case SM_SORT_name: return strcmp(t->procs[a->proc].name, t->procs[b->proc].name);
    case SM_SORT_load: x = a->pe.comp_time; y = b->pe.comp_time; break;
    case SM_SORT_energy: x = a->pe.energy; y = b->pe.energy; break;
    case SM_SORT_blocks: x = (double)a->pe.blocks; y = (double)b->pe.blocks; break;
    case SM_SORT_idle: x = a->pe.idle_time; y = b->pe.idle_time; break;
    default: break;
    }
    return (x > y) - (x < y);
}

static int row_cmp(const void *pa, const void *pb, void *ctx)
{
    const sm_app *sort_app = ctx;
    const sm_proc_row *a = pa, *b = pb;
    if (a->group != b->group) return (a->group > b->group) - (a->group < b->group);
    int c = key_cmp(sort_app, a, b);
    if (sort_app->view->sort_desc) c = -c;
    return c ? c : a->proc - b->proc;
}

static int matches(const sm_topo *t, int p, const char *f)
{
    if (!*f) return 1;
    char node[32];
    snprintf(node, sizeof node, "n%d", t->procs[p].node);
    return strstr(t->procs[p].name, f) || strstr(t->types[t->procs[p].type].name, f) ||
           strcmp(node, f) == 0;
}

sm_proc_row *sm_proc_rows(const sm_app *app, const sm_cost *cost, const sm_eval *ev, int *n)
{
    const sm_session *s = app->session;
    const sm_topo *t = s->topo;
    sm_proc_row *r = sm_xmalloc(sizeof *r * (size_t)(3 * t->nprocs + 1)); /* rows, then rows + headings */
    int m = 0;
    for (int p = 0; p < t->nprocs; p++) {
        if (!matches(t, p, app->view->filter)) continue;
        r[m].proc = p;
        r[m].group = group_of(t, p, app->view->group_by_net);
        sm_cost_proc(cost, ev, p, &r[m].pe);
        m++;
    }
    sm_sort_r(r, (size_t)m, sizeof *r, row_cmp, (void *)app);
    /* Headings before each group. */
    sm_proc_row *out = r + m;
    int k = 0;
    for (int i = 0; i < m; i++) {
        if (i == 0 || r[i].group != r[i - 1].group) {
            memset(&out[k], 0, sizeof out[k]);
            out[k].proc = -1;
            out[k].group = r[i].group;
            k++;
        }
        out[k++] = r[i];
    }
    memmove(r, out, sizeof *r * (size_t)k);
    *n = k;
    return r;
}

static int pair_cmp(const void *pa, const void *pb)
{
    const sm_pair_row *a = pa, *b = pb;
    if (a->mu != b->mu) return a->mu < b->mu ? 1 : -1;
    if (a->p != b->p) return a->p - b->p;
    return a->q - b->q;
}

static sm_pair_row pair_row(const sm_topo *t, const sm_cost *cost, int slot)
{
    int p = cost->pairs.p[slot], q = cost->pairs.q[slot];
    sm_pair_row r;
    r.p = p < q ? p : q;
    r.q = p < q ? q : p;
    r.mu = cost->mu[slot];
    r.inter = t->procs[p].node != t->procs[q].node;
    r.slot = slot;
    return r;
}

sm_pair_row *sm_pair_rows(const sm_app *app, const sm_cost *cost, int *n)
{
    const sm_topo *t = app->session->topo;
    sm_pair_row *r = sm_xmalloc(sizeof *r * (size_t)(cost->pairs.n + 1));
    int np = 0;
    for (int s = 0; s < cost->pairs.n; s++)
        if (cost->mu[s] > 0) r[np++] = pair_row(t, cost, s);
    qsort(r, (size_t)np, sizeof *r, pair_cmp);
    *n = np;
    return r;
}

static void pair_list_rebuild(sm_pair_list *l, const sm_app *app, const sm_cost *cost)
{
    free(l->rows);
    l->rows = sm_pair_rows(app, cost, &l->n);
    l->nseen = cost->pairs.n;
    l->seen = sm_xrealloc(l->seen, sizeof(int64_t) * (size_t)(l->nseen + 1));
    if (l->nseen) memcpy(l->seen, cost->mu, sizeof(int64_t) * (size_t)l->nseen);
    l->serial = cost->serial;
}

/* The first row of rows[0..n) that sorts after r. */
static int insert_at(const sm_pair_row *rows, int n, const sm_pair_row *r)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (pair_cmp(&rows[mid], r) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void sm_pair_list_update(sm_pair_list *l, const sm_app *app, const sm_cost *cost)
{
    int slots = cost->pairs.n;
    if (l->serial != cost->serial || !l->rows || slots < l->nseen) {
        pair_list_rebuild(l, app, cost);
        return;
    }
    /* The pairs whose multiplicity changed (new slots included). */
    int k = 0, *chg = NULL, cap = 0;
    for (int s = 0; s < slots; s++) {
        int64_t was = s < l->nseen ? l->seen[s] : 0;
        if (cost->mu[s] == was) continue;
        if (k > l->n / 8 + 64) { /* many: sorting afresh is as cheap */
            free(chg);
            pair_list_rebuild(l, app, cost);
            return;
        }
        if (k == cap) chg = sm_xrealloc(chg, sizeof(int) * (size_t)(cap = cap ? 2 * cap : 64));
        chg[k++] = s;
    }
    if (k == 0) {
        free(chg);
        return;
    }
    if (slots > l->nseen) {
        l->seen = sm_xrealloc(l->seen, sizeof(int64_t) * (size_t)(slots + 1));
        for (int s = l->nseen; s < slots; s++) l->seen[s] = 0;
        l->nseen = slots;
    }
    /* Drop the changed pairs' rows (one pass; seen marks them: a listed
     * row always has seen > 0, so -1 means "changed")... */
    for (int i = 0; i < k; i++) l->seen[chg[i]] = -1;
    int m = 0;
    for (int i = 0; i < l->n; i++)
        if (l->seen[l->rows[i].slot] >= 0) l->rows[m++] = l->rows[i];
    /* ...then put each back where it sorts now, if it still sends. */
    const sm_topo *t = app->session->topo;
    sm_pair_row *add = sm_xmalloc(sizeof *add * (size_t)k);
    int na = 0;
    for (int i = 0; i < k; i++) {
        l->seen[chg[i]] = cost->mu[chg[i]];
        if (cost->mu[chg[i]] > 0) add[na++] = pair_row(t, cost, chg[i]);
    }
    qsort(add, (size_t)na, sizeof *add, pair_cmp);
    sm_pair_row *out = sm_xmalloc(sizeof *out * (size_t)(m + na + 1));
    int from = 0, o = 0;
    for (int i = 0; i < na; i++) {
        int at = from + insert_at(l->rows + from, m - from, &add[i]);
        memcpy(out + o, l->rows + from, sizeof *out * (size_t)(at - from));
        o += at - from;
        from = at;
        out[o++] = add[i];
    }
    memcpy(out + o, l->rows + from, sizeof *out * (size_t)(m - from));
    o += m - from;
    free(l->rows);
    l->rows = out;
    l->n = o;
    free(add);
    free(chg);
}

void sm_pair_list_free(sm_pair_list *l)
{
    free(l->rows);
    free(l->seen);
    memset(l, 0, sizeof *l);
}

int sm_block_in_pair(const sm_app *app, const int *map, int b)
{
    const sm_view *v = app->view;
    if (v->pair_p < 0) return 0;
    int pb = map[b];
    if (pb != v->pair_p && pb != v->pair_q) return 0;
    int other = pb == v->pair_p ? v->pair_q : v->pair_p;
    const sm_grid *g = app->session->grid;
    for (int i = g->nbr_off[b]; i < g->nbr_off[b + 1]; i++)
        if (map[g->nbr[i]] == other) return 1;
    return 0;
}
