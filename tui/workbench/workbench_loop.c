/* workbench_loop.c - the workbench's one main loop (as htop's ScreenManager):
 * lay the panes out, redraw the ones whose inputs changed, read a key,
 * turn it into a Tcl command through the key table and run it. While a
 * solver runs, each idle frame steps it by a slice sized to ~40 ms. */
#include <langinfo.h>
#include <signal.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/session/journal.h"
#include "tui/app/key_actions.h"
#include "tui/app/keymap.h"
#include "tui/pane/pane.h"
#include "tui/app/solver_worker_thread.h"
#include "tui/app/tcl_bridge.h"
#include "workbench.h"

#define MIN_COLS 80
#define MIN_LINES 24

typedef struct tui {
    sm_app *app;
    sm_pane panes[SM_PANE_COUNT];
    sm_pane help;
    WINDOW *status, *bottom;
    int lines, cols, small;
    int zoom, focus, compare;              /* layout they were made for */
    unsigned alt;
    unsigned long long theme_version;
    int utf8;

    /* The prompt line. */
    int prompting;
    sm_do pending;
    char **offers;           /* stopped workbenches' journals of this scenario, offered at start */
    int noffers;
    char question[320];      /* the recovery question while it is asked */
    char line[1024];
    int pos, hist;                          /* cursor, history index */
    /* A pre-filled value is a selected default: the first printable key
     * replaces it, Enter takes it, editing keys keep it. A pre-filled
     * command (S) takes typed words after it instead. */
    int selected, word_after;
    int confirm_quit;
    int quit_after_save;     /* the quit prompt's w: save everything, then quit */
    char message[256];

    /* What the panes were last drawn from: the change mask compares these. */
    unsigned long long seen_map, seen_session_version, seen_view, seen_log, seen_spark, seen_cmp;
    const void *seen_session, *seen_solver;
    long long seen_iter;
    int seen_done, seen_nstats;

    /* The mapping the panes show (the session's, or the solver's current
     * one mirrored in a cost of its own) and the blocks its last change
     * moved. */
    struct shown {
        int source;                       /* 0 session, 1 solver */
        unsigned long long version;       /* bumped when it changed */
        const void *session;
        unsigned long long session_version;
        sm_eval ev, session_ev;
        sm_eval mirror_ev;                /* the mirror's, kept while the session is shown */
        sm_cost *mirror;                  /* the solver's map, incremental */
        sm_cost *spare;                   /* the mirror before a far seek: going back swaps */
        int *mirror_states, *spare_states; /* the DVFS state each one runs each processor in */
        const void *solver;
        long long solver_iter;
        int *prev;                        /* the map as last shown */
        int *diff;                        /* scratch: blocks where two maps differ */
        unsigned char *moved;
        int n;
        /* The session's edits are followed by the blocks they touched
         * (sm_session_touched_since), so a move costs what it moved: the
         * log's mark as prev was last brought up to date, and the blocks
         * lit in moved (lit_all: not listed, clear them all). */
        unsigned long long mark;
        int *lit, nlit, lit_cap, lit_all;
    } shown;
    long long slice;                        /* steps per frame when running */

    /* Keys typed while a long command ran (progress reads the terminal
     * then): kept in order and handled when it returns, never dropped. */
    struct typed { int code, is_key; } typed[256];
    int typed_head, typed_n;
} tui;

/* The pane table (SM_PANES, view_state.h): ops, band and width of each. */
static const struct {
    const sm_pane_ops *ops;
    sm_pane_slot slot;
    int width;
} pane_table[SM_PANE_COUNT] = {
#define X(id, name, title, slot, width) {&sm_pane_##name, slot, width},
    SM_PANES(X)
#undef X
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- layout ---- */

static void place(sm_pane *p, int y, int x, int h, int w)
{
    if (p->win) delwin(p->win);
    p->win = NULL;
    p->y = y; p->x = x; p->h = h; p->w = w;
    p->drawn = 0;
    if (h > 0 && w > 0) p->win = newwin(h, w, y, x);
}

static void layout(tui *t)
{
    const sm_view *v = t->app->view;
    t->lines = LINES;
    t->cols = COLS;
    t->zoom = v->zoom;
    t->focus = v->focus;
    t->compare = t->app->compare->source != SM_CMP_OFF;
    t->alt = v->alt_shown;
    t->small = LINES < MIN_LINES || COLS < MIN_COLS;
    clear();
    if (t->status) delwin(t->status);
    if (t->bottom) delwin(t->bottom);
    t->status = newwin(1, COLS, 0, 0);
    t->bottom = newwin(1, COLS, LINES - 1, 0);
    for (int i = 0; i < SM_PANE_COUNT; i++) place(&t->panes[i], 0, 0, 0, 0);
    place(&t->help, 0, 0, 0, 0);
    if (t->small) return;
    int H = LINES, W = COLS;
    int ch = H >= 40 ? 9 : H >= 30 ? 6 : 4;          /* console */
    int mh = H - 2 - ch;                              /* panes above it */
    if (v->zoom) {
        if (v->focus == SM_PANE_CONSOLE) place(&t->panes[SM_PANE_CONSOLE], 1, 0, H - 2, W);
        else {
            place(&t->panes[v->focus], 1, 0, mh, W);
            place(&t->panes[SM_PANE_CONSOLE], 1 + mh, 0, ch, W);
        }
    } else {
        /* Compare mode: the bottom band keeps a row more, so Energy holds
         * its two columns and their difference at 80x24. */
        int bottom_min = t->compare ? 10 : 9;
        int top = mh / 2;
        if (mh - top < bottom_min) top = mh - bottom_min;
        /* Each band split by the table's widths; the last pane takes the
         * rounding. A band with no panes gives its lines to the other. */
        int any[2] = {0, 0};
        for (int i = 0; i < SM_PANE_COUNT; i++)
            if (pane_table[i].slot == SM_SLOT_TOP || pane_table[i].slot == SM_SLOT_BOTTOM)
                any[pane_table[i].slot] = 1;
        if (!any[SM_SLOT_BOTTOM]) top = mh;
        if (!any[SM_SLOT_TOP]) top = 0;
        /* Compare mode: Energy's share doubles, for its three columns. */
        int width[SM_PANE_COUNT];
        for (int i = 0; i < SM_PANE_COUNT; i++)
            width[i] = pane_table[i].width * (t->compare && i == SM_PANE_ENERGY ? 2 : 1);
        for (int band = SM_SLOT_TOP; band <= SM_SLOT_BOTTOM; band++) {
            int total = 0, x = 0, last = -1;
            for (int i = 0; i < SM_PANE_COUNT; i++)
                if (pane_table[i].slot == (sm_pane_slot)band) total += width[i], last = i;
            int y = band == SM_SLOT_TOP ? 1 : 1 + top, h = band == SM_SLOT_TOP ? top : mh - top;
            for (int i = 0; i < SM_PANE_COUNT; i++) {
                if (pane_table[i].slot != (sm_pane_slot)band) continue;
                int w = i == last ? W - x : W * width[i] / total;
                place(&t->panes[i], y, x, h, w);
                x += w;
            }
        }
        for (int i = 0; i < SM_PANE_COUNT; i++)
            if (pane_table[i].slot == SM_SLOT_CONSOLE) place(&t->panes[i], 1 + mh, 0, ch, W);
        /* An ALT pane chosen takes its host's place. */
        for (int i = 1; i < SM_PANE_COUNT; i++) {
            if (pane_table[i].slot != SM_SLOT_ALT || !sm_view_pane_shown(v, i)) continue;
            sm_pane *h = &t->panes[i - 1];
            place(&t->panes[i], h->y, h->x, h->h, h->w);
            place(h, 0, 0, 0, 0);
        }
    }
    /* All rows but the status and prompt lines: two columns of 20 keys fit at 80x24. */
    int hh = H - 2 < 40 ? H - 2 : 40, hw = W - 4 < 110 ? W - 4 : 110;
    place(&t->help, (H - hh) / 2, (W - hw) / 2, hh, hw);
}

/* ---- per-frame data ---- */

static void shown_reset(struct shown *sh)
{
    if (sh->mirror) sm_cost_free(sh->mirror);
    if (sh->spare) sm_cost_free(sh->spare);
    free(sh->mirror_states);
    free(sh->spare_states);
    free(sh->prev);
    free(sh->diff);
    free(sh->moved);
    free(sh->lit);
    unsigned long long v = sh->version;
    memset(sh, 0, sizeof *sh);
    sh->version = v + 1;
    sh->source = -1;
}

/* The session's mapping moved only the blocks t lists (repeats allowed):
 * light the ones that differ from the map as last shown, in time
 * proportional to them. A change that moved nothing keeps the last move
 * lit. */
static void follow_touched(struct shown *sh, const int *map, const int *t, int nt)
{
    int k = 0;
    for (int i = 0; i < nt; i++) {
        int b = t[i];
        if (map[b] == sh->prev[b]) continue; /* unchanged, or listed already */
        if (k == 0) { /* the first block moved: the last move goes dark */
            if (sh->lit_all) memset(sh->moved, 0, (size_t)sh->n);
            else
                for (int j = 0; j < sh->nlit; j++) sh->moved[sh->lit[j]] = 0;
            sh->nlit = sh->lit_all = 0;
        }
        if (sh->nlit == sh->lit_cap) {
            sh->lit_cap = sh->lit_cap ? 2 * sh->lit_cap : 64;
            sh->lit = sm_xrealloc(sh->lit, sizeof(int) * (size_t)sh->lit_cap);
        }
        sh->lit[sh->nlit++] = b;
        sh->moved[b] = 1;
        sh->prev[b] = map[b];
        k++;
    }
}

/* The blocks where maps a and b differ, into out (NULL: only counted);
 * equal runs are skipped a chunk at a time. */
static int diff_blocks(const int *a, const int *b, int n, int *out)
{
    int count = 0;
    const int chunk = 256;
    for (int lo = 0; lo < n; lo += chunk) {
        int hi = lo + chunk < n ? lo + chunk : n;
        if (memcmp(a + lo, b + lo, sizeof(int) * (size_t)(hi - lo)) == 0) continue;
        for (int i = lo; i < hi; i++)
            if (a[i] != b[i]) {
                if (out) out[count] = i;
                count++;
            }
    }
    return count;
}

/* A cost state just built runs every processor in the machine's state. */
static void states_of_machine(const sm_topo *t, int **states)
{
    if (!*states) *states = sm_xmalloc(sizeof(int) * (size_t)(t->nprocs ? t->nprocs : 1));
    for (int p = 0; p < t->nprocs; p++) (*states)[p] = sm_topo_proc_state(t, p);
}

/* The mirror runs each processor in the solver's DVFS state (tabu -dvfs
 * chooses them step by step), so its figures are the solver's. */
static void follow_states(sm_cost *c, int *have, const sm_topo *t, const int *want)
{
    for (int p = 0; p < t->nprocs; p++) {
        if (have[p] == want[p]) continue;
        const sm_type *T = &t->types[t->procs[p].type];
        sm_cost_set_params(c, p, want[p] >= 0 && want[p] < T->nstates ? &T->states[want[p]] : &T->base);
        have[p] = want[p];
    }
}

/* Brings the shown mapping up to date: the session's evaluation when the
 * session changed, the solver's mirror by the blocks its steps moved
 * (sm_cost_move, so a step costs what it moved, not a rebuild), and the
 * last-move highlight by comparing with the map as last shown. */
static void prepare(tui *t, sm_frame *f)
{
    sm_app *app = t->app;
    sm_session *s = app->session;
    struct shown *sh = &t->shown;
    const sm_solver *sv = app->solver;
    int n = s->grid->ntasks;
    if (sh->session != s || sh->n != n) {
        shown_reset(sh);
        sh->session = s;
        sh->n = n;
        sh->prev = sm_xmalloc(sizeof(int) * (size_t)n);
        sh->diff = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
        sh->moved = sm_xcalloc((size_t)n, 1);
        sh->session_version = s->version - 1;
    }
    int session_changed = sh->session_version != s->version;
    if (session_changed) {
        sm_cost_eval(s->cost, &sh->session_ev);
        sh->session_version = s->version;
    }
    int source = app->view->show_solver && sv && sv->current_map ? 1 : 0;
    const int *map = sm_session_map(s);
    const sm_cost *cost = s->cost;
    int changed = session_changed;
    if (source) {
        if (!sh->mirror || sh->solver != sv) {
            if (sh->mirror) sm_cost_free(sh->mirror);
            if (sh->spare) sm_cost_free(sh->spare);
            sh->spare = NULL;
            if (app->solver_view && app->solver_view_of == sv) {
                /* Built with the solver, by its start in the background. */
                sh->mirror = app->solver_view;
                app->solver_view = NULL;
                app->solver_view_of = NULL;
            } else {
                sh->mirror = sm_cost_new(s->grid, s->topo, &s->model, sv->current_map);
                /* A solver starting from the session's mapping: its rounds
                 * start as a copy of the session's schedule, not a rebuild. */
                sm_cost_adopt_colouring(sh->mirror, s->cost);
            }
            sh->solver = sv;
            sh->solver_iter = -1;
            states_of_machine(s->topo, &sh->mirror_states);
        }
        changed = sh->solver_iter != sv->iteration;
        if (changed) {
            /* A seek far through the solver's history can move most blocks:
             * past an eighth, building the cost state afresh is cheaper
             * than moving them. */
            int differ = diff_blocks(sv->current_map, sh->mirror->map, n, sh->diff);
            /* Back and forth between two far steps: the cost state kept
             * from the last far seek may be the nearer one (not worth a
             * look for a short seek: the look costs a pass over the map). */
            if (sh->spare && differ > n / 32) {
                int d2 = diff_blocks(sv->current_map, sh->spare->map, n, NULL);
                if (d2 < differ) {
                    sm_cost *t = sh->mirror;
                    sh->mirror = sh->spare;
                    sh->spare = t;
                    int *ts = sh->mirror_states;
                    sh->mirror_states = sh->spare_states;
                    sh->spare_states = ts;
                    differ = diff_blocks(sv->current_map, sh->mirror->map, n, sh->diff);
                }
            }
            if (differ > n / 8 && n >= 4096) {
                if (sh->spare) sm_cost_free(sh->spare);
                sh->spare = sh->mirror;
                sh->mirror = sm_cost_new(s->grid, s->topo, &s->model, sv->current_map);
                int *ts = sh->spare_states;
                sh->spare_states = sh->mirror_states;
                sh->mirror_states = ts;
                states_of_machine(s->topo, &sh->mirror_states);
                differ = 0;
            }
            if (sv->current_states) follow_states(sh->mirror, sh->mirror_states, s->topo, sv->current_states);
            /* As one batch: a region moving together costs its boundary. */
            sm_cost_move_set(sh->mirror, sh->diff, differ, sv->current_map);
            sm_cost_eval(sh->mirror, &sh->mirror_ev);
            sh->solver_iter = sv->iteration;
        }
        /* Its own figures, also when v comes back to it between steps
         * (ev held the session's while the session was shown). */
        sh->ev = sh->mirror_ev;
        map = sv->current_map;
        cost = sh->mirror;
    } else {
        sh->ev = sh->session_ev;
    }
    if (source != sh->source) {
        memset(sh->moved, 0, (size_t)n);
        memcpy(sh->prev, map, sizeof(int) * (size_t)n);
        sh->source = source;
        sh->version++;
        sh->nlit = sh->lit_all = 0;
        sh->mark = sm_session_touch_mark(s);
    } else if (changed) {
        int nt;
        const int *t = source ? NULL : sm_session_touched_since(s, sh->mark, &nt);
        if (t) {
            follow_touched(sh, map, t, nt);
        } else {
            int k = diff_blocks(map, sh->prev, n, sh->diff);
            if (k) { /* a change that moved nothing keeps the last move lit */
                memset(sh->moved, 0, (size_t)n);
                for (int i = 0; i < k; i++) {
                    int b = sh->diff[i];
                    sh->moved[b] = 1;
                    sh->prev[b] = map[b];
                }
                /* The blocks lit, for the next edit to darken. */
                sh->nlit = 0;
                sh->lit_all = k > n / 8;
                if (!sh->lit_all) {
                    if (k > sh->lit_cap) sh->lit = sm_xrealloc(sh->lit, sizeof(int) * (size_t)(sh->lit_cap = k));
                    memcpy(sh->lit, sh->diff, sizeof(int) * (size_t)k);
                    sh->nlit = k;
                }
            }
        }
        sh->mark = sm_session_touch_mark(s);
        sh->version++;
    }
    f->ev = sh->ev;
    f->session_ev = sh->session_ev;
    f->map = map;
    f->cost = cost;
    f->map_version = sh->version;
    f->map_owner = source ? (const void *)sv : (const void *)s;
    f->map_stamp = source ? (unsigned long long)sv->iteration : s->version;
    f->source = source;
    f->states = source && sv->current_states ? sv->current_states : NULL;
    f->moved = sh->moved;
    f->utf8 = t->utf8;
    f->cmp = app->compare->source != SM_CMP_OFF ? app->compare : NULL;
}

/* Compare mode follows the solver's best and the model; a new grid or
 * machine ends it, and the Console says why. */
static void refresh_compare(tui *t)
{
    sm_app *app = t->app;
    if (sm_compare_refresh(app->compare, app->session, app->solver) < 0)
        sm_view_log(app->view, SM_LOG_NOTE, "%s", SM_COMPARE_GONE);
}

/* Which SM_DEP_* inputs changed since the last frame. The mapping the
 * panes show is the solver's while they follow it, so its steps count as
 * mapping changes then. */
static unsigned changes(tui *t)
{
    const sm_app *app = t->app;
    const sm_session *s = app->session;
    const sm_view *v = app->view;
    const sm_solver *sv = app->solver;
    unsigned c = 0;
    long long iter = sv ? sv->iteration : -1;
    int done = sv ? sv->done : 0, nstats = sv ? sv->nstats : 0;
    if (t->seen_session != s) c |= SM_DEP_SESSION | SM_DEP_MAPPING;
    if (t->seen_map != t->shown.version || t->seen_session_version != s->version) c |= SM_DEP_MAPPING;
    if (t->seen_view != v->version) c |= SM_DEP_VIEW;
    if (t->seen_cmp != app->compare->version) c |= SM_DEP_MAPPING;
    if (t->seen_log != v->log_version) c |= SM_DEP_LOG;
    /* A start in the background: the Solver pane counts its seconds. */
    if (t->seen_solver != sv || t->seen_iter != iter || t->seen_done != done || t->seen_nstats != nstats ||
        t->seen_spark != v->spark_version || app->starting)
        c |= SM_DEP_SOLVER;
    t->seen_session = s;
    t->seen_map = t->shown.version;
    t->seen_session_version = s->version;
    t->seen_view = v->version;
    t->seen_cmp = app->compare->version;
    t->seen_log = v->log_version;
    t->seen_solver = sv;
    t->seen_iter = iter;
    t->seen_done = done;
    t->seen_nstats = nstats;
    t->seen_spark = v->spark_version;
    return c;
}

/* ---- drawing ---- */

static void draw_status(tui *t, const sm_frame *f)
{
    sm_app *app = t->app;
    WINDOW *w = t->status;
    werase(w);
    wbkgd(w, sm_ui_attr(SM_EL_STATUS));
    char e[32], ts[32], d[48] = "";
    const sm_model *m = &app->session->model;
    if (m->has_deadline) {
        char b[32];
        snprintf(d, sizeof d, " %s %s", f->ev.time <= m->deadline ? "<=" : "> ", sm_ui_seconds(m->deadline, b, sizeof b));
    }
    const char *name = app->scenario_path ? app->scenario_path : "(built-in scenario)";
    /* Which mapping every pane shows: v switches. */
    char src[160] = "session";
    if (app->starting)
        snprintf(src, sizeof src, "session, %s starting %.1f s", sm_solver_start_name(app->starting),
                 sm_solver_start_elapsed(app->starting));
    else if (f->source)
        snprintf(src, sizeof src, "SOLVER %s it %lld", app->solver->ops->name, app->solver->iteration);
    if (f->cmp) {   /* compare mode: against what, and the energy apart */
        char dj[32];
        size_t l = strlen(src);
        snprintf(src + l, sizeof src - l, " vs %.40s %s%s", f->cmp->label, f->cmp->ev.energy > f->ev.energy ? "+" : "",
                 sm_ui_joules(f->cmp->ev.energy - f->ev.energy, dj, sizeof dj));
    }
    char right[256], shown[512];
    /* Comparing, time and theme give their room to what is compared
     * (Energy shows both times and the deadline). */
    char tt[96] = "";
    if (!f->cmp)
        snprintf(tt, sizeof tt, "  T %s%s  theme %s", sm_ui_seconds(f->ev.time, ts, sizeof ts), d,
                 app->view->theme.name);
    int rn = snprintf(right, sizeof right, "%s  [%s]  E %s%s", app->session->dirty ? " [modified]" : "", src,
                      sm_ui_joules(f->ev.energy, e, sizeof e), tt);
    /* A long path gives way in the middle: the figures stay readable. */
    const char *title = " stencilmap  ";
    int room = COLS - (int)strlen(title) - rn;
    const char *base = strrchr(name, '/');
    if ((int)strlen(name) > room && base) name = base + 1;
    if ((int)strlen(name) > room) title = " ", room = COLS - 1 - rn;
    sm_ui_elide(name, room < 12 ? 12 : room, shown, sizeof shown);
    sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_STATUS), "%s%s%s", title, shown, right);
    wnoutrefresh(w);
}

static void draw_bottom(tui *t)
{
    WINDOW *w = t->bottom;
    werase(w);
    if (t->question[0]) {
        sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_PROMPT), "%s", t->question);
    } else if (t->confirm_quit) {
        static const char *const parts[] = {"grid", "topology", "model", "mapping"};
        char list[64] = "";
        for (int i = 0; i < 4; i++)
            if (t->app->session->dirty_parts & (1u << i)) {
                strncat(list, list[0] ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, parts[i], sizeof list - strlen(list) - 1);
            }
        sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_PROMPT),
                   "Unsaved: %s. y quits without saving, w saves it all and quits, any other key stays.", list);
    } else if (t->prompting) {
        const char *label = t->pending.label;
        int lw = (int)strlen(label);
        int avail = COLS - lw - 1;
        int start = t->pos > avail ? t->pos - avail : 0;
        sm_ui_text(w, 0, 0, lw, sm_ui_attr(SM_EL_PROMPT), "%s", label);
        sm_ui_text(w, 0, lw, avail + 1, sm_ui_attr(SM_EL_TEXT) | (t->selected ? A_REVERSE : 0), "%s", t->line + start);
        wmove(w, 0, lw + t->pos - start);
    } else if (t->message[0]) {
        sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_DIM), "%s", t->message);
    } else {
        const sm_app *app = t->app;
        sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_DIM),
                   "%s? keys  : console  Tab pane  m move  s swap  u undo  n/N step  Space run  q quit",
                   app->view->running ? "[running] " : "");
    }
    wnoutrefresh(w);
}

static void draw(tui *t, int force)
{
    sm_app *app = t->app;
    sm_view *v = app->view;
    if (t->theme_version != v->theme_version) {
        sm_ui_apply_theme(&v->theme);
        t->theme_version = v->theme_version;
        bkgd(sm_ui_attr(SM_EL_TEXT));
        force = 1;
        clearok(curscr, TRUE);
    }
    refresh_compare(t);
    int comparing = app->compare->source != SM_CMP_OFF;
    if (LINES != t->lines || COLS != t->cols || v->zoom != t->zoom || (v->zoom && v->focus != t->focus) ||
        v->alt_shown != t->alt || comparing != t->compare)
        layout(t), force = 1;
    if (force) {
        wnoutrefresh(stdscr);
        for (int i = 0; i < SM_PANE_COUNT; i++) t->panes[i].drawn = 0;
        t->help.drawn = 0;
    }
    if (t->small) {
        erase();
        mvprintw(LINES / 2, 0, "stencilmap needs at least %dx%d (now %dx%d); q quits", MIN_COLS, MIN_LINES, COLS,
                 LINES);
        wnoutrefresh(stdscr);
        doupdate();
        return;
    }
    sm_frame f;
    prepare(t, &f);
    sm_ui_set_marks(app->session->topo, app->session->version);
    draw_status(t, &f);
    unsigned changed = changes(t);
    int redrawn = 0;   /* a pane drawn under the help: draw the help on top again */
    for (int i = 0; i < SM_PANE_COUNT; i++) {
        sm_pane *p = &t->panes[i];
        if (!p->win) continue;
        int focused = v->focus == i;
        if (p->drawn && !(changed & p->ops->deps) && focused == p->drawn_focus) continue;
        p->ops->draw(p, app, &f);
        p->drawn = 1;
        p->drawn_focus = focused;
        wnoutrefresh(p->win);
        redrawn = 1;
    }
    if (v->help && t->help.win && (redrawn || !t->help.drawn || (changed & t->help.ops->deps))) {
        t->help.ops->draw(&t->help, app, &f);
        t->help.drawn = 1;
        wnoutrefresh(t->help.win);
    } else if (!v->help && t->help.drawn) {
        t->help.drawn = 0;
        for (int i = 0; i < SM_PANE_COUNT; i++) {
            if (!t->panes[i].win) continue;
            touchwin(t->panes[i].win);
            wnoutrefresh(t->panes[i].win);
        }
    }
    draw_bottom(t);
    curs_set(t->prompting ? 1 : 0);
    doupdate();
}

/* ---- running commands ---- */

static void run_cmd(tui *t, const char *cmd, int flags)
{
    t->message[0] = '\0';
    if (sm_shell_eval(t->app, cmd, flags))
        snprintf(t->message, sizeof t->message, "error: %.240s", sm_shell_result(t->app));
}

/* A command as words: how every key and click runs what it means. */
static void run_words(tui *t, const sm_words *cmd, int flags)
{
    t->message[0] = '\0';
    if (sm_shell_run(t->app, cmd, flags))
        snprintf(t->message, sizeof t->message, "error: %.240s", sm_shell_result(t->app));
}

/* The prompt takes over d (its words are freed when the prompt ends). */
static void start_prompt(tui *t, sm_do *d)
{
    sm_do_free(&t->pending);
    t->pending = *d;
    memset(d, 0, sizeof *d);
    t->prompting = 1;
    snprintf(t->line, sizeof t->line, "%.1000s", t->pending.text);
    t->pos = (int)strlen(t->line);
    t->hist = t->app->view->nhistory;
    t->selected = t->line[0] && t->pending.tmpl.n > 0;
    t->word_after = t->line[0] && t->pending.tmpl.n == 0;
}

/* Up/Down/PgUp/PgDn/Home/End and Enter go to the focused pane, which
 * answers from the rows it drew; panes without rows run the fallback. */
static void pane_action(tui *t, const sm_do *d)
{
    sm_app *app = t->app;
    sm_pane *p = &t->panes[app->view->focus];
    sm_words cmd;
    sm_words_init(&cmd);
    sm_frame f;
    prepare(t, &f);
    if (d->kind == SM_DO_PANE_MOVE && p->ops->move_cursor && p->ops->rows) {
        int delta = d->delta;
        if (delta == SM_DO_FIRST) delta = SM_ROW_FIRST;
        else if (delta == SM_DO_LAST) delta = SM_ROW_LAST;
        else if (delta == SM_DO_PAGE || delta == -SM_DO_PAGE) delta = delta > 0 ? sm_pane_page(p) : -sm_pane_page(p);
        if (p->ops->move_cursor(p, app, &f, delta, &cmd)) run_words(t, &cmd, d->quiet ? 0 : SM_SHELL_ECHO);
    } else if (d->kind == SM_DO_PANE_ACTIVATE && p->ops->activate) {
        if (p->ops->activate(p, app, &f, &cmd)) run_words(t, &cmd, SM_SHELL_ECHO);
        else snprintf(t->message, sizeof t->message, "nothing here to choose");
    } else if (d->run.n) {
        run_words(t, &d->run, d->quiet ? 0 : SM_SHELL_ECHO);
    }
    sm_words_free(&cmd);
}

static void do_action(tui *t, sm_action a)
{
    sm_do d;
    sm_action_plan(t->app, a, &d);
    switch (d.kind) {
    case SM_DO_PANE_MOVE:
    case SM_DO_PANE_ACTIVATE: pane_action(t, &d); break;
    case SM_DO_RUN: run_words(t, &d.run, (d.quiet ? 0 : SM_SHELL_ECHO) | (d.result ? SM_SHELL_RESULT : 0)); break;
    case SM_DO_PROMPT: start_prompt(t, &d); break;
    case SM_DO_CONFIRM_QUIT: t->confirm_quit = 1; break;
    case SM_DO_MESSAGE:
        snprintf(t->message, sizeof t->message, "%.250s", d.text);
        sm_view_log(t->app->view, SM_LOG_NOTE, "%s", d.text);
        break;
    case SM_DO_NOTHING: break;
    }
    sm_do_free(&d);
}

/* ---- keys ---- */

static const char *keyname_of(int code, int is_key, char *buf, size_t n)
{
    if (is_key) {
        if (code >= KEY_F(1) && code <= KEY_F(12)) {
            snprintf(buf, n, "F%d", code - KEY_F(0));
            return buf;
        }
        switch (code) {
        case KEY_LEFT: return "Left";
        case KEY_RIGHT: return "Right";
        case KEY_UP: return "Up";
        case KEY_DOWN: return "Down";
        case KEY_PPAGE: return "PgUp";
        case KEY_NPAGE: return "PgDn";
        case KEY_HOME: return "Home";
        case KEY_END: return "End";
        case KEY_ENTER: return "Enter";
        case KEY_BTAB: return "BTab";
        case KEY_BACKSPACE: return "Backspace";
        case KEY_DC: return "Delete";
        case KEY_IC: return "Insert";
        default: return NULL;
        }
    }
    switch (code) {
    case '\t': return "Tab";
    case '\r': case '\n': return "Enter";
    case 27: return "Esc";
    case ' ': return "Space";
    case 127: case 8: return "Backspace";
    default: break;
    }
    if (code >= 1 && code <= 26) {
        snprintf(buf, n, "C-%c", 'a' + code - 1);
        return buf;
    }
    if (code > ' ' && code < 127) {
        snprintf(buf, n, "%c", code);
        return buf;
    }
    return NULL;
}

static void complete(tui *t)
{
    sm_app *app = t->app;
    t->line[t->pos] = '\0';
    char **c = NULL;
    int n = 0, start = 0;
    if (t->pending.complete == SM_COMPLETE_PROCS) {
        start = 0;
        const sm_topo *tp = app->session->topo;
        for (int p = 0; p < tp->nprocs; p++)
            if (strncmp(tp->procs[p].name, t->line, strlen(t->line)) == 0) {
                c = sm_xrealloc(c, sizeof(char *) * (size_t)(n + 1));
                c[n++] = sm_xstrdup(tp->procs[p].name);
            }
    } else if (t->pending.complete == SM_COMPLETE_TCL) {
        c = sm_shell_complete(app, t->line, &n, &start);
    }
    if (n == 0) {
        snprintf(t->message, sizeof t->message, "no completions");
    } else {
        /* Longest common prefix of the candidates. */
        size_t common = strlen(c[0]);
        for (int i = 1; i < n; i++) {
            size_t k = 0;
            while (k < common && c[i][k] == c[0][k]) k++;
            common = k;
        }
        char tail[1024];
        snprintf(tail, sizeof tail, "%.*s%s", (int)common, c[0], n == 1 ? " " : "");
        size_t room = sizeof t->line - (size_t)start;
        size_t tl = strlen(tail);
        if (tl >= room) tl = room - 1;
        memcpy(t->line + start, tail, tl);
        t->line[start + (int)tl] = '\0';
        t->pos = (int)strlen(t->line);
        if (n > 1) {
            char list[1024];
            size_t len = 0;
            list[0] = '\0';
            for (int i = 0; i < n && len < sizeof list - 1; i++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s ", c[i]);
            sm_view_log(app->view, SM_LOG_RESULT, "%s", list);
        }
    }
    for (int i = 0; i < n; i++) free(c[i]);
    free(c);
}

static void prompt_key(tui *t, int code, int is_key)
{
    sm_view *v = t->app->view;
    int len = (int)strlen(t->line);
    char nb[16];
    const char *k = keyname_of(code, is_key, nb, sizeof nb);
    if (k && strcmp(k, "Enter") == 0) {
        t->prompting = 0;
        sm_words cmd;
        sm_words_init(&cmd);
        int kind = sm_action_finish(&t->pending, t->line, &cmd);
        if (kind == 1) run_words(t, &cmd, SM_SHELL_ECHO | SM_SHELL_HISTORY);
        else if (kind == 0)
            run_cmd(t, t->line, SM_SHELL_ECHO | SM_SHELL_HISTORY | SM_SHELL_RESULT);
        sm_words_free(&cmd);
        /* Quit only once everything is on disk (a failed or refused save
         * keeps the workbench open). */
        if (t->quit_after_save && !t->app->session->dirty) run_cmd(t, "view quit -force", SM_SHELL_ECHO);
        t->quit_after_save = 0;
        return;
    }
    if (k && (strcmp(k, "Esc") == 0 || strcmp(k, "C-c") == 0 || strcmp(k, "C-g") == 0)) {
        t->prompting = 0;
        t->quit_after_save = 0;
        return;
    }
    /* Typing over a selected default replaces it; any other key edits it. */
    int typed = !is_key && code >= ' ' && code != 127;
    if (typed && t->selected) {
        t->line[0] = '\0';
        t->pos = len = 0;
    } else if (typed && t->word_after && code != ' ' && t->pos == len && len > 0 && t->line[len - 1] != ' ' &&
               len + 1 < (int)sizeof t->line) {
        t->line[len++] = ' ';
        t->line[len] = '\0';
        t->pos = len;
    }
    t->selected = t->word_after = 0;
    if (k && strcmp(k, "Tab") == 0) { complete(t); return; }
    if (k && strcmp(k, "Backspace") == 0) {
        if (t->pos > 0) {
            memmove(t->line + t->pos - 1, t->line + t->pos, (size_t)(len - t->pos + 1));
            t->pos--;
        }
        return;
    }
    if (k && strcmp(k, "Delete") == 0) {
        if (t->pos < len) memmove(t->line + t->pos, t->line + t->pos + 1, (size_t)(len - t->pos));
        return;
    }
    if (k && (strcmp(k, "Left") == 0 || strcmp(k, "C-b") == 0)) { if (t->pos > 0) t->pos--; return; }
    if (k && (strcmp(k, "Right") == 0 || strcmp(k, "C-f") == 0)) { if (t->pos < len) t->pos++; return; }
    if (k && (strcmp(k, "Home") == 0 || strcmp(k, "C-a") == 0)) { t->pos = 0; return; }
    if (k && (strcmp(k, "End") == 0 || strcmp(k, "C-e") == 0)) { t->pos = len; return; }
    if (k && strcmp(k, "C-u") == 0) {
        memmove(t->line, t->line + t->pos, (size_t)(len - t->pos + 1));
        t->pos = 0;
        return;
    }
    if (k && strcmp(k, "C-k") == 0) { t->line[t->pos] = '\0'; return; }
    if (k && strcmp(k, "C-w") == 0) {
        int s = t->pos;
        while (s > 0 && t->line[s - 1] == ' ') s--;
        while (s > 0 && t->line[s - 1] != ' ') s--;
        memmove(t->line + s, t->line + t->pos, (size_t)(len - t->pos + 1));
        t->pos = s;
        return;
    }
    if (k && (strcmp(k, "Up") == 0 || strcmp(k, "Down") == 0)) {
        if (!v->nhistory) return;
        t->hist += strcmp(k, "Up") == 0 ? -1 : 1;
        if (t->hist < 0) t->hist = 0;
        if (t->hist >= v->nhistory) {
            t->hist = v->nhistory;
            t->line[0] = '\0';
        } else {
            snprintf(t->line, sizeof t->line, "%.1000s", v->history[t->hist]);
        }
        t->pos = (int)strlen(t->line);
        return;
    }
    if (!is_key && code >= ' ' && code != 127 && len + 4 < (int)sizeof t->line) {
        /* Insert the character, UTF-8 encoded. */
        char enc[4];
        int m = 0;
        unsigned c = (unsigned)code;
        if (c < 0x80) enc[m++] = (char)c;
        else if (c < 0x800) { enc[m++] = (char)(0xC0 | c >> 6); enc[m++] = (char)(0x80 | (c & 63)); }
        else if (c < 0x10000) { enc[m++] = (char)(0xE0 | c >> 12); enc[m++] = (char)(0x80 | ((c >> 6) & 63)); enc[m++] = (char)(0x80 | (c & 63)); }
        else return;
        memmove(t->line + t->pos + m, t->line + t->pos, (size_t)(len - t->pos + 1));
        memcpy(t->line + t->pos, enc, (size_t)m);
        t->pos += m;
    }
}

static void mouse(tui *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK) return;
    /* The wheel scrolls the list pane under the pointer, 3 rows a notch. */
    int wheel = ev.bstate & BUTTON4_PRESSED ? -3 : ev.bstate & BUTTON5_PRESSED ? 3 : 0;
    if (!wheel && !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))) return;
    for (int i = 0; i < SM_PANE_COUNT; i++) {
        sm_pane *p = &t->panes[i];
        if (!p->win || ev.y < p->y || ev.y >= p->y + p->h || ev.x < p->x || ev.x >= p->x + p->w) continue;
        sm_words cmds[SM_CLICK_MAX];
        for (int k = 0; k < SM_CLICK_MAX; k++) sm_words_init(&cmds[k]);
        if (wheel) {
            sm_frame f;
            prepare(t, &f);
            if (p->ops->move_cursor && p->ops->move_cursor(p, t->app, &f, wheel, &cmds[0])) run_words(t, &cmds[0], 0);
            for (int k = 0; k < SM_CLICK_MAX; k++) sm_words_free(&cmds[k]);
            return;
        }
        if (t->app->view->focus != i) {
            sm_words_lit(&cmds[0], "view focus");
            sm_words_add(&cmds[0], sm_pane_names[i]);
            run_words(t, &cmds[0], SM_SHELL_ECHO);
            sm_words_clear(&cmds[0]);
        }
        sm_frame f;
        prepare(t, &f);
        int n = p->ops->click ? p->ops->click(p, t->app, &f, ev.y - p->y, ev.x - p->x, cmds) : 0;
        for (int k = 0; k < n && k < SM_CLICK_MAX; k++) run_words(t, &cmds[k], SM_SHELL_ECHO);
        for (int k = 0; k < SM_CLICK_MAX; k++) sm_words_free(&cmds[k]);
        return;
    }
}

static void handle_key(tui *t, int code, int is_key)
{
    sm_app *app = t->app;
    if (is_key && code == KEY_RESIZE) return;
    if (is_key && code == KEY_MOUSE) { mouse(t); return; }
    if (t->confirm_quit) {
        t->confirm_quit = 0;
        if (!is_key && (code == 'y' || code == 'Y')) run_cmd(t, "view quit -force", SM_SHELL_ECHO);
        else if (!is_key && code == 'w') {
            t->quit_after_save = 1;
            do_action(t, SM_ACT_SAVE);
        }
        else sm_view_log(app->view, SM_LOG_NOTE, "quit cancelled");
        return;
    }
    if (t->prompting) { prompt_key(t, code, is_key); return; }
    char nb[16];
    const char *k = keyname_of(code, is_key, nb, sizeof nb);
    if (!k) return;
    t->message[0] = '\0';
    if (app->view->help && strcmp(k, "?") != 0 && strcmp(k, "F1") != 0) {
        /* The list scrolls when it does not fit; other keys close it. */
        static const struct { const char *key; int delta; } scroll[] = {
            {"Up", -1}, {"k", -1}, {"Down", 1}, {"j", 1}, {"PgUp", -2}, {"<", -2}, {"PgDn", 2},
            {">", 2}, {"Space", 2}, {"Home", -3}, {"End", 3},
        };
        for (size_t i = 0; i < sizeof scroll / sizeof scroll[0]; i++) {
            if (strcmp(k, scroll[i].key) != 0) continue;
            sm_frame f;
            prepare(t, &f);
            int top = 0, n = t->help.win ? t->help.ops->rows(&t->help, app, &f, &top) : 1;
            int page = t->help.h > 4 ? t->help.h - 3 : 1, d = scroll[i].delta;
            int to = d == -3 ? 0 : d == 3 ? n - 1 : top + (d == -2 ? -page : d == 2 ? page : d);
            if (to > n - 1) to = n - 1;
            if (to < 0) to = 0;
            if (to != top) {
                char cmd[64];
                snprintf(cmd, sizeof cmd, "view help scroll %d", to - app->view->help_top);
                run_cmd(t, cmd, 0);
            }
            return;
        }
        run_cmd(t, "view help off", SM_SHELL_ECHO);
        return;
    }
    int safe = 0;
    const char *script = sm_view_binding(app->view, k, &safe);
    if (script) {
        run_cmd(t, script, SM_SHELL_ECHO | SM_SHELL_RESULT | (safe ? SM_SHELL_SAFE : 0));
        return;
    }
    int a = sm_key_action(k);
    if (a >= 0) do_action(t, (sm_action)a);
    else snprintf(t->message, sizeof t->message, "%s: no action (? lists the keys)", k);
}

/* One slice of a running solver, sized to take about 40 ms. */
static void run_slice(tui *t)
{
    sm_app *app = t->app;
    sm_solver *s = app->solver;
    if (!s || s->done) {
        if (app->view->running) {
            app->view->running = 0;
            if (s) sm_view_log(app->view, SM_LOG_NOTE, "%s finished: %s; a applies its best", s->ops->name, s->status);
        }
        return;
    }
    sm_words cmd;
    sm_words_init(&cmd);
    sm_words_lit(&cmd, "solver step");
    sm_words_addf(&cmd, "%lld", t->slice);
    double t0 = now();
    int rc = sm_shell_run(app, &cmd, 0);
    sm_words_free(&cmd);
    if (rc) {
        app->view->running = 0;
        return;
    }
    double dt = now() - t0;
    if (dt < 0.02 && t->slice < (1LL << 20)) t->slice *= 2;
    else if (dt > 0.08 && t->slice > 1) t->slice /= 2;
    if (s->done || s->stopped) {
        app->view->running = 0;
        sm_view_log(app->view, SM_LOG_NOTE, "%s %s after %lld iterations; a applies its best", s->ops->name,
                    s->status, s->iteration);
    }
}

/* ---- hooks the command layer calls ---- */

static tui *the_tui;

/* Long commands (the ILP, `solver run`, replays with a delay) redraw
 * through this. Esc or C-c interrupts the command (q too when it is the
 * first key typed: later it may be part of a `:` line); every other key is
 * queued and handled, in order, once the command returns. */
static void progress(sm_app *app)
{
    (void)app;
    tui *t = the_tui;
    if (!t) return;
    draw(t, 0);
    nodelay(stdscr, TRUE);
    wint_t wc;
    int rc;
    while ((rc = get_wch(&wc)) != ERR) {
        int is_key = rc == KEY_CODE_YES;
        if (!is_key && (wc == 27 || wc == 3 || (wc == 'q' && t->typed_n == 0))) {
            t->app->interrupt = 1;
            continue;
        }
        if (is_key && wc == KEY_RESIZE) continue;
        if (t->typed_n == (int)(sizeof t->typed / sizeof t->typed[0])) {
            beep();   /* a full queue: say so rather than lose keys silently */
            continue;
        }
        int i = (t->typed_head + t->typed_n++) % (int)(sizeof t->typed / sizeof t->typed[0]);
        t->typed[i].code = (int)wc;
        t->typed[i].is_key = is_key;
    }
    nodelay(stdscr, FALSE);
}

/* The next key: one typed during a long command first, else the terminal's. */
static int next_key(tui *t, int *code, int *is_key)
{
    if (t->typed_n) {
        *code = t->typed[t->typed_head].code;
        *is_key = t->typed[t->typed_head].is_key;
        t->typed_head = (t->typed_head + 1) % (int)(sizeof t->typed / sizeof t->typed[0]);
        t->typed_n--;
        return 1;
    }
    wint_t wc;
    int rc = get_wch(&wc);
    if (rc == ERR) return 0;
    *code = (int)wc;
    *is_key = rc == KEY_CODE_YES;
    return 1;
}

static void put_utf8(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 2 > *cap) *out = sm_xrealloc(*out, *cap = (*cap + n) * 2);
    memcpy(*out + *len, s, n);
    *len += n;
}

/* The screen as text: what a terminal shows, box drawing included. */
static char *dump(sm_app *app)
{
    (void)app;
    size_t len = 0, cap = 4096;
    char *out = sm_xmalloc(cap);
    for (int y = 0; y < LINES; y++) {
        size_t line_start = len;
        for (int x = 0; x < COLS; x++) {
            cchar_t cc;
            wchar_t wc[CCHARW_MAX + 1];
            attr_t a;
            short pair;
            char buf[16];
            if (mvwin_wch(curscr, y, x, &cc) == ERR || getcchar(&cc, wc, &a, &pair, NULL) == ERR) {
                put_utf8(&out, &len, &cap, " ", 1);
                continue;
            }
            wchar_t c = wc[0];
            if (a & A_ALTCHARSET) {
                static const char *const acs[][2] = {{"q", "\xe2\x94\x80"}, {"x", "\xe2\x94\x82"},
                    {"l", "\xe2\x94\x8c"}, {"k", "\xe2\x94\x90"}, {"m", "\xe2\x94\x94"},
                    {"j", "\xe2\x94\x98"}, {"t", "\xe2\x94\x9c"}, {"u", "\xe2\x94\xa4"},
                    {"w", "\xe2\x94\xac"}, {"v", "\xe2\x94\xb4"}, {"n", "\xe2\x94\xbc"}};
                const char *r = "+";
                for (size_t i = 0; i < sizeof acs / sizeof acs[0]; i++)
                    if ((wchar_t)acs[i][0][0] == c) r = acs[i][1];
                put_utf8(&out, &len, &cap, r, strlen(r));
                continue;
            }
            if (c == 0) c = ' ';
            int n = (int)wctomb(buf, c);
            if (n <= 0) { buf[0] = '?'; n = 1; }
            put_utf8(&out, &len, &cap, buf, (size_t)n);
        }
        while (len > line_start && out[len - 1] == ' ') len--;
        put_utf8(&out, &len, &cap, "\n", 1);
    }
    out[len] = '\0';
    return out;
}

/* A yes/no question on the prompt line, answered before anything else. */
static int confirm(sm_app *app, const char *question)
{
    tui *t = the_tui;
    if (!t) return 1;
    (void)app;
    draw(t, 0);
    WINDOW *w = t->bottom;
    werase(w);
    sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_PROMPT), "%s", question);
    wnoutrefresh(w);
    doupdate();
    /* Keys typed ahead answer first, in the order they were typed. */
    timeout(-1);
    int code, is_key;
    do if (!next_key(t, &code, &is_key)) code = 0, is_key = 0;
    while (is_key && (code == KEY_RESIZE || code == KEY_MOUSE));
    int yes = !is_key && (code == 'y' || code == 'Y');
    sm_view_log(t->app->view, SM_LOG_NOTE, "%s %s", question, yes ? "yes" : "no");
    return yes;
}

static const sm_screen_ops screen_ops = {progress, dump, confirm};

/* SIGTERM and SIGHUP end the workbench cleanly: the terminal is restored
 * and the journal kept for `session recover`. */
static volatile sig_atomic_t got_signal;
static void on_term(int sig)
{
    got_signal = sig;
}

static void start_journal(tui *t)
{
    sm_app *app = t->app;
    sm_err e;
    /* The journals of this scenario whose workbench is gone, with work
     * not saved: offered once the screen is up. A stopped one that holds
     * nothing unsaved is removed (nothing of anyone's is in it). */
    char *key = sm_journal_key(app->scenario_path);
    sm_journal_info *v;
    int n = sm_journal_list(NULL, &v);
    for (int i = 0; i < n; i++) {
        if (v[i].live) continue;
        if (!v[i].unsaved) sm_journal_discard(v[i].path, &e);
        /* Under -safe, session recover is refused: nothing to offer. */
        else if (strcmp(v[i].scenario, key) == 0 && !app->confined) {
            t->offers = sm_xrealloc(t->offers, sizeof(char *) * (size_t)(t->noffers + 1));
            t->offers[t->noffers++] = sm_xstrdup(v[i].path);
        }
    }
    sm_journal_list_free(v, n);
    free(key);
    app->journal = sm_journal_open(NULL, app->scenario_path, &e);
    if (!app->journal)
        sm_view_log(app->view, SM_LOG_ERROR, "journal: %s (edits are not protected)", e.msg);
    else if (sm_journal_sync(app->journal, app->session, &e))
        sm_view_log(app->view, SM_LOG_ERROR, "journal: %s (edits are not protected)", e.msg);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The answer to the recovery question: y, n or D, read only after the
 * question is on the screen. Keys typed before it (the start can take a
 * while) and in its first 300 ms (typed by someone who has not read it
 * yet) are dropped; any other key is ignored: a command typed into the
 * question answers nothing. */
static int recovery_answer(tui *t)
{
    t->typed_n = 0;
    flushinp();
    double shown = seconds_now();
    timeout(50);
    for (;;) {
        wint_t wc;
        int rc = get_wch(&wc);
        if (rc == ERR) continue;
        if (rc == KEY_CODE_YES && wc == KEY_RESIZE) {
            layout(t);
            draw(t, 1);
            continue;
        }
        if (seconds_now() - shown < 0.3 || rc == KEY_CODE_YES) continue;
        if (wc == 'y' || wc == 'Y' || wc == 'n' || wc == 'N' || wc == 'D') return (int)wc;
        snprintf(t->message, sizeof t->message, "answer y, n or D");
    }
}

static void ask_recovery(tui *t)
{
    sm_app *app = t->app;
    for (int i = 0; i < t->noffers; i++) {
        const char *path = t->offers[i];
        sm_scenario sc;
        sm_err e;
        unsigned unsaved = 0;
        struct stat st;
        if (sm_journal_read(path, &sc, NULL, &unsaved, &e)) {
            sm_view_log(app->view, SM_LOG_ERROR, "journal: %s", e.msg);
            continue;
        }
        sm_scenario_release(&sc);
        static const char *const parts[] = {"grid", "topology", "model", "mapping"};
        char list[64] = "", when[32] = "?";
        for (int k = 0; k < 4; k++)
            if (unsaved & (1u << k)) {
                strncat(list, list[0] ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, parts[k], sizeof list - strlen(list) - 1);
            }
        if (stat(path, &st) == 0) {
            struct tm tm;
            localtime_r(&st.st_mtime, &tm);
            strftime(when, sizeof when, "%b %d %H:%M", &tm);
        }
        /* The answers first: at 80 columns the details may be cut. */
        snprintf(t->question, sizeof t->question,
                 "Recover it? y yes  n later  D discard | unsaved %s of a workbench on this scenario, "
                 "stopped %s", list, when);
        sm_view_log(app->view, SM_LOG_NOTE, "journal %s: %s", path, t->question);
        draw(t, 1);
        int a = recovery_answer(t);
        t->question[0] = '\0';
        t->message[0] = '\0';
        sm_words cmd;
        sm_words_init(&cmd);
        if (a == 'y' || a == 'Y') {
            sm_words_lit(&cmd, "session recover");
            sm_words_add(&cmd, path);
            run_words(t, &cmd, SM_SHELL_ECHO);
            sm_words_free(&cmd);
            if (i + 1 < t->noffers)
                sm_view_log(app->view, SM_LOG_NOTE, "%d more stopped workbench(es) of this scenario left "
                            "unsaved work: session journals lists them", t->noffers - i - 1);
            break;
        }
        if (a == 'D') {
            sm_words_lit(&cmd, "session discard");
            sm_words_add(&cmd, path);
            run_words(t, &cmd, SM_SHELL_ECHO);
        } else {
            sm_view_log(app->view, SM_LOG_NOTE, "kept %s: session recover FILE restores it, "
                        "session discard FILE removes it", path);
        }
        sm_words_free(&cmd);
    }
    for (int i = 0; i < t->noffers; i++) free(t->offers[i]);
    free(t->offers);
    t->offers = NULL;
    t->noffers = 0;
}

/* The terminal modes, panes and hooks the workbench runs with, once the
 * curses screen exists (a real terminal, or a headless one). */
static void screen_begin(tui *t)
{
    sm_app *app = t->app;
    /* raw, not cbreak: C-c must reach us as a key (it interrupts long
     * work) instead of killing the workbench and the unsaved session. */
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    if (has_colors() && !sm_ui_no_color()) {
        start_color();
        use_default_colors();
    }
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    for (int i = 0; i < SM_PANE_COUNT; i++) {
        t->panes[i].ops = pane_table[i].ops;
        t->panes[i].id = i;
    }
    t->help.ops = &sm_pane_help;
    t->help.id = SM_PANE_COUNT;
    the_tui = t;
    app->screen = &screen_ops;
    app->screen_ctx = t;
}

static void screen_end(tui *t)
{
    sm_app *app = t->app;
    app->screen = NULL;
    app->screen_ctx = NULL;
    the_tui = NULL;
    for (int i = 0; i < SM_PANE_COUNT; i++) {
        if (t->panes[i].ops->release) t->panes[i].ops->release(&t->panes[i]);
        if (t->panes[i].win) delwin(t->panes[i].win);
    }
    if (t->help.win) delwin(t->help.win);
    if (t->status) delwin(t->status);
    if (t->bottom) delwin(t->bottom);
    endwin();
    sm_ui_release_marks();
    shown_reset(&t->shown);
    sm_do_free(&t->pending);
}

int sm_tui_run(sm_app *app)
{
    if (!isatty(0) || !isatty(1)) {
        fputs("stencilmap: the workbench needs a terminal; run scripts with -b FILE\n", stderr);
        return 1;
    }
    setlocale(LC_ALL, "");
    tui t;
    memset(&t, 0, sizeof t);
    t.app = app;
    t.slice = 1;
    t.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    sm_ui_set_utf8(t.utf8);
    if (!getenv("ESCDELAY")) set_escdelay(25);
    if (!initscr()) {
        fputs("stencilmap: cannot initialise the terminal (check TERM)\n", stderr);
        return 1;
    }
    screen_begin(&t);
    sm_view_log(app->view, SM_LOG_NOTE, "stencilmap: ? lists the keys, : opens the Tcl console");
    start_journal(&t);
    layout(&t);
    draw(&t, 1);
    ask_recovery(&t);
    while (!app->view->quit && !got_signal) {
        sm_app_sync_view(app);
        sm_app_solver_poll(app);
        /* A start in the background is looked for every 50 ms. */
        timeout(app->starting ? 50 : app->view->running ? 0 : 200);
        int code, is_key;
        if (next_key(&t, &code, &is_key)) handle_key(&t, code, is_key);
        else if (app->view->running && !app->starting) run_slice(&t);
        if (!app->view->quit) draw(&t, 0);
    }
    screen_end(&t);
    /* A clean quit leaves nothing to recover (the user saved, or chose to
     * quit without saving); a signal keeps the journal of unsaved work. */
    const char *jpath = app->journal ? sm_journal_path(app->journal) : NULL;
    int keep = got_signal && app->session->dirty;
    if (keep && jpath)
        fprintf(stderr, "stencilmap: stopped by signal %d; the unsaved work is journaled in %s: "
                "the next workbench on this scenario offers it, or run `session recover`\n",
                (int)got_signal, jpath);
    else if (got_signal)
        fprintf(stderr, "stencilmap: stopped by signal %d; nothing was unsaved\n", (int)got_signal);
    sm_journal_close(app->journal, !keep);
    app->journal = NULL;
    return got_signal ? 128 + (int)got_signal : 0;
}

/* The key code a key name (as `key bind` takes it) stands for: the
 * inverse of keyname_of, so both read the same table. */
static int key_code(const char *name, int *code, int *is_key)
{
    char buf[16];
    for (int c = 1; c < 128; c++) {
        const char *k = keyname_of(c, 0, buf, sizeof buf);
        if (k && strcmp(k, name) == 0) { *code = c; *is_key = 0; return 0; }
    }
    for (int c = KEY_MIN; c <= KEY_MAX; c++) {
        const char *k = keyname_of(c, 1, buf, sizeof buf);
        if (k && strcmp(k, name) == 0) { *code = c; *is_key = 1; return 0; }
    }
    return -1;
}

int sm_tui_keys(sm_app *app, const char *term, int cols, int lines, const char *const *keys, int n,
                double *seconds, sm_err *e)
{
    if (app->screen) {
        sm_err_set(e, "screen keys: the workbench is running (use it in batch mode)");
        return -1;
    }
    int *codes = sm_xmalloc(sizeof(int) * (size_t)(2 * n + 1));
    for (int i = 0; i < n; i++)
        if (key_code(keys[i], &codes[2 * i], &codes[2 * i + 1])) {
            sm_err_set(e, "screen keys: unknown key \"%s\" (key names as key bind takes them)", keys[i]);
            free(codes);
            return -1;
        }
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = out && in ? newterm(term, out, in) : NULL;
    if (!scr) {
        sm_err_set(e, "screen keys: cannot open a %s terminal", term);
        if (out) fclose(out);
        if (in) fclose(in);
        free(codes);
        return -1;
    }
    set_term(scr);
    resizeterm(lines, cols);
    tui t;
    memset(&t, 0, sizeof t);
    t.app = app;
    t.slice = 1;
    t.utf8 = 1;
    sm_ui_set_utf8(1);
    screen_begin(&t);
    sm_app_sync_view(app);
    layout(&t);
    draw(&t, 1);
    /* What a user waits for: the key handled and the next frame drawn
     * and written out. */
    for (int i = 0; i < n; i++) seconds[i] = 0;
    int quit_before = app->view->quit;   /* a batch `view quit` earlier is not this replay's */
    app->view->quit = 0;
    for (int i = 0; i < n && !app->view->quit; i++) {
        double t0 = now();
        handle_key(&t, codes[2 * i], codes[2 * i + 1]);
        sm_app_sync_view(app);
        sm_app_solver_poll(app);
        draw(&t, 0);
        seconds[i] = now() - t0;
    }
    app->view->quit = quit_before;   /* a q y in the keys ends the replay, not the program */
    screen_end(&t);
    delscreen(scr);
    fclose(out);
    fclose(in);
    free(codes);
    return 0;
}

const char *sm_tui_curses_version(void) { return curses_version(); }
