/* pane_processors.c - every processor grouped by node (or network group):
 * glyph, name, type, a load bar (compute time against T, with the
 * deadline marked), blocks, cells, energy and idle time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pane.h"
#include "core/run_results/run_vs_model.h"
#include "tui/app/list_pane_rows.h"
#include "tui/app/tcl_bridge.h"

/* The rows as last drawn: keys and clicks answer from these. */
/* Where a type's speed came from, after its name (SPEC 8 "source"):
 * ":meas" measured, ":fit" fitted from a measured profile, ":est"
 * estimated, ":pub" published; nothing when the file does not say. */
static const char *source_tag(const sm_type *T)
{
    const char *s = sm_type_source(T, "time_per_cell");
    if (!s) return "";
    if (strcmp(s, "measured") == 0) return ":meas";
    if (strcmp(s, "fitted") == 0) return ":fit";
    if (strcmp(s, "estimated") == 0) return ":est";
    return ":pub";
}

typedef struct procs_cache {
    sm_proc_row *r;
    int n;
} procs_cache;

static procs_cache *cache(sm_pane *p)
{
    if (!p->priv) p->priv = sm_xcalloc(1, sizeof(procs_cache));
    return p->priv;
}

static int cursor_row(const procs_cache *c, int proc)
{
    for (int i = 0; i < c->n; i++)
        if (c->r[i].proc >= 0 && c->r[i].proc == proc) return i;
    return -1;
}

/* Processor q's DVFS state in the shown mapping (the solver's while the
 * panes follow one that chooses states, else the machine's); NULL for
 * its type's own parameters. */
static const char *shown_state(const sm_frame *f, const sm_topo *t, int q)
{
    if (!f->states) return sm_topo_proc_state(t, q) != SM_STATE_BASE ? sm_topo_proc_state_name(t, q) : NULL;
    const sm_type *T = &t->types[t->procs[q].type];
    int k = f->states[q];
    return k >= 0 && k < T->nstates ? T->state_names[k] : NULL;
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    const sm_topo *t = app->session->topo;
    const sm_model *m = &app->session->model;
    WINDOW *w = p->win;
    werase(w);
    /* The filter hides rows: shorter titles keep it and drop the rest. */
    char forms[5][160];
    const char *by = v->group_by_net ? "net" : "node", *desc = v->sort_desc ? " desc" : "";
    const char *fl = v->filter[0] ? "  filter " : "", *fs = v->filter[0] ? " /" : "";
    snprintf(forms[0], sizeof forms[0], "Processors  by %s, sort %s%s%s%.64s", by, sm_sort_names[v->sort], desc, fl,
             v->filter);
    snprintf(forms[1], sizeof forms[1], "Processors  %s, %s%s%s%.64s", by, sm_sort_names[v->sort], desc, fl, v->filter);
    snprintf(forms[2], sizeof forms[2], "Processors%s%.64s", fl, v->filter);
    snprintf(forms[3], sizeof forms[3], "Procs%s%.64s", fs, v->filter);
    snprintf(forms[4], sizeof forms[4], "Procs");
    const char *titles[] = {forms[0], forms[1], forms[2], forms[3], forms[4]};
    sm_ui_frame_forms(p, app, titles, 5);
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 20 || ih < 2) return;

    procs_cache *c = cache(p);
    free(c->r);
    c->r = sm_proc_rows(app, f->cost, &f->ev, &c->n);
    int n = c->n;
    const sm_proc_row *r = c->r;
    double T = f->ev.time;
    double scale = m->has_deadline && m->deadline > T ? m->deadline : T;
    /* The name column is as wide as the longest name shown, up to a third
     * of the pane; longer names give way in the middle, where machine
     * names (rack12-node0345-gpu3) differ least. */
    int nw = 4;
    for (int i = 0; i < n; i++)
        if (r[i].proc >= 0 && (int)strlen(t->procs[r[i].proc].name) > nw) nw = (int)strlen(t->procs[r[i].proc].name);
    int nmax = iw / 3 > 8 ? iw / 3 : 8;
    if (nw > nmax) nw = nmax;
    /* The type column is as wide as the longest type name (a64fx_cmg),
     * up to a sixth of the pane (it was cut to 5: "a64fx"); a processor
     * in a DVFS state shows type@state (the state a solver chose or topo
     * state selected). */
    int tw = 4;
    for (int i = 0; i < t->ntypes; i++)
        if ((int)(strlen(t->types[i].name) + strlen(source_tag(&t->types[i]))) > tw)
            tw = (int)(strlen(t->types[i].name) + strlen(source_tag(&t->types[i])));
    for (int q = 0; q < t->nprocs; q++)
        if (shown_state(f, t, q)) {
            int l = (int)strlen(t->types[t->procs[q].type].name) + 1 + (int)strlen(shown_state(f, t, q)) +
                    (int)strlen(source_tag(&t->types[t->procs[q].type]));
            if (l > tw) tw = l;
        }
    int tmax = iw / 6 > 5 ? iw / 6 : 5;
    if (tw > tmax) tw = tmax;
    /* Compare mode: the other mapping's figures beside each row. */
    /* Comparing with a cost state still building: its rows come when it is in. */
    const sm_compare *cmp = f->cmp && !f->cmp->pending ? f->cmp : NULL;
    /* A run of the session's mapping imported: measured beside each row. */
    const int *run_row = NULL;
    const sm_run_cmp *run = !cmp && !f->source ? sm_app_run_cmp(app, &run_row) : NULL;
    double T2 = cmp ? cmp->ev.time : 0;
    if (cmp && T2 > scale) scale = T2;
    /* Columns that fit: glyph name [type] bar blocks [cells] energy [idle];
     * comparing: glyph name [type] bar bar' blocks blocks' [energy energy']. */
    int wide, mid, typed, fixed;
    if (cmp) {
        typed = iw >= 55 + nw + tw;
        mid = iw >= 48 + nw;   /* here: both energies */
        wide = 0;
        fixed = 1 + nw + 1 + (typed ? tw + 1 : 0) + 6 + 6 + (mid ? 20 : 0);
    } else {
        wide = iw >= 66 + nw, mid = iw >= 52 + nw, typed = iw >= 31 + nw + tw;
        fixed = 1 + nw + 1 + (typed ? tw + 1 : 0) + 6 + 10 + (mid ? 9 : 0) + (wide ? 10 : 0);
    }
    int barw = iw - fixed - 1;
    /* Too narrow for the bars: names give way (elided in the middle,
     * down to 4) before the blocks columns are pushed past the edge
     * (compare at 80x24 printed "640   64" for 640 640). */
    int barmin = cmp ? 9 : 4;
    if (barw < barmin && nw > 4) {
        int give = barmin - barw < nw - 4 ? barmin - barw : nw - 4;
        nw -= give;
        barw += give;
    }
    if (barw < barmin) barw = barmin;
    if (barw > (cmp ? 61 : 40)) barw = cmp ? 61 : 40;
    int bar1 = cmp ? (barw - 1) / 2 : barw;   /* each bar, comparing */
    char hdr[256];
    int x;
    if (cmp) {
        /* Narrow bars get short heads rather than elided ones. */
        char l1[64], l2[64];
        const char *mine = f->source ? "solver" : "session";
        sm_ui_elide(bar1 >= (int)strlen(mine) ? mine : bar1 >= 3 ? "now" : "", bar1, l1, sizeof l1);
        sm_ui_elide(bar1 >= 8 ? cmp->label : bar1 >= 5 ? "other" : bar1 >= 3 ? "cmp" : "", bar1, l2, sizeof l2);
        x = snprintf(hdr, sizeof hdr, "  %-*s %-*s%-*s %-*s%s %5s %5s", nw, "name", typed ? tw + 1 : 0,
                     typed ? "type" : "", bar1, l1, bar1, l2, barw % 2 ? "" : " ", "blk", "blk'");
        if (mid) snprintf(hdr + x, sizeof hdr - (size_t)x, " %9s %9s", "energy", "energy'");
    } else {
        /* A head wider than the bar pushed the others right ("blk    en"). */
        x = snprintf(hdr, sizeof hdr, "  %-*s %-*s%-*s %5s", nw, "name", typed ? tw + 1 : 0, typed ? "type" : "", barw,
                     barw >= 9 ? "compute/T" : barw >= 4 ? "load" : "", "blk");
        if (run) {
            /* A run of this mapping imported: its compute per iteration
             * and the model's accuracy on it, then the energy. */
            if (mid) x += snprintf(hdr + x, sizeof hdr - (size_t)x, " %8s", "run");
            x += snprintf(hdr + x, sizeof hdr - (size_t)x, " %9s", "accuracy");
            if (wide) snprintf(hdr + x, sizeof hdr - (size_t)x, " %9s", "energy");
        } else {
            if (mid) x += snprintf(hdr + x, sizeof hdr - (size_t)x, " %8s", "cells");
            x += snprintf(hdr + x, sizeof hdr - (size_t)x, " %9s", "energy");
            if (wide) snprintf(hdr + x, sizeof hdr - (size_t)x, " %9s", "idle");
        }
    }
    sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%s", hdr);

    /* Keep the chosen processor's row visible. */
    int sel_row = -1;
    for (int i = 0; i < n; i++)
        if (r[i].proc >= 0 && r[i].proc == v->proc) sel_row = i;
    int rows = ih - 1;
    if (sel_row >= 0) {
        if (sel_row < p->top) p->top = sel_row > 0 && r[sel_row - 1].proc < 0 ? sel_row - 1 : sel_row;
        if (sel_row >= p->top + rows) p->top = sel_row - rows + 1;
    }
    if (p->top > n - rows) p->top = n - rows;
    if (p->top < 0) p->top = 0;
    for (int i = 0; i < rows && p->top + i < n; i++) {
        const sm_proc_row *row = &r[p->top + i];
        int y = 2 + i;
        if (row->proc < 0) {
            sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_HEADER), "%s %d", v->group_by_net ? "net group" : "node",
                       row->group);
            continue;
        }
        int q = row->proc;
        attr_t base = q == v->proc ? sm_ui_attr(SM_EL_CURSOR) : sm_ui_attr(SM_EL_TEXT);
        wattrset(w, sm_ui_proc_attr(q));
        mvwaddch(w, y, 1, (chtype)(unsigned char)sm_ui_glyph(q));
        int bx = 2 + nw + 2 + (typed ? tw + 1 : 0);
        char nm[128], ty[64], tyc[16];
        sm_ui_elide(t->procs[q].name, nw, nm, sizeof nm);
        const sm_type *qt = &t->types[t->procs[q].type];
        if (shown_state(f, t, q))
            snprintf(ty, sizeof ty, "%s%s@%s", qt->name, source_tag(qt), shown_state(f, t, q));
        else
            snprintf(ty, sizeof ty, "%s%s", qt->name, source_tag(qt));
        sm_ui_elide(ty, tw, tyc, sizeof tyc);
        if (typed) sm_ui_text(w, y, 2, nw + tw + 3, base, " %-*s %-*s ", nw, nm, tw, tyc);
        else sm_ui_text(w, y, 2, nw + 2, base, " %-*s ", nw, nm);
        sm_proc_eval ope;
        if (cmp) sm_cost_proc(cmp->cost, &cmp->ev, q, &ope);
        sm_ui_bar(w, y, bx, bar1, row->pe.comp_time, scale, SM_EL_BAR_COMP, '#');
        if (cmp) sm_ui_bar(w, y, bx + bar1 + 1, bar1, ope.comp_time, scale, SM_EL_BAR_COMP, '#');
        /* T and the deadline, as marks on the bar(s). */
        for (int k = 0; k < (cmp ? 2 : 1); k++) {
            int x0 = bx + k * (bar1 + 1);
            double Tk = k ? T2 : T;
            if (scale > 0 && Tk < scale) {
                int tx = (int)(bar1 * Tk / scale);
                if (tx < bar1) sm_ui_text(w, y, x0 + tx, 1, sm_ui_attr(SM_EL_DIM), "T");
            }
            if (m->has_deadline && scale > 0) {
                int dx = (int)(bar1 * m->deadline / scale);
                if (dx >= bar1) dx = bar1 - 1;
                sm_ui_text(w, y, x0 + dx, 1, sm_ui_attr(SM_EL_DEADLINE), "|");
            }
        }
        char e[32], e2[32], idle[32], line[128];
        if (cmp) {
            int lx = snprintf(line, sizeof line, " %5lld %5lld", (long long)row->pe.blocks, (long long)ope.blocks);
            if (mid)
                snprintf(line + lx, sizeof line - (size_t)lx, " %9s %9s", sm_ui_joules(row->pe.energy, e, sizeof e),
                         sm_ui_joules(ope.energy, e2, sizeof e2));
        } else if (run) {
            int lx = snprintf(line, sizeof line, " %5lld", (long long)row->pe.blocks);
            int k = run_row[q];
            char ms[32], ac[32];
            const sm_acc *a = k >= 0 ? &run->rows[k].compute : NULL;
            if (mid) lx += snprintf(line + lx, sizeof line - (size_t)lx, " %8s", a ? sm_ui_seconds(a->measured, ms, sizeof ms) : "-");
            snprintf(ac, sizeof ac, a && isfinite(a->accuracy) ? "%.1f %%" : "-", a ? 100 * a->accuracy : 0.0);
            lx += snprintf(line + lx, sizeof line - (size_t)lx, " %9s", ac);
            if (wide) snprintf(line + lx, sizeof line - (size_t)lx, " %9s", sm_ui_joules(row->pe.energy, e, sizeof e));
        } else {
            int lx = snprintf(line, sizeof line, " %5lld", (long long)row->pe.blocks);
            char cl[32];
            /* Cells by the same rule as the units: "3.932 M", not 3.93e+06. */
            if (mid) lx += snprintf(line + lx, sizeof line - (size_t)lx, " %8s", sm_ui_si((double)row->pe.cells, "", 4, cl, sizeof cl));
            lx += snprintf(line + lx, sizeof line - (size_t)lx, " %9s", sm_ui_joules(row->pe.energy, e, sizeof e));
            if (wide)
                snprintf(line + lx, sizeof line - (size_t)lx, " %9s", sm_ui_seconds(row->pe.idle_time, idle, sizeof idle));
        }
        sm_ui_text(w, y, bx + barw, iw - (bx + barw) + 1, base, "%s", line);
    }
}

static int choose(const sm_app *app, int proc, sm_words *cmd)
{
    sm_words_lit(cmd, "view proc");
    sm_words_add(cmd, app->session->topo->procs[proc].name);
    return 1;
}

static int rows(sm_pane *p, sm_app *app, const sm_frame *f, int *cursor)
{
    (void)f;
    procs_cache *c = cache(p);
    *cursor = cursor_row(c, app->view->proc);
    return c->n;
}

/* Down the rows in display order, over the group headings. */
static int move_row(sm_pane *p, sm_app *app, const sm_frame *f, int delta, sm_words *cmd)
{
    (void)f;
    procs_cache *c = cache(p);
    if (c->n == 0) return 0;
    int cur = cursor_row(c, app->view->proc);
    int i = cur < 0 ? (delta < 0 ? c->n - 1 : 0) : sm_pane_step(cur, delta, c->n);
    int dir = delta < 0 ? -1 : 1, j = i;
    while (j >= 0 && j < c->n && c->r[j].proc < 0) j += dir;
    if (j < 0 || j >= c->n) /* only headings that way: the nearest row back */
        for (j = i; j >= 0 && j < c->n && c->r[j].proc < 0; j -= dir) {}
    if (j < 0 || j >= c->n) return 0;
    i = j;
    return choose(app, c->r[i].proc, cmd);
}

static int activate(sm_pane *p, sm_app *app, const sm_frame *f, sm_words *cmd)
{
    (void)p; (void)f;
    if (app->view->proc < 0) return 0;
    sm_words_lit(cmd, "view select proc");
    sm_words_add(cmd, app->session->topo->procs[app->view->proc].name);
    return 1;
}

static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)x; (void)f;
    procs_cache *c = cache(p);
    int i = p->top + y - 2;
    if (y < 2 || i >= c->n || c->r[i].proc < 0) return 0;
    return choose(app, c->r[i].proc, &cmds[0]);
}

static void release(sm_pane *p)
{
    procs_cache *c = p->priv;
    if (c) free(c->r);
    free(c);
    p->priv = NULL;
}

const sm_pane_ops sm_pane_procs = {
    .deps = SM_DEP_MAPPING | SM_DEP_SESSION | SM_DEP_VIEW,
    .draw = draw, .rows = rows, .move_cursor = move_row, .activate = activate, .click = click, .release = release,
};
