/* rows.c - list-pane rows (see rows.h). */
#include "rows.h"

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

sm_pair_row *sm_pair_rows(const sm_app *app, const sm_cost *cost, int *n)
{
    const sm_session *s = app->session;
    int np;
    sm_pairmu *pm = sm_cost_pairs(cost, 0, &np);
    sm_pair_row *r = sm_xmalloc(sizeof *r * (size_t)(np + 1));
    for (int i = 0; i < np; i++) {
        r[i].p = pm[i].p < pm[i].q ? pm[i].p : pm[i].q;
        r[i].q = pm[i].p < pm[i].q ? pm[i].q : pm[i].p;
        r[i].mu = pm[i].mu;
        r[i].inter = s->topo->procs[pm[i].p].node != s->topo->procs[pm[i].q].node;
    }
    free(pm);
    qsort(r, (size_t)np, sizeof *r, pair_cmp);
    *n = np;
    return r;
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
