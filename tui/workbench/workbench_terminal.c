/* workbench_terminal.c - the workbench's screen: the terminal modes and pane
 * windows it runs with, and the hooks the command layer calls while a long
 * command runs (redraw and read keys, the screen as text, a yes/no
 * question). The layout is workbench_pane_placement.c. */
#include "workbench_internal.h"
/* ---- hooks the command layer calls ---- */

static int quick_errs;
void wb_note_read(int rc, double asked, double took)
{
    if (rc != ERR || asked <= 0) {
        quick_errs = 0;
        return;
    }
    /* 20 in a row, each back in under a quarter of its wait. */
    if (took < asked / 4) {
        if (++quick_errs >= 20) sm_hangup_terminal_failed();
    } else {
        quick_errs = 0;
    }
}

/* What endwin writes, for an end inside a long command (the watchdog
 * puts the terminal back with it when the terminal is still there). */
static void set_reset_strings(void)
{
    char seq[256] = "";
    static const char *const caps[] = {"rmcup", "cnorm", "sgr0", "rmkx"};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        char *s = tigetstr(caps[i]);
        if (s && s != (char *)-1) strncat(seq, s, sizeof seq - strlen(seq) - 1);
    }
    strncat(seq, "\033[?1000l", sizeof seq - strlen(seq) - 1); /* mouse reports off */
    sm_hangup_set_reset(seq);
}

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
    /* Ending (a signal, a dead terminal): the command stops at its next
     * step; the watchdog ends the process if it does not return. */
    if (sm_hangup_pending()) {
        t->app->interrupt = 1;
        return;
    }
    wb_draw(t, 0);
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
int wb_next_key(tui *t, int *code, int *is_key)
{
    if (t->typed_n) {
        *code = t->typed[t->typed_head].code;
        *is_key = t->typed[t->typed_head].is_key;
        t->typed_head = (t->typed_head + 1) % (int)(sizeof t->typed / sizeof t->typed[0]);
        t->typed_n--;
        return 1;
    }
    wint_t wc;
    double t0 = wb_now();
    int rc = get_wch(&wc);
    wb_note_read(rc, t->wait, wb_now() - t0);
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
    wb_draw(t, 0);
    WINDOW *w = t->bottom;
    werase(w);
    sm_ui_text(w, 0, 0, COLS, sm_ui_attr(SM_EL_PROMPT), "%s", question);
    wnoutrefresh(w);
    doupdate();
    /* Keys typed ahead answer first, in the order they were typed. */
    timeout(-1);
    int code, is_key;
    do if (!wb_next_key(t, &code, &is_key)) code = 0, is_key = 0;
    while (is_key && (code == KEY_RESIZE || code == KEY_MOUSE));
    int yes = !is_key && (code == 'y' || code == 'Y');
    sm_view_log(t->app->view, SM_LOG_NOTE, "%s %s", question, yes ? "yes" : "no");
    return yes;
}

static const sm_screen_ops screen_ops = {progress, dump, confirm};

/* The terminal modes, panes and hooks the workbench runs with, once the
 * curses screen exists (a real terminal, or a headless one). */
void wb_screen_begin(tui *t)
{
    sm_app *app = t->app;
    set_reset_strings();
    /* raw, not cbreak: C-c must reach us as a key (it interrupts long
     * work) instead of killing the workbench and the unsaved session. */
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    /* Home and End as tmux, screen and rxvt send them (\e[1~ \e[4~, \e[7~
     * \e[8~): under TERM=xterm curses knew only \eOH/\eOF, so Home ran
     * Esc's action and "~: no action" (issue 37). */
    define_key("\033[1~", KEY_HOME);
    define_key("\033[4~", KEY_END);
    define_key("\033[7~", KEY_HOME);
    define_key("\033[8~", KEY_END);
    if (has_colors() && !sm_ui_no_color()) {
        start_color();
        use_default_colors();
    }
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    for (int i = 0; i < SM_PANE_COUNT; i++) {
        t->panes[i].ops = wb_pane_table[i].ops;
        t->panes[i].id = i;
    }
    t->help.ops = &sm_pane_help;
    t->help.id = SM_PANE_COUNT;
    the_tui = t;
    app->screen = &screen_ops;
    app->screen_ctx = t;
    /* Keys stay quick at 16.7 M blocks: compare mode's cost state is
     * built on another thread while the workbench draws. */
    const char *bg = getenv("STENCILMAP_COMPARE_BACKGROUND");
    sm_compare_background_blocks = bg && *bg ? atoi(bg) : SM_COMPARE_BACKGROUND_DEFAULT;
    app->compare->background = 1;
}

void wb_screen_end(tui *t)
{
    sm_app *app = t->app;
    app->screen = NULL;
    app->screen_ctx = NULL;
    /* A script after it reads the figures at once. */
    app->compare->background = 0;
    sm_compare_wait(app->compare);
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
    wb_shown_reset(&t->shown);
    sm_do_free(&t->pending);
}
