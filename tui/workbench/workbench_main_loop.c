/* workbench_main_loop.c - the workbench's one main loop (as htop's ScreenManager):
 * lay the panes out, redraw the ones whose inputs changed, read a key,
 * turn it into a Tcl command through the key table and run it. While a
 * solver runs, each idle frame steps it by a slice sized to ~40 ms. */
#include "workbench_internal.h"

/* SIGTERM, SIGHUP and a dead terminal end the workbench (hangup_watchdog.h):
 * between keys the loop ends as on a quit, the terminal restored and the
 * journal kept for `session recover`; inside a long command the watchdog
 * ends it within a second. */
#define got_signal sm_hangup_pending()

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
    sm_hangup_set_journal(app->journal ? sm_journal_path(app->journal) : NULL);
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
        /* A signal or a dead terminal: no answer (the journal is kept). */
        if (got_signal) return 'n';
        wint_t wc;
        double t0 = seconds_now();
        int rc = get_wch(&wc);
        wb_note_read(rc, 0.05, seconds_now() - t0);
        if (rc == ERR) continue;
        if (rc == KEY_CODE_YES && wc == KEY_RESIZE) {
            wb_layout(t);
            wb_draw(t, 1);
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
        wb_draw(t, 1);
        int a = recovery_answer(t);
        t->question[0] = '\0';
        t->message[0] = '\0';
        if (got_signal) break;
        sm_words cmd;
        sm_words_init(&cmd);
        if (a == 'y' || a == 'Y') {
            sm_words_lit(&cmd, "session recover");
            sm_words_add(&cmd, path);
            wb_run_words(t, &cmd, SM_SHELL_ECHO);
            sm_words_free(&cmd);
            if (i + 1 < t->noffers)
                sm_view_log(app->view, SM_LOG_NOTE, "%d more stopped workbench(es) of this scenario left "
                            "unsaved work: session journals lists them", t->noffers - i - 1);
            break;
        }
        if (a == 'D') {
            sm_words_lit(&cmd, "session discard");
            sm_words_add(&cmd, path);
            wb_run_words(t, &cmd, SM_SHELL_ECHO);
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
    /* Before curses changes the terminal's modes: the watchdog keeps
     * them to put back. */
    sm_hangup_start();
    if (!initscr()) {
        fputs("stencilmap: cannot initialise the terminal (check TERM)\n", stderr);
        return 1;
    }
    wb_screen_begin(&t);
    sm_view_log(app->view, SM_LOG_NOTE, "stencilmap: ? lists the keys, : opens the Tcl console");
    start_journal(&t);
    wb_layout(&t);
    wb_draw(&t, 1);
    ask_recovery(&t);
    while (!app->view->quit && !got_signal) {
        sm_app_sync_view(app);
        sm_app_solver_poll(app);
        /* A run launched in the background: its progress, and its
         * RUN.json imported when it ends (every 200 ms at most). */
        sm_app_run_poll(app);
        /* A start (or compare mode's cost state) in the background is
         * looked for every 50 ms. */
        int background = app->starting || app->compare->pending || app->branching;
        for (int i = 0; i < SM_PANE_COUNT; i++) background |= t.panes[i].busy;
        t.wait = background ? 0.05 : app->view->running ? 0 : 0.2;
        timeout(background ? 50 : app->view->running ? 0 : 200);
        int code, is_key;
        if (wb_next_key(&t, &code, &is_key)) wb_handle_key(&t, code, is_key);
        else if (app->view->running && !app->starting) wb_run_slice(&t);
        wb_take_quit_request(&t);
        if (!app->view->quit) wb_draw(&t, 0);
    }
    sm_hangup_stop();
    t.wait = 0;
    wb_screen_end(&t);
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
    if (got_signal && sm_hangup_dead_terminal())
        fprintf(stderr, "stencilmap: the terminal hung up (a hang-up or read errors on it)\n");
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
        const char *k = wb_keyname_of(c, 0, buf, sizeof buf);
        if (k && strcmp(k, name) == 0) { *code = c; *is_key = 0; return 0; }
    }
    for (int c = KEY_MIN; c <= KEY_MAX; c++) {
        const char *k = wb_keyname_of(c, 1, buf, sizeof buf);
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
    wb_screen_begin(&t);
    sm_app_sync_view(app);
    wb_layout(&t);
    wb_draw(&t, 1);
    /* What a user waits for: the key handled and the next frame drawn
     * and written out. */
    for (int i = 0; i < n; i++) seconds[i] = 0;
    int quit_before = app->view->quit;   /* a batch `view quit` earlier is not this replay's */
    app->view->quit = 0;
    for (int i = 0; i < n && !app->view->quit; i++) {
        double t0 = wb_now();
        wb_handle_key(&t, codes[2 * i], codes[2 * i + 1]);
        wb_take_quit_request(&t);
        sm_app_sync_view(app);
        sm_app_solver_poll(app);
        wb_draw(&t, 0);
        seconds[i] = wb_now() - t0;
    }
    app->view->quit = quit_before;   /* a q y in the keys ends the replay, not the program */
    wb_screen_end(&t);
    delscreen(scr);
    fclose(out);
    fclose(in);
    free(codes);
    return 0;
}

const char *sm_tui_curses_version(void) { return curses_version(); }
