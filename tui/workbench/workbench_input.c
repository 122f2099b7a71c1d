/* workbench_input.c - keys to commands: a key through the key table to
 * the Tcl command it runs, the `:` prompt with its history and completion,
 * mouse clicks, and the solver's slice stepped each idle frame. */
#include "workbench_internal.h"

double wb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- running commands ---- */

static void run_cmd(tui *t, const char *cmd, int flags)
{
    t->message[0] = '\0';
    if (sm_shell_eval(t->app, cmd, flags))
        snprintf(t->message, sizeof t->message, "error: %.240s", sm_shell_result(t->app));
}

/* A command as words: how every key and click runs what it means. */
void wb_run_words(tui *t, const sm_words *cmd, int flags)
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
    wb_prepare(t, &f);
    if (d->kind == SM_DO_PANE_MOVE && p->ops->move_cursor && p->ops->rows) {
        int delta = d->delta;
        if (delta == SM_DO_FIRST) delta = SM_ROW_FIRST;
        else if (delta == SM_DO_LAST) delta = SM_ROW_LAST;
        else if (delta == SM_DO_PAGE || delta == -SM_DO_PAGE) delta = delta > 0 ? sm_pane_page(p) : -sm_pane_page(p);
        if (p->ops->move_cursor(p, app, &f, delta, &cmd)) wb_run_words(t, &cmd, d->quiet ? 0 : SM_SHELL_ECHO);
    } else if (d->kind == SM_DO_PANE_ACTIVATE && p->ops->activate) {
        if (p->ops->activate(p, app, &f, &cmd)) wb_run_words(t, &cmd, SM_SHELL_ECHO);
        else snprintf(t->message, sizeof t->message, "nothing here to choose");
    } else if (d->run.n) {
        wb_run_words(t, &d->run, d->quiet ? 0 : SM_SHELL_ECHO);
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
    case SM_DO_RUN:
        wb_run_words(t, &d.run, (d.quiet ? 0 : SM_SHELL_ECHO) | (d.result ? SM_SHELL_RESULT : 0) |
                                    (d.history ? SM_SHELL_HISTORY : 0));
        break;
    case SM_DO_PROMPT: start_prompt(t, &d); break;
    case SM_DO_CONFIRM_QUIT:
        t->confirm_quit = 1;
        t->quit_status = 0;
        break;
    case SM_DO_MESSAGE:
        snprintf(t->message, sizeof t->message, "%.250s", d.text);
        sm_view_log(t->app->view, SM_LOG_NOTE, "%s", d.text);
        break;
    case SM_DO_NOTHING: break;
    }
    sm_do_free(&d);
}

/* ---- keys ---- */

const char *wb_keyname_of(int code, int is_key, char *buf, size_t n)
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
    const char *k = wb_keyname_of(code, is_key, nb, sizeof nb);
    if (k && strcmp(k, "Enter") == 0) {
        t->prompting = 0;
        sm_words cmd;
        sm_words_init(&cmd);
        int kind = sm_action_finish(&t->pending, t->line, &cmd);
        if (kind == 1) wb_run_words(t, &cmd, SM_SHELL_ECHO | SM_SHELL_HISTORY);
        else if (kind == 0)
            run_cmd(t, t->line, SM_SHELL_ECHO | SM_SHELL_HISTORY | SM_SHELL_RESULT);
        sm_words_free(&cmd);
        /* Quit only once everything is on disk (a failed or refused save
         * keeps the workbench open). */
        if (t->quit_after_save && !t->app->session->dirty) {
            run_cmd(t, "view quit -force", SM_SHELL_ECHO);
            t->app->exit_status = t->quit_status;
        }
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
            wb_prepare(t, &f);
            if (p->ops->move_cursor && p->ops->move_cursor(p, t->app, &f, wheel, &cmds[0])) wb_run_words(t, &cmds[0], 0);
            for (int k = 0; k < SM_CLICK_MAX; k++) sm_words_free(&cmds[k]);
            return;
        }
        if (t->app->view->focus != i) {
            sm_words_lit(&cmds[0], "view focus");
            sm_words_add(&cmds[0], sm_pane_names[i]);
            wb_run_words(t, &cmds[0], SM_SHELL_ECHO);
            sm_words_clear(&cmds[0]);
        }
        sm_frame f;
        wb_prepare(t, &f);
        int n = p->ops->click ? p->ops->click(p, t->app, &f, ev.y - p->y, ev.x - p->x, cmds) : 0;
        for (int k = 0; k < n && k < SM_CLICK_MAX; k++) wb_run_words(t, &cmds[k], SM_SHELL_ECHO);
        for (int k = 0; k < SM_CLICK_MAX; k++) sm_words_free(&cmds[k]);
        return;
    }
}

/* exit or view quit over unsaved work (the console, a binding, a hook
 * run by a solver's steps) asked for the quit: q's own question opens,
 * as if q had been pressed; exit N's status is kept for its answer. */
void wb_take_quit_request(tui *t)
{
    sm_view *v = t->app->view;
    if (!v->ask_quit) return;
    v->ask_quit = 0;
    if (v->quit || t->confirm_quit) return;
    if (!t->app->session->dirty) {   /* saved meanwhile: nothing to ask */
        v->quit = 1;
        t->app->exit_status = v->ask_quit_status;
        return;
    }
    t->prompting = 0;
    t->confirm_quit = 1;
    t->quit_status = v->ask_quit_status;
}

void wb_handle_key(tui *t, int code, int is_key)
{
    sm_app *app = t->app;
    if (is_key && code == KEY_RESIZE) return;
    if (is_key && code == KEY_MOUSE) { mouse(t); return; }
    if (t->confirm_quit) {
        t->confirm_quit = 0;
        if (!is_key && (code == 'y' || code == 'Y')) {
            /* The user's own answer: it quits even in a -safe workbench,
             * whose `view quit -force` over unsaved work is refused. */
            run_cmd(t, "view quit -force", SM_SHELL_ECHO);
            app->view->quit = 1;
            app->exit_status = t->quit_status;
        } else if (!is_key && code == 'w') {
            t->quit_after_save = 1;
            do_action(t, SM_ACT_SAVE);
        } else {
            t->quit_status = 0;
            sm_view_log(app->view, SM_LOG_NOTE, "quit cancelled");
        }
        return;
    }
    if (t->prompting) { prompt_key(t, code, is_key); return; }
    char nb[16];
    const char *k = wb_keyname_of(code, is_key, nb, sizeof nb);
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
            wb_prepare(t, &f);
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
void wb_run_slice(tui *t)
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
    double t0 = wb_now();
    int rc = sm_shell_run(app, &cmd, 0);
    sm_words_free(&cmd);
    if (rc) {
        app->view->running = 0;
        return;
    }
    double dt = wb_now() - t0;
    if (dt < 0.02 && t->slice < (1LL << 20)) t->slice *= 2;
    else if (dt > 0.08 && t->slice > 1) t->slice /= 2;
    if (s->done || s->stopped) {
        app->view->running = 0;
        sm_view_log(app->view, SM_LOG_NOTE, "%s %s after %lld iterations; a applies its best", s->ops->name,
                    s->status, s->iteration);
    }
}
