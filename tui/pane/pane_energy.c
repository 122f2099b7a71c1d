/* pane_energy.c - the energy breakdown as bars (dynamic, static, idle,
 * intra- and inter-node communication) and the total; time against the
 * deadline and which side bounds it; the change the last action made. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pane.h"
#include "core/run_results/run_vs_model.h"
#include "core/run_results/run_json_file.h"
#include "tui/app/mpi_run_launch_job.h"

/* A deadline cell: met, missed, or no deadline. */
static const char *met(const sm_model *m, const sm_eval *ev)
{
    return !m->has_deadline ? "-" : sm_model_meets_deadline(m, ev->time) ? "met" : "missed";
}

/* Compare mode: the shown mapping and the other in two columns, and the
 * other's difference (green when it is lower). The column heads sit on
 * the border when the pane has no row to spare (80x24). */
static void draw_compare(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_eval *a = &f->ev, *b = &f->cmp->ev;
    const sm_model *m = &app->session->model;
    /* Following a solver that held itself to a deadline of its own (the
     * whole Summit has none): met or missed against that one, as the
     * pane says outside compare mode (it read "- -" here). */
    if (f->source && app->solver && app->solver->deadline_from && !m->has_deadline) m = &app->solver->model;
    WINDOW *w = p->win;
    sm_ui_frame(p, app, "Energy");
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 24 || ih < 3) return;
    int cw = (iw - 8) / 3;
    if (cw > 12) cw = 12;
    int y = 1, head_y = ih >= 9 ? y++ : 0;
    char left[16], right[16];
    sm_ui_elide(f->source ? "solver" : "session", cw - 1, left, sizeof left);
    sm_ui_elide(f->cmp->label, cw - 1, right, sizeof right);
    sm_ui_text(w, head_y, 1 + 8, cw, sm_ui_attr(SM_EL_HEADER), "%*s ", cw - 1, left);
    sm_ui_text(w, head_y, 1 + 8 + cw, cw, sm_ui_attr(SM_EL_HEADER), "%*s ", cw - 1, right);
    sm_ui_text(w, head_y, 1 + 8 + 2 * cw, cw, sm_ui_attr(SM_EL_HEADER), "%*s ", cw - 1, "diff");
    /* Its cost state still building (16.7 M blocks): the shown side's
     * figures, and no other figure until it is in. */
    if (f->cmp->pending) {
        char s1[32];
        sm_ui_text(w, y, 1, 8, sm_ui_attr(SM_EL_TEXT) | A_BOLD, "total");
        sm_ui_text(w, y, 1 + 8, cw, sm_ui_attr(SM_EL_TEXT) | A_BOLD, "%*s", cw - 1, sm_ui_joules(a->energy, s1, sizeof s1));
        sm_ui_text(w, y, 1 + 8 + cw, iw - 8 - cw, sm_ui_attr(SM_EL_DIM), "%*s", cw - 1, "pending");
        if (++y <= ih)
            sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "%s: figures pending, its cost state building %.0f s",
                       f->cmp->label, sm_compare_pending_seconds(f->cmp));
        return;
    }
    struct { const char *name; double a, b; int seconds; } rows[] = {
        {"dynamic", a->energy_dynamic, b->energy_dynamic, 0}, {"static", a->energy_static, b->energy_static, 0},
        {"idle", a->energy_idle, b->energy_idle, 0},          {"intra", a->energy_comm_intra, b->energy_comm_intra, 0},
        {"inter", a->energy_comm_inter, b->energy_comm_inter, 0}, {"total", a->energy, b->energy, 0},
        {"time", a->time, b->time, 1},
    };
    char s1[32], s2[32], s3[32];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && y <= ih; i++, y++) {
        double d = rows[i].b - rows[i].a;
        /* A difference within rounding of the figures is none (it read
         * "+0.0004441", the unit cut off, for 4e-16 J). */
        if (fabs(d) <= 1e-9 * fmax(fabs(rows[i].a), fabs(rows[i].b))) d = 0;
        const char *(*fmt)(double, char *, size_t) = rows[i].seconds ? sm_ui_seconds : sm_ui_joules;
        attr_t bold = i == 5 ? A_BOLD : 0;
        sm_ui_text(w, y, 1, 8, sm_ui_attr(SM_EL_TEXT) | bold, "%s", rows[i].name);
        sm_ui_text(w, y, 1 + 8, cw, sm_ui_attr(SM_EL_TEXT) | bold, "%*s", cw - 1, fmt(rows[i].a, s1, sizeof s1));
        sm_ui_text(w, y, 1 + 8 + cw, cw, sm_ui_attr(SM_EL_TEXT) | bold, "%*s", cw - 1, fmt(rows[i].b, s2, sizeof s2));
        char dd[40];
        snprintf(dd, sizeof dd, "%s%s", d > 0 ? "+" : "", fmt(d, s3, sizeof s3));
        sm_element el = d < 0 ? SM_EL_GOOD : d > 0 ? SM_EL_BAD : SM_EL_DIM;
        sm_ui_text(w, y, 1 + 8 + 2 * cw, iw - 8 - 2 * cw, sm_ui_attr(el) | bold, "%*s", cw - 1, dd);
    }
    if (y > ih) return;
    const char *ma = met(m, a), *mb = met(m, b);
    sm_element ea = *ma == '-' ? SM_EL_DIM : *ma == 'm' && ma[1] == 'e' ? SM_EL_GOOD : SM_EL_BAD;
    sm_element eb = *mb == '-' ? SM_EL_DIM : *mb == 'm' && mb[1] == 'e' ? SM_EL_GOOD : SM_EL_BAD;
    sm_ui_text(w, y, 1, 8, sm_ui_attr(SM_EL_TEXT), "deadline");
    sm_ui_text(w, y, 1 + 8, cw, sm_ui_attr(ea), "%*s", cw - 1, ma);
    sm_ui_text(w, y, 1 + 8 + cw, cw, sm_ui_attr(eb), "%*s", cw - 1, mb);
    sm_ui_text(w, y, 1 + 8 + 2 * cw, iw - 8 - 2 * cw, sm_ui_attr(SM_EL_DIM), "%*s", cw - 1,
               strcmp(ma, mb) == 0 ? "same" : "differs");
    /* Rows to spare (a taller screen, or zoomed): the communication and
     * placement behind the energies. */
    struct { const char *name; long long a, b; } more[] = {
        {"cut", (long long)a->messages, (long long)b->messages},
        {"quanta", (long long)a->edges, (long long)b->edges},
        {"rounds", (long long)a->rounds, (long long)b->rounds},
        {"procs", (long long)a->procs_used, (long long)b->procs_used},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0] && ++y <= ih; i++) {
        long long d = more[i].b - more[i].a;
        sm_ui_text(w, y, 1, 8, sm_ui_attr(SM_EL_TEXT), "%s", more[i].name);
        sm_ui_text(w, y, 1 + 8, cw, sm_ui_attr(SM_EL_TEXT), "%*lld", cw - 1, more[i].a);
        sm_ui_text(w, y, 1 + 8 + cw, cw, sm_ui_attr(SM_EL_TEXT), "%*lld", cw - 1, more[i].b);
        char dd[32];
        snprintf(dd, sizeof dd, d ? "%+lld" : "0", d);
        sm_ui_text(w, y, 1 + 8 + 2 * cw, iw - 8 - 2 * cw, sm_ui_attr(d < 0 ? SM_EL_GOOD : d > 0 ? SM_EL_BAD : SM_EL_DIM),
                   "%*s", cw - 1, dd);
    }
}

/* A run imported (`run import`, or a launched run that finished) of the
 * mapping shown: the model's figures per iteration beside the run's and
 * the accuracy 1 - |p - m| / m, overall; energy where a counter measured
 * it, else why not. */
static void draw_run(sm_pane *p, sm_app *app, const sm_run_cmp *c)
{
    WINDOW *w = p->win;
    const char *titles[] = {"Energy  model vs run (per iteration)", "Energy  model vs run", "Energy vs run", "Energy"};
    sm_ui_frame_forms(p, app, titles, 4);
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 24 || ih < 3) return;
    int cw = (iw - 8) / 3;
    if (cw > 11) cw = 11;
    int y = 1;
    sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_HEADER), "%-7s %*s%*s%*s", "run", cw, "model", cw, "measured", cw,
               "accuracy");
    struct { const char *name; const sm_acc *a; int joules; } rows[] = {
        {"compute", &c->overall.compute, 0}, {"comm", &c->overall.comm, 0},
        {"total", &c->overall.total, 0},     {"energy", &c->overall.energy, 1},
    };
    char b1[32], b2[32], b3[32];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && ++y <= ih; i++) {
        const sm_acc *a = rows[i].a;
        if (!a->has) {
            const sm_run *r = app->run;
            sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "%-7s not measured (%s)", rows[i].name,
                       r && r->energy_why ? r->energy_why : "no energy counter");
            continue;
        }
        const char *(*fmt)(double, char *, size_t) = rows[i].joules ? sm_ui_joules : sm_ui_seconds;
        snprintf(b3, sizeof b3, isfinite(a->accuracy) ? "%.1f %%" : "-", 100 * a->accuracy);
        sm_element el = !isfinite(a->accuracy) ? SM_EL_DIM : a->accuracy >= 0.9 ? SM_EL_GOOD : SM_EL_BAD;
        sm_ui_text(w, y, 1, 8 + 2 * cw, sm_ui_attr(SM_EL_TEXT) | (i == 2 ? A_BOLD : 0), "%-7s %*s%*s", rows[i].name,
                   cw, fmt(a->predicted, b1, sizeof b1), cw, fmt(a->measured, b2, sizeof b2));
        sm_ui_text(w, y, 1 + 8 + 2 * cw, iw - 8 - 2 * cw, sm_ui_attr(el), "%*s", cw, b3);
    }
    const sm_run *r = app->run;
    if (r && ++y <= ih)
        sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "%d ranks, %d iterations, %s exchange, checksum %s",
                   r->nranks, r->iters, r->exchange, r->checksum);
}

/* The lower bound on any deadline-feasible mapping's energy and the gap
 * of this one to it: long ">= 2.2703 J bound, gap 1.2 %", or short
 * "\u22652.27 J 1%" (">=" without UTF-8; 3 digits) to sit beside the total. Returns
 * the columns it takes. */
static int bound_text(sm_app *app, const sm_frame *f, int feasible, char *buf, size_t n, int longer)
{
    const sm_eval *ev = &f->ev;
    /* A solver's mapping in the DVFS states it chose is bounded over
     * every state (as solver state says), not the machine's states alone. */
    double be = f->states ? sm_app_bound_dvfs(app) : sm_app_bound(app)->energy;
    /* Following a solver: the bound solver state gives (at the deadline
     * it held itself to, raised by a bound it proved itself: the ILP's). */
    const sm_solver *sv = app->solver;
    if (f->source && sv) {
        double g;
        be = sm_app_solver_bound(app, sv, NULL, &g, NULL);
    }
    const char *ge = longer ? ">= " : f->utf8 ? "\u2265" : ">=";
    int extra = !longer && f->utf8 ? -2 : 0; /* the UTF-8 sign: 3 bytes, 1 column */
    char j[32];
    if (!isfinite(be)) {
        return snprintf(buf, n, "%s", longer ? "no mapping can meet the deadline" : "none feasible");
    }
    if (longer) sm_ui_joules(be, j, sizeof j);
    else sm_ui_si(be, "J", 3, j, sizeof j);
    /* A mapping that misses the deadline is not bounded by it: beside the
     * total, "total 39.42 kJ \u226539.8 kJ" read as a contradiction (the
     * whole Summit's tabu at 80x24); the short form gives it up. */
    if (!feasible || ev->energy <= 0) {
        if (!longer) {
            if (n) buf[0] = 0;
            return 0;
        }
        return snprintf(buf, n, "%s%s bound", ge, j);
    }
    double gap = 100 * fmax(0, (ev->energy - be) / ev->energy);
    if (longer) return snprintf(buf, n, "%s%s bound, gap %.1f %%", ge, j, gap);
    return snprintf(buf, n, "%s%s %.0f%%", ge, j, gap) + extra;
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_eval *ev = &f->ev;
    if (f->cmp) {
        werase(p->win);
        draw_compare(p, app, f);
        return;
    }
    /* A run of the session's mapping imported: the model beside it. */
    const sm_run_cmp *rc = !f->source ? sm_app_run_cmp(app, NULL) : NULL;
    if (rc) {
        werase(p->win);
        draw_run(p, app, rc);
        return;
    }
    const sm_model *m = &app->session->model;
    /* Following a solver that held itself to a deadline of its own: T
     * against that one. */
    if (f->source && app->solver && app->solver->deadline_from && !m->has_deadline) m = &app->solver->model;
    /* Feasible at that deadline too, as solver state says (it printed
     * "feasible" beside "T 5.097 ms > 4.752 ms"). */
    int feasible = ev->feasible && sm_model_meets_deadline(m, ev->time);
    const sm_session *s = app->session;
    WINDOW *w = p->win;
    werase(w);
    /* A run going on counts its iterations; one imported of another
     * mapping is named, never compared. */
    char going[64];
    const char *other = !f->source && app->run ? "Energy  run: another mapping" : NULL;
    const sm_run_job *job = app->run_job;
    if (job && job->state == SM_JOB_RUNNING) {
        snprintf(going, sizeof going, "Energy  run %d/%d", job->iteration, job->iters);
        other = going;
    }
    /* Following a solver the title says "vs session" only while the
     * delta against the session is on screen (below: narrow, the bound
     * and gap take its place). */
    const char *titles[] = {f->source ? "Energy  solver vs session" : other ? other : "Energy",
                            f->source ? "Energy vs session" : NULL, f->source ? "Energy (solver)" : NULL, "Energy"};
    const char *solver_titles[] = {"Energy (solver)", "Energy"};
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 20 || ih < 3) {
        sm_ui_frame_forms(p, app, titles, 4);
        return;
    }
    struct { const char *name; double v; sm_element el; } parts[] = {
        {"dynamic", ev->energy_dynamic, SM_EL_E_DYNAMIC}, {"static", ev->energy_static, SM_EL_E_STATIC},
        {"idle", ev->energy_idle, SM_EL_E_IDLE},          {"intra", ev->energy_comm_intra, SM_EL_E_INTRA},
        {"inter", ev->energy_comm_inter, SM_EL_E_INTER},
    };
    double mx = 0;
    for (int i = 0; i < 5; i++) mx = parts[i].v > mx ? parts[i].v : mx;
    int barw = iw - 8 - 11;
    if (barw < 3) barw = 3;
    int y = 1;
    char b1[32], b2[32], b3[32];
    for (int i = 0; i < 5 && y <= ih - 2; i++, y++) {
        sm_ui_text(w, y, 1, 8, sm_ui_attr(SM_EL_TEXT), "%-7s", parts[i].name);
        sm_ui_bar(w, y, 9, barw, parts[i].v, mx, parts[i].el, '#');
        sm_ui_text(w, y, 9 + barw + 1, iw - barw - 8, sm_ui_attr(SM_EL_TEXT), "%10s",
                   sm_ui_joules(parts[i].v, b1, sizeof b1));
    }
    /* The total, and what the last change did to it, named after that
     * change (an undo says what it undid); following the solver, how far
     * its mapping is from the session's. */
    double d = f->source ? ev->energy - f->session_ev.energy : ev->energy - s->last_eval.energy;
    int has_delta = f->source || s->last_change[0];
    const char *why = f->source ? "vs session" : s->last_change;
    /* How far from optimal: the proven lower bound and the gap to it, on
     * a row of its own when there is one to spare, else beside the total,
     * which gives up digits for it ("total 3.37 J \u22652.6 J 23%" in 23
     * columns, the Energy pane at 80x24). The last change's delta comes
     * first there when both do not fit: it says what the key just did.
     * Following a solver the delta is against the session (the title says
     * so) and the bound comes first: it is solver state's bound and gap
     * for the step shown, the ILP's progress (at 80x24 both went). */
    char bnd[64], dn[32];
    int bw = bound_text(app, f, feasible, bnd, sizeof bnd, ih >= 10);
    int dw = has_delta ? snprintf(dn, sizeof dn, "%s%s", d > 0 ? "+" : "", sm_ui_joules(d, b2, sizeof b2)) : 0;
    int tw = snprintf(b1, sizeof b1, "total %s", sm_ui_si(ev->energy, "J", 6, b3, sizeof b3));
    int beside = 0;
    if (ih < 10) {
        /* Fewer digits first, then "E" for "total" as the status line
         * names it: "E 8.983 J \u2265629 mJ 93%". */
        static const struct { const char *label; int digits; } forms[] = {
            {"total", 6}, {"total", 4}, {"total", 3}, {"E", 4}, {"E", 3}};
        for (int i = 0; i < 5 && !beside; i++) {
            tw = snprintf(b1, sizeof b1, "%s %s", forms[i].label,
                          sm_ui_si(ev->energy, "J", forms[i].digits, b3, sizeof b3));
            beside = tw + (bw ? 1 + bw : 0) + (has_delta ? 2 + dw : 0) <= iw;
        }
        if (!beside) tw = snprintf(b1, sizeof b1, "total %s", sm_ui_si(ev->energy, "J", 6, b3, sizeof b3));
        if (!beside && (!has_delta || f->source)) {
            for (int i = 0; i < 5 && !beside; i++) {
                tw = snprintf(b1, sizeof b1, "%s %s", forms[i].label,
                              sm_ui_si(ev->energy, "J", forms[i].digits, b3, sizeof b3));
                beside = tw + (bw ? 1 + bw : 0) <= iw;
            }
            if (!beside) tw = snprintf(b1, sizeof b1, "total %s", sm_ui_si(ev->energy, "J", 6, b3, sizeof b3));
        }
    }
    int x0 = 1 + tw + 2;
    if (ih < 10 && beside) x0 = 1 + tw + (bw ? 1 + bw : 0) + 2;
    int shows_delta = has_delta && x0 + dw - 1 <= iw;
    if (f->source && !shows_delta)
        sm_ui_frame_forms(p, app, solver_titles, 2);
    else
        sm_ui_frame_forms(p, app, titles, 4);
    sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_TEXT) | A_BOLD, "%s", b1);
    if (ih >= 10) {
        if (y + 1 <= ih) sm_ui_text(w, y + 1, 1, iw, sm_ui_attr(SM_EL_DIM), "%s", bnd);
    } else if (beside) {
        if (bw) sm_ui_text(w, y, 1 + tw + 1, (int)strlen(bnd), sm_ui_attr(SM_EL_DIM), "%s", bnd);
    }
    /* The delta, then its label as far as a few letters of it fit. */
    if (shows_delta) {
        sm_element el = d < 0 ? SM_EL_GOOD : d > 0 ? SM_EL_BAD : SM_EL_DIM;
        int room = iw - (x0 + dw + 2) + 1;
        if (room >= (int)strlen(why) || room >= 6)
            sm_ui_text(w, y, x0, iw - x0 + 1, sm_ui_attr(el), "%s  %s", dn, why);
        else
            sm_ui_text(w, y, x0, dw, sm_ui_attr(el), "%s", dn);
    }
    y += ih >= 10 ? 2 : 1;
    if (y > ih) return;
    /* Time against the deadline, and the bound. */
    int comm_bound = ev->comm_time > ev->comp_time;
    int x = 1;
    sm_ui_text(w, y, x, iw, sm_ui_attr(SM_EL_TEXT), "T %s", sm_ui_seconds(ev->time, b1, sizeof b1));
    x += 3 + (int)strlen(b1);
    if (m->has_deadline) {
        int ok = ev->time <= m->deadline;
        sm_ui_seconds(m->deadline, b2, sizeof b2);
        /* Whole or not at all: "<= 177.6" without its unit misleads. */
        if (4 + (int)strlen(b2) <= iw - x + 1)
            sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(ok ? SM_EL_GOOD : SM_EL_BAD), " %s %s", ok ? "<=" : ">", b2);
        x += 4 + (int)strlen(b2);
    }
    sm_ui_words(w, y, x, iw - x + 1, sm_ui_attr(SM_EL_DIM), " %s-bound", comm_bound ? "comm" : "comp");
    if (++y > ih) return;
    sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "comp %s  comm %s", sm_ui_seconds(ev->comp_time, b2, sizeof b2),
               sm_ui_seconds(ev->comm_time, b3, sizeof b3));
    if (++y > ih) return;
    /* Feasibility, the cut and the processors used, wrapped over the rows
     * left at word boundaries; with too few rows, the quanta go first,
     * then the cut (never cut mid-word: "... 36793 procs u"). */
    char st[64], cut[48], quanta[48], used[48];
    snprintf(st, sizeof st, "%s%s", feasible ? "feasible" : "misses the deadline", ev->memory_ok ? "" : ", over memory");
    snprintf(cut, sizeof cut, "%lld cut edges", (long long)ev->messages);
    snprintf(quanta, sizeof quanta, "(%lld quanta),", (long long)ev->edges);
    snprintf(used, sizeof used, "%d procs used", ev->procs_used);
    char cut_c[56];
    snprintf(cut_c, sizeof cut_c, "%s,", cut);
    const char *sets[4][4] = {{st, cut, quanta, used}, {st, cut_c, used, NULL}, {st, used, NULL, NULL},
                              {st, NULL, NULL, NULL}};
    attr_t fa = sm_ui_attr(feasible ? SM_EL_GOOD : SM_EL_BAD);
    int rows = ih - y + 1;
    for (int k = 0; k < 4; k++) {
        /* Lay the words out; draw them only if they all fit. */
        int r = 0, col = 0, fits = 1;
        int at_row[4], at_col[4];
        for (int i = 0; i < 4 && sets[k][i] && fits; i++) {
            int l = (int)strlen(sets[k][i]), sep = i == 0 ? 0 : i == 1 ? 2 : 1;
            if (l > iw) fits = 0;
            else if (col + sep + l > iw) r++, col = 0, sep = 0;
            if (r >= rows) fits = 0;
            at_row[i] = r;
            at_col[i] = col + sep;
            col += sep + l;
        }
        if (!fits && k < 3) continue;
        for (int i = 0; i < 4 && sets[k][i]; i++)
            if (fits || i == 0) sm_ui_text(w, y + at_row[i], 1 + at_col[i], iw - at_col[i], fa, "%s", sets[k][i]);
        return;
    }
}

const sm_pane_ops sm_pane_energy = {.deps = SM_DEP_MAPPING | SM_DEP_SESSION, .draw = draw};
