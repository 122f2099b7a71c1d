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
    unsigned long long version;   /* f->map_version it was built for */
    long long builds;             /* schedules built, for the bench */
    sm_schedule sched;
    sm_pair_row *rows;
    int nrows;
} comm_cache;

/* The schedule and the pair rows of the shown mapping, built only when
 * the pane is drawn (so only while it is shown) and the mapping changed
 * since: edits elsewhere cost nothing here until the pane is looked at. */
static comm_cache *cache(sm_pane *p, const sm_app *app, const sm_frame *f)
{
    comm_cache *c = p->priv;
    if (!c) c = p->priv = sm_xcalloc(1, sizeof *c);
    if (c->rows && c->version == f->map_version) return c;
    sm_schedule_free(&c->sched);
    memset(&c->sched, 0, sizeof c->sched);
    free(c->rows);
    sm_cost_schedule(f->cost, &c->sched);
    c->rows = sm_pair_rows(app, f->cost, f->map, &c->nrows);
    c->version = f->map_version;
    c->builds++;
    return c;
}

/* "r1,r4-6": the rounds pair (a, b) is sent in. */
static void pair_rounds(const sm_schedule *s, int a, int b, char *out, size_t n)
{
    size_t len = 0;
    int run0 = -1, prev = -2;
    out[0] = '\0';
    for (int r = 0; r <= s->nrounds; r++) {
        int in = 0;
        if (r < s->nrounds)
            for (int e = s->rounds[r].first; e < s->rounds[r].first + s->rounds[r].count; e++) {
                const sm_round_entry *x = &s->entries[e];
                if ((x->p == a && x->q == b) || (x->p == b && x->q == a)) in = 1;
            }
        if (in && prev == r - 1 && run0 >= 0) { prev = r; continue; }
        if (run0 >= 0 && len < n) {
            len += (size_t)snprintf(out + len, n - len, "%s%d", len ? "," : "r", run0 + 1);
            if (prev > run0 && len < n) len += (size_t)snprintf(out + len, n - len, "-%d", prev + 1);
        }
        run0 = in ? r : -1;
        prev = in ? r : -2;
    }
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
    int pw = 13;
    for (int i = 0; i < c->nrows; i++) {
        int l = (int)(strlen(t->procs[c->rows[i].p].name) + strlen(t->procs[c->rows[i].q].name) + 1);
        if (l > pw) pw = l;
    }
    if (pw > iw / 2) pw = iw / 2 > 13 ? iw / 2 : 13;
    sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%-*s %5s %-4s %s", pw, "pair", "mu", "via", "rounds");
    int row = v->comm_row < c->nrows ? v->comm_row : c->nrows - 1;
    if (row < p->top) p->top = row;
    if (row >= p->top + list_rows) p->top = row - list_rows + 1;
    if (p->top < 0) p->top = 0;
    for (int i = 0; i < list_rows && p->top + i < c->nrows; i++) {
        const sm_pair_row *r = &c->rows[p->top + i];
        int hl = v->pair_p >= 0 && ((r->p == v->pair_p && r->q == v->pair_q) || (r->p == v->pair_q && r->q == v->pair_p));
        attr_t a = (p->top + i == row && v->focus == SM_PANE_COMM) ? sm_ui_attr(SM_EL_CURSOR)
                   : hl ? sm_ui_attr(SM_EL_HIGHLIGHT) : sm_ui_attr(SM_EL_TEXT);
        char pair[512], shown[512], rounds[64];
        snprintf(pair, sizeof pair, "%s-%s", t->procs[r->p].name, t->procs[r->q].name);
        sm_ui_elide(pair, pw, shown, sizeof shown);
        pair_rounds(&c->sched, r->p, r->q, rounds, sizeof rounds);
        sm_ui_text(w, 2 + i, 1, iw, a, "%-*s %5lld %-4s %s", pw, shown, (long long)r->mu,
                   r->inter ? "net" : "node", rounds);
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
    const comm_cache *c = p->priv;
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
    return p->priv && pair_cmd(app, p->priv, cur, cmd);
}

static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)f; (void)x;
    if (!p->priv || y < 2) return 0;
    return pair_cmd(app, p->priv, p->top + y - 2, &cmds[0]);
}

static void release(sm_pane *p)
{
    comm_cache *c = p->priv;
    if (!c) return;
    sm_schedule_free(&c->sched);
    free(c->rows);
    free(c);
    p->priv = NULL;
}

const sm_pane_ops sm_pane_comm = {
    .deps = SM_DEP_MAPPING | SM_DEP_SESSION | SM_DEP_VIEW,
    .draw = draw, .rows = rows, .move_cursor = move_row, .activate = activate, .click = click, .release = release,
};
