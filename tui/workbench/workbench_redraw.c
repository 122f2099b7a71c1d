/* workbench_redraw.c - one frame of the workbench: what the panes are drawn
 * from (the session's mapping, or the running solver's mirrored in a cost
 * of its own, and the blocks its last change moved), the change mask that
 * says which panes to redraw, the bottom line (the status line, at the
 * top: workbench_status_line.c). */
#include <math.h>
#include "tui/app/mpi_run_launch_job.h"
#include "tui/app/solver_branch_build_on_worker_thread.h"
#include "workbench_internal.h"

/* ---- per-frame data ---- */

void wb_shown_reset(struct shown *sh)
{
    if (sh->mirror) sm_cost_free(sh->mirror);
    if (sh->spare) sm_cost_free(sh->spare);
    free(sh->mirror_states);
    free(sh->spare_states);
    free(sh->prev);
    free(sh->diff);
    free(sh->moved);
    free(sh->lit);
    free(sh->list);
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
void wb_prepare(tui *t, sm_frame *f)
{
    sm_app *app = t->app;
    sm_session *s = app->session;
    struct shown *sh = &t->shown;
    const sm_solver *sv = app->solver;
    int n = s->grid->ntasks;
    if (sh->session != s || sh->n != n) {
        wb_shown_reset(sh);
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
        if (sh->mirror && sh->solver != sv && !(app->solver_view && app->solver_view_of == sv) &&
            sh->mirror_structure == s->structure) {
            /* Another run of the same start (solver switch, a branch): the
             * mirror is kept and moved to its mapping (compared whole,
             * once; a rebuild when most blocks differ), not rebuilt: that
             * is seconds at 16.7 M blocks. */
            int *machine = NULL;
            states_of_machine(s->topo, &machine);
            follow_states(sh->mirror, sh->mirror_states, s->topo, machine);
            free(machine);
            sh->solver = sv;
            sh->solver_iter = -1;
        }
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
            sh->mirror_structure = s->structure;
            states_of_machine(s->topo, &sh->mirror_states);
        }
        changed = sh->solver_iter != sv->iteration;
        /* A step or a seek: the blocks the history recorded between the
         * step the mirror shows and the step shown, so a frame costs what
         * moved, not a pass over the grid (16.7 M blocks at a whole
         * Summit); without them, the mappings compared whole. */
        int listed = changed && sv->hist && sh->solver_iter >= 0
                         ? sm_history_moved_between(sv->hist, sh->solver_iter, sv->iteration, 0, n / 8, &sh->list,
                                                    &sh->list_cap)
                         : -1;
        sh->nlist = listed;
        if (listed >= 0) {
            if (sv->current_states) follow_states(sh->mirror, sh->mirror_states, s->topo, sv->current_states);
            sm_cost_move_set(sh->mirror, sh->list, listed, sv->current_map);
            sm_cost_eval(sh->mirror, &sh->mirror_ev);
            sh->solver_iter = sv->iteration;
        } else if (changed) {
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
        int nt = sh->nlist;
        const int *t = source ? (nt >= 0 ? sh->list : NULL) : sm_session_touched_since(s, sh->mark, &nt);
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
    unsigned long long stats = sv ? sv->stats_version : 0;
    const char *phase = sv ? sm_app_solver_phase(app, sv) : "";
    if (t->seen_session != s) c |= SM_DEP_SESSION | SM_DEP_MAPPING;
    if (t->seen_map != t->shown.version || t->seen_session_version != s->version) c |= SM_DEP_MAPPING;
    if (t->seen_view != v->version) c |= SM_DEP_VIEW;
    if (t->seen_cmp != app->compare->version) c |= SM_DEP_MAPPING;
    if (t->seen_log != v->log_version) c |= SM_DEP_LOG;
    /* A start in the background: the Solver pane counts its seconds.
     * Inside a long step (the ILP's branch and bound) only its statistics
     * move: nodes, bound, elapsed must show while it runs; and the frame
     * drawn inside a step is redrawn once it has ended (its phase). */
    if (t->seen_solver != sv || t->seen_iter != iter || t->seen_done != done || t->seen_nstats != nstats ||
        t->seen_stats != stats || strcmp(t->seen_phase, phase) || t->seen_spark != v->spark_version || app->starting ||
        app->branching)
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
    t->seen_stats = stats;
    snprintf(t->seen_phase, sizeof t->seen_phase, "%s", phase);
    t->seen_spark = v->spark_version;
    return c;
}

/* ---- drawing ---- */

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
                   app->view->running ? "[stepping] " : "");
    }
    wnoutrefresh(w);
}

void wb_draw(tui *t, int force)
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
        wb_layout(t), force = 1;
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
    wb_prepare(t, &f);
    sm_ui_set_marks(app->session->topo, app->session->version);
    wb_draw_status(t, &f);
    unsigned changed = changes(t);
    int redrawn = 0;   /* a pane drawn under the help: draw the help on top again */
    for (int i = 0; i < SM_PANE_COUNT; i++) {
        sm_pane *p = &t->panes[i];
        if (!p->win) continue;
        int focused = v->focus == i;
        if (p->drawn && !p->busy && !(changed & p->ops->deps) && focused == p->drawn_focus) continue;
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
