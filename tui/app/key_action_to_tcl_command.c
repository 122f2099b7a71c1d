/* key_action_to_tcl_command.c - key actions as Tcl commands (see key_action_to_tcl_command.h). */
#include "solvers/solver_registry.h"
#include "key_action_to_tcl_command.h"
#include "solver_pause_and_stop_on_esc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "path_display_tidy.h"
#include "tcl_bridge.h"
#include "solvers/stepper/step_history_record_seek_back.h"

/* RUN: fixed words (a literal of the program), then data words (names),
 * each one word whatever it holds. */
static void run(sm_do *d, const char *lit, const char *a, const char *b)
{
    d->kind = SM_DO_RUN;
    sm_words_lit(&d->run, lit);
    if (a) sm_words_add(&d->run, a);
    if (b) sm_words_add(&d->run, b);
}

static void message(sm_do *d, const char *text)
{
    d->kind = SM_DO_MESSAGE;
    snprintf(d->text, sizeof d->text, "%s", text);
}

void sm_do_free(sm_do *d)
{
    sm_words_free(&d->run);
    sm_words_free(&d->tmpl);
}

static const char *proc_name(const sm_app *app, int p)
{
    return app->session->topo->procs[p].name;
}

/* The selected blocks (or the cursor's), one word each. */
static int add_targets(const sm_app *app, sm_words *c)
{
    int k;
    int *b = sm_view_targets(app->view, &k);
    for (int i = 0; i < k; i++) sm_words_addf(c, "%d", b[i]);
    free(b);
    return k;
}

/* "solver start NAME" for the solver picked in the Solver pane, to edit:
 * Enter starts it, typed options go after it (no hidden trailing blank). */
static void start_prompt(const sm_app *app, sm_do *d)
{
    const sm_solver_ops *ops = sm_solver_list()[app->view->solver_row];
    d->kind = SM_DO_PROMPT;
    snprintf(d->label, sizeof d->label, ":");
    snprintf(d->text, sizeof d->text, "solver start %s", ops->name);
    d->complete = SM_COMPLETE_TCL;
}

/* Enter: the focused pane knows what is under its cursor (the loop asks
 * it); the Solver pane opens the start prompt; the Grid toggles. */
static void activate(sm_app *app, sm_do *d)
{
    if (app->view->focus == SM_PANE_SOLVER) {
        start_prompt(app, d);
        return;
    }
    run(d, "view select toggle", NULL, NULL);
    d->kind = SM_DO_PANE_ACTIVATE;
}

/* The Study pane's column keys; without a study, say how to load one. */
static void study_cycle(const sm_app *app, sm_do *d, const char *axis)
{
    if (!app->view->study) {
        message(d, "no study loaded: view study DIR (a directory of \"study run\", or its merged JSON)");
        return;
    }
    run(d, "view study cycle", axis, "next");
}

/* Up/Down/PgUp/PgDn/Home/End: list panes move their cursor; the Grid runs
 * the fallback command. */
static void pane_move(sm_do *d, int delta, const char *fallback)
{
    if (fallback) run(d, fallback, NULL, NULL);
    d->kind = SM_DO_PANE_MOVE;
    d->delta = delta;
    d->quiet = 1;
}

/* { and }: seek 10 steps (clamped to the history's first step). */
static void seek_by(const sm_app *app, sm_do *d, int delta)
{
    const sm_solver *s = app->solver;
    if (!s || !s->hist) {
        message(d, "no solver history: start a solver (S) and step it (n)");
        return;
    }
    long long k = sm_history_cursor(s->hist) + delta;
    if (k < sm_history_first(s->hist)) k = sm_history_first(s->hist);
    run(d, "solver seek", NULL, NULL);
    sm_words_addf(&d->run, "%lld", k);
}

/* B: a breakpoint from what is under the cursor, as `solver run -until`
 * over the solver's own mapping (solver block / solver load): the
 * processor chosen in Processors, the Grid's cursor block, or else the
 * objective of the step shown. Numbers only go into the expression. */
static void breakpoint(const sm_app *app, sm_do *d)
{
    const sm_solver *s = app->solver;
    const sm_view *v = app->view;
    if (!s || !s->hist) {
        message(d, "no solver to run: start one (S)");
        return;
    }
    const int *map = s->current_map ? s->current_map : s->has_best ? s->best_map : NULL;
    char expr[160];
    if (v->focus == SM_PANE_PROCS && v->proc >= 0 && map) {
        int count = 0;
        for (int b = 0; b < v->ntasks; b++) count += map[b] == v->proc;
        snprintf(expr, sizeof expr, "[solver load %d] != %d", v->proc, count);
    } else if (v->focus == SM_PANE_GRID && map) {
        int b = sm_view_cursor_block(v);
        snprintf(expr, sizeof expr, "[solver block %d] != %d", b, map[b]);
    } else {
        const sm_hist_step *st = sm_history_step(s->hist, sm_history_cursor(s->hist));
        if (!isfinite(st->objective)) {
            message(d, "breakpoint: the step shown has no objective yet; step once (n)");
            return;
        }
        snprintf(expr, sizeof expr, "[dict get $state current objective] < %.17g", st->objective);
    }
    run(d, "solver run -until", expr, NULL);
    d->history = 1;
}

/* Esc and C-c: a running solver pauses or a paused one ends
 * (solver_pause_and_stop_on_esc.c). Otherwise Esc clears the selection. */
static void pause_or_stop(const sm_app *app, sm_do *d, int esc)
{
    const char *solver_cmd = sm_solver_esc_command(app);
    if (solver_cmd) run(d, solver_cmd, NULL, NULL);
    else if (esc) run(d, "view select clear", NULL, NULL);
    else message(d, "C-c: no solver running (Esc clears the selection)");
}

void sm_action_plan(sm_app *app, sm_action a, sm_do *d)
{
    sm_view *v = app->view;
    memset(d, 0, sizeof *d);
    char buf[256];
    int count;
    switch (a) {
    case SM_ACT_CURSOR_LEFT: run(d, "view cursor left", NULL, NULL), d->quiet = 1; break;
    case SM_ACT_CURSOR_RIGHT: run(d, "view cursor right", NULL, NULL), d->quiet = 1; break;
    case SM_ACT_CURSOR_UP: pane_move(d, -1, "view cursor up"); break;
    case SM_ACT_CURSOR_DOWN: pane_move(d, 1, "view cursor down"); break;
    case SM_ACT_PLANE_PREV: pane_move(d, -SM_DO_PAGE, "view plane prev"); break;
    case SM_ACT_PLANE_NEXT: pane_move(d, SM_DO_PAGE, "view plane next"); break;
    case SM_ACT_ROW_FIRST: pane_move(d, SM_DO_FIRST, NULL); break;
    case SM_ACT_ROW_LAST: pane_move(d, SM_DO_LAST, NULL); break;
    case SM_ACT_ACTIVATE: activate(app, d); break;
    case SM_ACT_SELECT: run(d, "view select toggle", NULL, NULL); break;
    case SM_ACT_SELECT_PROC: {
        int p = v->proc >= 0 ? v->proc : sm_session_map(app->session)[sm_view_cursor_block(v)];
        run(d, "view select proc", proc_name(app, p), NULL);
        break;
    }
    case SM_ACT_SELECT_CLEAR: pause_or_stop(app, d, 1); break;
    case SM_ACT_MOVE:
        d->kind = SM_DO_PROMPT;
        sm_words_lit(&d->tmpl, "map move PROC");
        d->hole = 2;
        count = add_targets(app, &d->tmpl);
        snprintf(d->label, sizeof d->label, "move %d block%s to processor: ", count, count == 1 ? "" : "s");
        snprintf(d->text, sizeof d->text, "%s", v->proc >= 0 ? proc_name(app, v->proc) : "");
        d->complete = SM_COMPLETE_PROCS;
        break;
    case SM_ACT_SWAP: {
        int cur = sm_view_cursor_block(v), other = -1, second = cur;
        if (v->nsel >= 1 && v->nsel <= 2) {
            int ns, *sel = sm_view_selection(v, &ns);
            other = sel[0];
            if (ns == 2) second = sel[1];
            free(sel);
        }
        if (v->nsel == 0 || v->nsel > 2 || other == second) {
            message(d, "swap: select one block (x), put the cursor on another, press s; or select two");
            break;
        }
        run(d, "map swap", NULL, NULL);
        sm_words_addf(&d->run, "%d", other);
        sm_words_addf(&d->run, "%d", second);
        break;
    }
    case SM_ACT_NODE: run(d, "view node", v->node >= 0 ? "none" : "cursor", NULL); break;
    case SM_ACT_UNDO: run(d, "map undo", NULL, NULL); break;
    case SM_ACT_REDO: run(d, "map redo", NULL, NULL); break;
    case SM_ACT_START: start_prompt(app, d); break;
    case SM_ACT_STEP: run(d, "solver step", NULL, NULL); break;
    case SM_ACT_STEPN:
        snprintf(buf, sizeof buf, "%lld", v->stepn);
        run(d, "solver step", buf, NULL);
        break;
    case SM_ACT_BACK: run(d, "solver back", NULL, NULL); break;
    case SM_ACT_FORWARD: run(d, "solver step", NULL, NULL); break;
    case SM_ACT_BACK10:
    case SM_ACT_FORWARD10: seek_by(app, d, a == SM_ACT_BACK10 ? -10 : 10); break;
    case SM_ACT_EXPLAIN: run(d, "solver explain", NULL, NULL), d->result = 1; break;
    case SM_ACT_BREAK: breakpoint(app, d); break;
    case SM_ACT_RUN: run(d, "view run toggle", NULL, NULL); break;
    case SM_ACT_RUN_BACK: run(d, "solver run -back", NULL, NULL), d->history = 1; break;
    case SM_ACT_PAUSE: pause_or_stop(app, d, 0); break;
    case SM_ACT_APPLY: run(d, "solver apply", NULL, NULL); break;
    case SM_ACT_STOP: run(d, "solver stop", NULL, NULL); break;
    case SM_ACT_SOURCE: run(d, "view source", v->show_solver ? "session" : "solver", NULL); break;
    case SM_ACT_COMPARE: run(d, "view compare toggle", NULL, NULL); break;
    case SM_ACT_SORT: run(d, "view procs -sort", sm_sort_names[(v->sort + 1) % SM_SORT_COUNT], NULL); break;
    case SM_ACT_SORT_REVERSE: run(d, "view procs -order", v->sort_desc ? "asc" : "desc", NULL); break;
    case SM_ACT_GROUP: run(d, "view procs -group", v->group_by_net ? "node" : "net", NULL); break;
    case SM_ACT_NETWORK: run(d, "view network toggle", NULL, NULL); break;
    case SM_ACT_FILTER:
        d->kind = SM_DO_PROMPT;
        snprintf(d->label, sizeof d->label, "filter processors (name, type or nN): ");
        snprintf(d->text, sizeof d->text, "%s", v->filter);
        sm_words_lit(&d->tmpl, "view procs -filter PATTERN");
        d->hole = 3;
        d->empty_ok = 1;
        d->complete = SM_COMPLETE_PROCS;
        break;
    case SM_ACT_STUDY_X: study_cycle(app, d, "x"); break;
    case SM_ACT_STUDY_Y: study_cycle(app, d, "y"); break;
    case SM_ACT_STUDY_BY: study_cycle(app, d, "by"); break;
    case SM_ACT_FOCUS_NEXT: run(d, "view focus next", NULL, NULL), d->quiet = 1; break;
    case SM_ACT_FOCUS_PREV: run(d, "view focus prev", NULL, NULL), d->quiet = 1; break;
    case SM_ACT_ZOOM: run(d, "view zoom toggle", NULL, NULL); break;
    case SM_ACT_THEME: {
        int n;
        char **names = sm_theme_list(&n);
        int next = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(names[i], v->theme.name) == 0) next = (i + 1) % n;
        run(d, "theme load", names[next], NULL);
        for (int i = 0; i < n; i++) free(names[i]);
        free(names);
        break;
    }
    case SM_ACT_SAVE:
        d->kind = SM_DO_PROMPT;
        snprintf(d->label, sizeof d->label, "save scenario (grid, machine, model, mapping) as: ");
        /* A shipped sample is offered as a new file here, never itself. */
        sm_path_save_offer(app->scenario_path ? app->scenario_path : "scenario.json", d->text, sizeof d->text);
        sm_words_lit(&d->tmpl, "scenario save FILE");
        d->hole = 2;
        d->complete = SM_COMPLETE_FILES;
        break;
    case SM_ACT_CONSOLE:
        d->kind = SM_DO_PROMPT;
        snprintf(d->label, sizeof d->label, ":");
        d->complete = SM_COMPLETE_TCL;
        break;
    case SM_ACT_HELP: run(d, "view help toggle", NULL, NULL); break;
    case SM_ACT_REFRESH: run(d, "view refresh", NULL, NULL); break;
    case SM_ACT_QUIT:
        if (app->session->dirty) d->kind = SM_DO_CONFIRM_QUIT;
        else run(d, "view quit", NULL, NULL);
        break;
    case SM_ACT_COUNT: break;
    }
}

int sm_action_finish(const sm_do *d, const char *input, sm_words *out)
{
    if (d->tmpl.n == 0) return input[0] ? 0 : -1;
    /* A value, not a command line: surrounding blanks are not part of it. */
    while (*input == ' ') input++;
    size_t l = strlen(input);
    while (l && input[l - 1] == ' ') l--;
    if (l == 0 && !d->empty_ok) return -1;
    char *word = sm_xmalloc(l + 1);
    memcpy(word, input, l);
    word[l] = '\0';
    sm_words_clear(out);
    for (int i = 0; i < d->tmpl.n; i++) sm_words_add(out, i == d->hole ? word : d->tmpl.w[i]);
    free(word);
    return 1;
}
