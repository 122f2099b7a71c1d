/* pane_comm.c - the processor multigraph: each communicating pair with
 * its multiplicity, intra- or inter-node, and the rounds it is sent in;
 * below, the edge colouring as rounds, each with its colour and duration.
 * Enter (or a click) on a pair highlights its blocks in the Grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pane.h"
#include "../rows.h"
#include "../shell.h"

typedef struct comm_cache {
    const void *owner;            /* f->map_owner and f->map_stamp it was built for */
    unsigned long long stamp;
    long long builds;             /* schedules built, for the bench */
    sm_schedule sched;
    sm_pair_row *rows;
    int nrows;
    /* Per drawn row k (row rounds_top + k), the rounds its pair is sent
     * in, ascending: round[first[k] .. first[k+1]). */
    int *first, *round;
    int rounds_top, rounds_n;
    int pair_width;               /* the longest "p-q" name */
} comm_cache;

/* The rounds of the rows drawn, [top, top + n), in one pass over the
 * schedule: at 1 M blocks on 4096 processors the schedule has ~700 000
 * entries over ~15 000 pairs, and a move would otherwise index every
 * pair's rounds for the thirty rows on screen. An entry is dismissed by
 * one look at its lower processor unless a drawn row starts there. */
static void drawn_rounds(comm_cache *c, int top, int n, int nprocs)
{
    if (c->first && c->rounds_top == top && c->rounds_n == n) return;
    free(c->first);
    free(c->round);
    c->rounds_top = top;
    c->rounds_n = n;
    int *head = sm_xmalloc(sizeof(int) * (size_t)(nprocs + 1));   /* drawn rows by lower processor */
    int *next = sm_xmalloc(sizeof(int) * (size_t)(n + 1));
    int *last = sm_xmalloc(sizeof(int) * (size_t)(n + 1));
    for (int v = 0; v < nprocs; v++) head[v] = -1;
    for (int k = n - 1; k >= 0; k--) {
        next[k] = head[c->rows[top + k].p];   /* rows have p < q */
        head[c->rows[top + k].p] = k;
        last[k] = -1;
    }
    /* (drawn row, round) in round order, then grouped by row. */
    int cap = 64, m = 0;
    int *hit = sm_xmalloc(sizeof(int) * 2 * (size_t)cap);
    for (int r = 0; r < c->sched.nrounds; r++)
        for (int e = c->sched.rounds[r].first; e < c->sched.rounds[r].first + c->sched.rounds[r].count; e++) {
            const sm_round_entry *x = &c->sched.entries[e];
            int lo = x->p < x->q ? x->p : x->q, hi = x->p < x->q ? x->q : x->p;
            if (lo == hi || head[lo] < 0) continue;
            int k = head[lo];
            while (k >= 0 && c->rows[top + k].q != hi) k = next[k];
            if (k < 0 || last[k] == r) continue;   /* a second entry of the pair in one round */
            last[k] = r;
            if (m == cap) hit = sm_xrealloc(hit, sizeof(int) * 2 * (size_t)(cap *= 2));
            hit[2 * m] = k;
            hit[2 * m + 1] = r;
            m++;
        }
    c->first = sm_xcalloc((size_t)n + 2, sizeof(int));
    for (int h = 0; h < m; h++) c->first[hit[2 * h] + 1]++;
    for (int k = 0; k < n; k++) c->first[k + 1] += c->first[k];
    c->round = sm_xmalloc(sizeof(int) * (size_t)(m + 1));
    for (int k = 0; k < n; k++) last[k] = c->first[k];
    for (int h = 0; h < m; h++) c->round[last[hit[2 * h]]++] = hit[2 * h + 1];
    free(hit);
    free(head);
    free(next);
    free(last);
}

/* "r1,r4-6": drawn row i's rounds as runs, cut to fit out. */
static void rounds_text(const comm_cache *c, int i, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    const int *r = c->round + c->first[i];
    int k = c->first[i + 1] - c->first[i];
    for (int a = 0; a < k && len + 1 < n;) {
        int b = a;
        while (b + 1 < k && r[b + 1] == r[b] + 1) b++;
        len += (size_t)snprintf(out + len, n - len, "%s%d", len ? "," : "r", r[a] + 1);
        if (b > a && len + 1 < n) len += (size_t)snprintf(out + len, n - len, "-%d", r[b] + 1);
        a = b + 1;
    }
}

/* One cache per source (the session's mapping, the solver's), so that v
 * switching back and forth rebuilds nothing; `shown` is the one drawn
 * last, which keys and clicks answer from. */
typedef struct comm_caches {
    comm_cache slot[2];
    comm_cache *shown;
} comm_caches;

/* The schedule's arrays stay for the next rebuild (release frees them). */
static void cache_clear(comm_cache *c)
{
    free(c->rows);
    free(c->first);
    free(c->round);
    c->rows = NULL;
    c->first = c->round = NULL;
    c->nrows = 0;
}

/* The schedule and the pair rows of the shown mapping, built only when
 * the pane is drawn (so only while it is shown) and that mapping changed
 * since: edits elsewhere cost nothing here until the pane is looked at;
 * cursor moves redraw from the cache. */
static comm_cache *cache(sm_pane *p, const sm_app *app, const sm_frame *f)
{
    comm_caches *cs = p->priv;
    if (!cs) cs = p->priv = sm_xcalloc(1, sizeof *cs);
    comm_cache *c = &cs->slot[f->source ? 1 : 0];
    cs->shown = c;
    if (c->rows && c->owner == f->map_owner && c->stamp == f->map_stamp) return c;
    cache_clear(c);
    sm_cost_schedule_refill(f->cost, &c->sched);
    c->rows = sm_pair_rows(app, f->cost, &c->nrows);
    const sm_topo *t = app->session->topo;
    c->pair_width = 13;
    for (int i = 0; i < c->nrows; i++) {
        int l = (int)(strlen(t->procs[c->rows[i].p].name) + strlen(t->procs[c->rows[i].q].name) + 1);
        if (l > c->pair_width) c->pair_width = l;
    }
    c->owner = f->map_owner;
    c->stamp = f->map_stamp;
    c->builds++;
    return c;
}

static const comm_cache *shown(const sm_pane *p)
{
    const comm_caches *cs = p->priv;
    return cs ? cs->shown : NULL;
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    const sm_topo *t = app->session->topo;
    WINDOW *w = p->win;
    comm_cache *c = cache(p, app, f);
    werase(w);
    char title[128];
    snprintf(title, sizeof title, "Communication  %d pairs, %lld rounds", c->nrows, (long long)f->ev.rounds);
    sm_ui_frame(p, app, title);
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 16 || ih < 3) return;

    /* Rounds take the bottom lines: coloured chips with durations. */
    int round_lines = ih >= 8 ? 2 : 1;
    int list_rows = ih - round_lines - 1;
    /* The pair column is as wide as the longest pair (whole names), up to
     * half the pane; longer pairs are elided in the middle. */
    int pw = c->pair_width;
    if (pw > iw / 2) pw = iw / 2 > 13 ? iw / 2 : 13;
    sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%-*s %5s %-4s %s", pw, "pair", "mu", "via", "rounds");
    int row = v->comm_row < c->nrows ? v->comm_row : c->nrows - 1;
    if (row < p->top) p->top = row;
    if (row >= p->top + list_rows) p->top = row - list_rows + 1;
    if (p->top < 0) p->top = 0;
    int drawn = list_rows < c->nrows - p->top ? list_rows : c->nrows - p->top;
    drawn_rounds(c, p->top, drawn > 0 ? drawn : 0, t->nprocs);
    for (int i = 0; i < drawn; i++) {
        const sm_pair_row *r = &c->rows[p->top + i];
        int hl = v->pair_p >= 0 && ((r->p == v->pair_p && r->q == v->pair_q) || (r->p == v->pair_q && r->q == v->pair_p));
        attr_t a = (p->top + i == row && v->focus == SM_PANE_COMM) ? sm_ui_attr(SM_EL_CURSOR)
                   : hl ? sm_ui_attr(SM_EL_HIGHLIGHT) : sm_ui_attr(SM_EL_TEXT);
        char pair[512], shown[512], rounds[128];
        snprintf(pair, sizeof pair, "%s-%s", t->procs[r->p].name, t->procs[r->q].name);
        sm_ui_elide(pair, pw, shown, sizeof shown);
        sm_ui_text(w, 2 + i, 1, iw, a, "%-*s %5lld %-4s %s", pw, shown, (long long)r->mu,
                   r->inter ? "net" : "node", (rounds_text(c, i, rounds, sizeof rounds), rounds));
    }
    if (c->nrows == 0) sm_ui_text(w, 2, 1, iw, sm_ui_attr(SM_EL_DIM), "no cut edges: nothing to send");

    /* The schedule: one chip per round, coloured, with its duration. */
    int y = 1 + ih - round_lines, x = 1;
    char head[64];
    int hl = snprintf(head, sizeof head, "rounds %d=%lldq ", c->sched.nrounds, (long long)c->sched.colours);
    sm_ui_text(w, y, x, iw, sm_ui_attr(SM_EL_HEADER), "%s", head);
    x += hl;
    for (int r = 0; r < c->sched.nrounds; r++) {
        char chip[32];
        int len = snprintf(chip, sizeof chip, "%d:%lldq", r + 1, (long long)c->sched.rounds[r].duration);
        if (x + len + 1 > iw) {
            if (++y > ih) break;
            x = 1;
        }
        sm_ui_text(w, y, x, len, sm_ui_proc_attr(r), "%s", chip);
        x += len + 1;
    }
}

/* "view pair P Q" for row i of the cache: names as words. */
static int pair_cmd(const sm_app *app, const comm_cache *c, int i, sm_words *cmd)
{
    if (i < 0 || i >= c->nrows) return 0;
    sm_words_lit(cmd, "view pair");
    sm_words_add(cmd, app->session->topo->procs[c->rows[i].p].name);
    sm_words_add(cmd, app->session->topo->procs[c->rows[i].q].name);
    return 1;
}

/* Keys answer from the rows last drawn; the cache is rebuilt only in
 * draw, and only when the pane is shown. */
static int rows(sm_pane *p, sm_app *app, const sm_frame *f, int *cursor)
{
    (void)f;
    const comm_cache *c = shown(p);
    int n = c ? c->nrows : 0;
    *cursor = n ? (app->view->comm_row < n ? app->view->comm_row : n - 1) : -1;
    return n;
}

static int move_row(sm_pane *p, sm_app *app, const sm_frame *f, int delta, sm_words *cmd)
{
    int cur, cnt = rows(p, app, f, &cur);
    if (cnt == 0) return 0;
    sm_words_lit(cmd, "view row comm");
    sm_words_addf(cmd, "%d", sm_pane_step(cur, delta, cnt));
    return 1;
}

static int activate(sm_pane *p, sm_app *app, const sm_frame *f, sm_words *cmd)
{
    int cur;
    rows(p, app, f, &cur);
    return shown(p) && pair_cmd(app, shown(p), cur, cmd);
}

static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)f; (void)x;
    if (!shown(p) || y < 2) return 0;
    return pair_cmd(app, shown(p), p->top + y - 2, &cmds[0]);
}

static void release(sm_pane *p)
{
    comm_caches *cs = p->priv;
    if (!cs) return;
    for (int i = 0; i < 2; i++) {
        cache_clear(&cs->slot[i]);
        sm_schedule_free(&cs->slot[i].sched);
    }
    free(cs);
    p->priv = NULL;
}

const sm_pane_ops sm_pane_comm = {
    .deps = SM_DEP_MAPPING | SM_DEP_SESSION | SM_DEP_VIEW,
    .draw = draw, .rows = rows, .move_cursor = move_row, .activate = activate, .click = click, .release = release,
};
