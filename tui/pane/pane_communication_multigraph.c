/* pane_communication_multigraph.c - the processor multigraph: each communicating pair with
 * its multiplicity, intra- or inter-node, and the rounds it is sent in;
 * below, the edge colouring as rounds, each with its colour and duration.
 * Enter (or a click) on a pair highlights its blocks in the Grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pane.h"
#include "tui/app/compared_pair_rows.h"
#include "tui/app/list_pane_rows.h"
#include "tui/app/tcl_bridge.h"

typedef struct comm_cache {
    const void *owner;            /* f->map_owner and f->map_stamp it was built for */
    unsigned long long stamp;
    long long builds;             /* schedules built, for the bench */
    int drawable;                 /* the schedule is built (sm_schedule_drawable) */
    sm_schedule sched;
    sm_pair_list list;            /* the pairs, kept in order across moves */
    sm_pair_row *rows;            /* list.rows while valid, else NULL */
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
        len += (size_t)snprintf(out + len, n - len, "%s%d", len ? "," : "s", r[a] + 1);
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
    /* Compare mode: every pair either mapping uses, its messages in the
     * shown mapping and in the other, largest change first, kept by what
     * changed (tui/app/compared_pair_rows.h); cmp_on while they are the
     * pairs of the mapping shown (owner, stamp) and the other's version. */
    sm_cmp_rows cr;
    int cmp_on;
    const void *cmp_owner;
    unsigned long long cmp_stamp, cmp_version;
    /* Whether every processor's name elided to uk_k columns is still
     * unique (then a pair may be named by elided names alone). */
    const sm_topo *uk_topo;
    unsigned long long uk_structure;
    int uk_k, uk_ok;
} comm_caches;

/* The compared rows brought up to date; a long listing from scratch (a
 * whole machine's pairs) goes to a worker and the pane is drawn again
 * each frame (busy) until it is in. */
static void build_cmp(sm_pane *p, comm_caches *cs, const sm_app *app, const sm_frame *f)
{
    int busy = sm_cmp_rows_busy(&cs->cr);
    if (!busy && cs->cmp_on && cs->cmp_owner == f->map_owner && cs->cmp_stamp == f->map_stamp &&
        cs->cmp_version == f->cmp->version)
        return;
    if (busy && !sm_cmp_rows_ready(&cs->cr)) return;
    /* STENCILMAP_COMPARE_BACKGROUND=0 (compare_mode.h): any size. */
    int bg = sm_compare_background_blocks == 0 ? 2 : 1;
    cs->cmp_on = sm_cmp_rows_update(&cs->cr, app->session->topo, app->session->structure, f->cost, f->cmp->cost, bg);
    p->busy = !cs->cmp_on;
    cs->cmp_owner = f->map_owner;
    cs->cmp_stamp = f->map_stamp;
    cs->cmp_version = f->cmp->version;
}

static void cmp_clear(sm_pane *p, comm_caches *cs)
{
    sm_cmp_rows_clear(&cs->cr);
    cs->cmp_on = 0;
    p->busy = 0;
}

/* The schedule's arrays stay for the next rebuild (release frees them). */
static void cache_clear(comm_cache *c)
{
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
    if (sm_schedule_drawable(f->cost)) sm_cost_schedule_refill(f->cost, &c->sched);
    else c->sched.nrounds = 0, c->sched.nentries = 0, c->sched.colours = 0;
    c->drawable = sm_schedule_drawable(f->cost);
    sm_pair_list_update(&c->list, app, f->cost);
    c->rows = c->list.rows;
    c->nrows = c->list.n;
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

/* The rows keys and clicks answer from: the pairs last drawn, compared
 * or not. */
static int nrows_shown(const sm_pane *p)
{
    const comm_caches *cs = p->priv;
    if (!cs || !cs->shown) return 0;
    return cs->cmp_on ? cs->cr.n : cs->shown->nrows;
}

static int pair_at(const sm_pane *p, int i, int *pp, int *qq)
{
    const comm_caches *cs = p->priv;
    if (i < 0 || i >= nrows_shown(p)) return 0;
    *pp = cs->cmp_on ? cs->cr.rows[i].p : cs->shown->rows[i].p;
    *qq = cs->cmp_on ? cs->cr.rows[i].q : cs->shown->rows[i].q;
    return 1;
}

/* A pair's label in width columns: "p-q" whole when it fits; else the
 * processors' indices (as commands take them), which never collide, and
 * both names elided alike ("6-34 n00.v~0_4-n04.v~0_0"; one cut name for
 * the pair, "6-34 n00~00_0", read as a single name); with less room both
 * names alone, elided alike ("n00.~00_4-n04.~00_0"); then the indices. */
#define PAIR_NAME_MIN 5
static int by_string(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Are the machine's names, elided to k columns, all different? */
static int names_unique(comm_caches *cs, const sm_app *app, int k)
{
    const sm_topo *t = app->session->topo;
    if (cs->uk_topo == t && cs->uk_structure == app->session->structure && cs->uk_k == k) return cs->uk_ok;
    char **e = sm_xmalloc(sizeof(char *) * (size_t)(t->nprocs ? t->nprocs : 1));
    for (int i = 0; i < t->nprocs; i++) {
        e[i] = sm_xmalloc((size_t)k + 2);
        sm_ui_elide(t->procs[i].name, k, e[i], (size_t)k + 2);
    }
    qsort(e, (size_t)t->nprocs, sizeof *e, by_string);
    int ok = 1;
    for (int i = 1; i < t->nprocs && ok; i++) ok = strcmp(e[i - 1], e[i]) != 0;
    for (int i = 0; i < t->nprocs; i++) free(e[i]);
    free(e);
    cs->uk_topo = t;
    cs->uk_structure = app->session->structure;
    cs->uk_k = k;
    cs->uk_ok = ok;
    return ok;
}

/* The pair column's heading: "pair (#)" when the pairs are named by
 * processor indices alone (as commands take them). */
static const char *pair_head(const sm_topo *t, int longest, int pw, int alone)
{
    char b[16];
    int idw = 2 * snprintf(b, sizeof b, "%d", t->nprocs > 0 ? t->nprocs - 1 : 0) + 1;
    if (longest <= pw || alone || (pw - idw - 2) / 2 >= PAIR_NAME_MIN) return "pair";
    return pw >= 8 ? "pair (#)" : "pair";
}

/* alone: names elided to (width - 1) / 2 columns stay unique. */
static const char *pair_label(const sm_topo *t, int p, int q, int width, int alone, char *out, size_t n)
{
    char pair[512];
    snprintf(pair, sizeof pair, "%s-%s", t->procs[p].name, t->procs[q].name);
    if ((int)strlen(pair) <= width) return sm_ui_elide(pair, width, out, n);
    char ids[32], a[128], b[128];
    int il = snprintf(ids, sizeof ids, "%d-%d", p, q);
    int k = (width - il - 2) / 2;
    /* The indices when the names keep 8 columns each; else the names get
     * the room (the node and the index at their ends survive) when they
     * stay unique that way. */
    if (k >= 8 || (k >= PAIR_NAME_MIN && !alone)) {
        snprintf(out, n, "%s %s-%s", ids, sm_ui_elide(t->procs[p].name, k, a, sizeof a),
                 sm_ui_elide(t->procs[q].name, k, b, sizeof b));
        return out;
    }
    k = (width - 1) / 2;
    if (k >= PAIR_NAME_MIN && alone) {
        snprintf(out, n, "%s-%s", sm_ui_elide(t->procs[p].name, k, a, sizeof a),
                 sm_ui_elide(t->procs[q].name, k, b, sizeof b));
        return out;
    }
    return sm_ui_elide(ids, width, out, n);
}

/* The pair column: as wide as the longest pair when that leaves mu, via
 * and some steps, or mu and via, or mu alone (in a narrow pane the
 * names say whether a pair shares a node); else half a wide pane, or
 * all but mu of a narrow one, with the pairs elided. */
typedef struct { int pw, via, steps; } pair_cols;
static pair_cols pair_column(int longest, int iw)
{
    pair_cols c = {longest > 4 ? longest : 4, 1, 1};
    if (longest <= iw / 2 || longest + 12 + 8 <= iw) return c;
    c.steps = 0;
    if (longest + 12 <= iw) return c;
    c.via = 0;
    if (longest + 7 <= iw) return c;
    if (iw >= 60) return (pair_cols){iw / 2, 1, 1};
    c.pw = iw - 7 > 8 ? iw - 7 : 8;
    return c;
}

static void draw_rounds(WINDOW *w, const comm_cache *c, const sm_app *app, const sm_frame *f, int ih, int iw,
                        int round_lines);

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    const sm_topo *t = app->session->topo;
    WINDOW *w = p->win;
    comm_cache *c = cache(p, app, f);
    comm_caches *cs = p->priv;
    if (f->cmp && !f->cmp->pending) build_cmp(p, cs, app, f);
    else cmp_clear(p, cs);
    werase(w);
    /* The title: the longest of its forms that fits the border whole (a
     * cut title lost the other mapping's count). The rounds are the
     * model's count, named; the schedule below says how it relates. */
    char forms[5][256];
    long long ra = (long long)f->ev.rounds;
    const char *rm = sm_rounds_name(app->session->model.rounds);
    if (cs->cmp_on) {
        long long rb = (long long)f->cmp->ev.rounds;
        snprintf(forms[0], sizeof forms[0], "Communication  %d pairs vs %d, %lld rounds vs %lld (%s, %.60s)",
                 c->nrows, cs->cr.nother, ra, rb, rm, f->cmp->label);
        snprintf(forms[1], sizeof forms[1], "Communication  %d pairs vs %d, %lld vs %lld rounds", c->nrows,
                 cs->cr.nother, ra, rb);
        snprintf(forms[2], sizeof forms[2], "Communication  %lld vs %lld rounds", ra, rb);
        snprintf(forms[3], sizeof forms[3], "Comm %lld|%lld rounds", ra, rb);
        snprintf(forms[4], sizeof forms[4], "Comm %lld|%lld", ra, rb);
    } else if (p->busy) {
        /* Comparing, its pairs listed in the background: the shown
         * mapping's meanwhile, and the title says so. */
        snprintf(forms[0], sizeof forms[0], "Communication  %d pairs, %lld rounds (%s), compared: pending", c->nrows,
                 ra, rm);
        snprintf(forms[1], sizeof forms[1], "Communication  %d pairs, compared: pending", c->nrows);
        snprintf(forms[2], sizeof forms[2], "Communication  compared: pending");
        snprintf(forms[3], sizeof forms[3], "Comm pending");
        snprintf(forms[4], sizeof forms[4], "Comm");
    } else {
        snprintf(forms[0], sizeof forms[0], "Communication  %d pairs, %lld rounds (%s)", c->nrows, ra, rm);
        snprintf(forms[1], sizeof forms[1], "Communication  %d pairs, %lld rounds", c->nrows, ra);
        snprintf(forms[2], sizeof forms[2], "Communication  %lld rounds", ra);
        snprintf(forms[3], sizeof forms[3], "Comm %lld rounds", ra);
        snprintf(forms[4], sizeof forms[4], "Comm %lld", ra);
    }
    int form = 0;
    while (form < 4 && (int)strlen(forms[form]) + 2 > p->w - 4) form++;
    sm_ui_frame(p, app, forms[form]);
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 16 || ih < 3) return;

    /* Rounds take the bottom lines: coloured chips with durations. */
    int round_lines = ih >= 8 ? 2 : 1;
    int list_rows = ih - round_lines - 1;
    /* The pair column is as wide as the longest pair (whole names), up to
     * half the pane; longer pairs are elided in the middle. */
    pair_cols pc = pair_column(cs->cmp_on ? cs->cr.width : c->pair_width, iw);
    int pw = pc.pw;
    int nrows = nrows_shown(p);
    int row = v->comm_row < nrows ? v->comm_row : nrows - 1;
    if (cs->cmp_on) {
        /* Compare mode: both mappings' messages per pair, largest change
         * first (the rounds are the shown mapping's, below). */
        /* Too narrow for every column (80x24): the pair and its change,
         * the pair as wide as the rest allows. */
        int narrow = iw < pw + 26;
        if (narrow) pw = iw - 7 > 8 ? iw - 7 : 8;
        int alone = (pw - 1) / 2 >= PAIR_NAME_MIN && names_unique(cs, app, (pw - 1) / 2);
        const char *head = pair_head(t, cs->cr.width, pw, alone);
        if (narrow)
            sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%-*s %6s", pw, head, "diff");
        else
            sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%-*s %5s %6s %6s %-4s", pw, head, "mu", "other",
                       "diff", "via");
        if (row < p->top) p->top = row;
        if (row >= p->top + list_rows) p->top = row - list_rows + 1;
        if (p->top < 0) p->top = 0;
        for (int i = 0; i < list_rows && p->top + i < nrows; i++) {
            const sm_cmp_row *r = &cs->cr.rows[p->top + i];
            int hl = v->pair_p >= 0 &&
                     ((r->p == v->pair_p && r->q == v->pair_q) || (r->p == v->pair_q && r->q == v->pair_p));
            attr_t a = (p->top + i == row && v->focus == SM_PANE_COMM) ? sm_ui_attr(SM_EL_CURSOR)
                       : hl ? sm_ui_attr(SM_EL_HIGHLIGHT)
                       : r->a == r->b ? sm_ui_attr(SM_EL_DIM) : sm_ui_attr(SM_EL_TEXT);
            char shown[512];
            pair_label(t, r->p, r->q, pw, alone, shown, sizeof shown);
            if (narrow)
                sm_ui_text(w, 2 + i, 1, iw, a, "%-*s %+6lld", pw, shown, (long long)(r->b - r->a));
            else
                sm_ui_text(w, 2 + i, 1, iw, a, "%-*s %5lld %6lld %+6lld %-4s", pw, shown, (long long)r->a,
                           (long long)r->b, (long long)(r->b - r->a), r->inter ? "net" : "node");
        }
        if (nrows == 0) sm_ui_text(w, 2, 1, iw, sm_ui_attr(SM_EL_DIM), "no cut edges in either mapping");
        draw_rounds(w, c, app, f, ih, iw, round_lines);
        return;
    }
    int alone = (pw - 1) / 2 >= PAIR_NAME_MIN && names_unique(cs, app, (pw - 1) / 2);
    const char *head = pair_head(t, c->pair_width, pw, alone);
    /* The steps column only when a step fits ("s12-14"), not cut to "s". */
    int steps = pc.via && pc.steps && iw - (pw + 12) >= 5;
    if (pc.via)
        sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%-*s %5s %-4s %s", pw, head, "mu", "via",
                   steps ? "steps" : "");
    else
        sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%-*s %5s", pw, head, "mu");
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
        char shown[512], rounds[128];
        pair_label(t, r->p, r->q, pw, alone, shown, sizeof shown);
        rounds[0] = '\0';
        if (steps) {
            rounds_text(c, i, rounds, sizeof rounds);
            /* A list longer than its column ends at a whole step, marked
             * as going on ("s155-210,212,..."), not cut mid-number. */
            int avail = iw - (pw + 12);
            if ((int)strlen(rounds) > avail && avail >= 6) {
                int cut = avail - 3;
                while (cut > 0 && rounds[cut] != ',') cut--;
                if (cut > 0) snprintf(rounds + cut, sizeof rounds - (size_t)cut, ",..");
            }
        }
        if (pc.via)
            sm_ui_text(w, 2 + i, 1, iw, a, "%-*s %5lld %-4s %s", pw, shown, (long long)r->mu,
                       r->inter ? "net" : "node", rounds);
        else
            sm_ui_text(w, 2 + i, 1, iw, a, "%-*s %5lld", pw, shown, (long long)r->mu);
    }
    if (c->nrows == 0) sm_ui_text(w, 2, 1, iw, sm_ui_attr(SM_EL_DIM), "no cut edges: nothing to send");

    draw_rounds(w, c, app, f, ih, iw, round_lines);
}

/* The schedule: one chip per step (a matching of messages sent at
 * once), coloured, with its length in rounds. Its total is the title's
 * count, or the footer says which bound the model counts instead
 * (maxdeg: a lower bound, vizing: an upper one). */
static void draw_rounds(WINDOW *w, const comm_cache *c, const sm_app *app, const sm_frame *f, int ih, int iw,
                        int round_lines)
{
    int y = 1 + ih - round_lines, x = 1;
    if (!c->drawable) {
        /* Whole forms, narrower in turn (80x24 read "steps not listed ab"). */
        char nl[96];
        int m = SM_SCHEDULE_DRAW_MAX / 1000000;
        int n = snprintf(nl, sizeof nl, "steps not listed above %d M quanta: model rounds", m);
        if (n > iw) n = snprintf(nl, sizeof nl, "steps not listed (> %d M quanta)", m);
        if (n > iw) n = snprintf(nl, sizeof nl, "not listed: > %d M quanta", m);
        if (n > iw) snprintf(nl, sizeof nl, "steps not listed");
        sm_ui_words(w, y, x, iw, sm_ui_attr(SM_EL_DIM), "%s", nl);
        return;
    }
    char head[160];
    long long total = (long long)c->sched.colours, counted = (long long)f->ev.rounds;
    sm_rounds_model rm = app->session->model.rounds;
    int hl, n = c->sched.nrounds;
    const char *steps = n == 1 ? "step" : "steps";
    if (total == counted)
        hl = snprintf(head, sizeof head, "%d %s = %lld rounds: ", n, steps, total);
    else
        hl = snprintf(head, sizeof head, "%d %s = %lld rounds (%s counts %lld, %s bound): ", n, steps, total,
                      sm_rounds_name(rm), counted, rm == SM_ROUNDS_VIZING ? "an upper" : "a lower");
    if (hl > iw - 8) { /* narrow: the same facts, shorter */
        if (total == counted) hl = snprintf(head, sizeof head, "%d %s=%lld: ", n, steps, total);
        else hl = snprintf(head, sizeof head, "%d %s=%lld (%s %lld): ", n, steps, total, sm_rounds_name(rm), counted);
    }
    if (hl >= (int)sizeof head) hl = (int)sizeof head - 1;
    sm_ui_text(w, y, x, iw, sm_ui_attr(SM_EL_HEADER), "%s", head);
    x += hl;
    if (x > iw) {
        if (++y > ih) return;
        x = 1;
    }
    for (int r = 0; r < c->sched.nrounds; r++) {
        char chip[32];
        int len = snprintf(chip, sizeof chip, "%d:%lld", r + 1, (long long)c->sched.rounds[r].duration);
        if (x + len + 1 > iw) {
            if (++y > ih) break;
            x = 1;
        }
        sm_ui_text(w, y, x, len, sm_ui_proc_attr(r), "%s", chip);
        x += len + 1;
    }
}

/* "view pair P Q" for row i of the cache: names as words. */
static int pair_cmd(const sm_pane *p, const sm_app *app, int i, sm_words *cmd)
{
    int pp, qq;
    if (!pair_at(p, i, &pp, &qq)) return 0;
    sm_words_lit(cmd, "view pair");
    sm_words_add(cmd, app->session->topo->procs[pp].name);
    sm_words_add(cmd, app->session->topo->procs[qq].name);
    return 1;
}

/* Keys answer from the rows last drawn; the cache is rebuilt only in
 * draw, and only when the pane is shown. */
static int rows(sm_pane *p, sm_app *app, const sm_frame *f, int *cursor)
{
    (void)f;
    int n = nrows_shown(p);
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
    return pair_cmd(p, app, cur, cmd);
}

static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)f; (void)x;
    if (y < 2) return 0;
    return pair_cmd(p, app, p->top + y - 2, &cmds[0]);
}

static void release(sm_pane *p)
{
    comm_caches *cs = p->priv;
    if (!cs) return;
    for (int i = 0; i < 2; i++) {
        cache_clear(&cs->slot[i]);
        sm_pair_list_free(&cs->slot[i].list);
        sm_schedule_free(&cs->slot[i].sched);
    }
    sm_cmp_rows_free(&cs->cr);
    free(cs);
    p->priv = NULL;
}

const sm_pane_ops sm_pane_comm = {
    .deps = SM_DEP_MAPPING | SM_DEP_SESSION | SM_DEP_VIEW,
    .draw = draw, .rows = rows, .move_cursor = move_row, .activate = activate, .click = click, .release = release,
};
