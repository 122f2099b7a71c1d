/* workbench_internal.h - what the files of the workbench loop share (not for
 * use outside tui/workbench/): the loop's state (the panes, the prompt, what
 * was last drawn, the mapping shown) and the functions each file offers the
 * others. workbench_main_loop.c runs the loop, workbench_pane_placement.c lays the panes
 * out, workbench_terminal.c holds the hooks the command layer redraws through,
 * workbench_redraw.c draws a frame, workbench_input.c turns keys into
 * commands. */
#ifndef SM_WORKBENCH_INTERNAL_H
#define SM_WORKBENCH_INTERNAL_H

#include <langinfo.h>
#include <signal.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/session/crash_recovery_journal.h"
#include "tui/app/key_action_to_tcl_command.h"
#include "tui/app/key_action_table.h"
#include "tui/pane/pane.h"
#include "tui/app/solver_start_on_worker_thread.h"
#include "tui/app/tcl_bridge.h"
#include "hangup_watchdog.h"
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
    int quit_status;         /* the program's status if the question quits (exit N) */
    char message[256];

    /* What the panes were last drawn from: the change mask compares these. */
    unsigned long long seen_map, seen_session_version, seen_view, seen_log, seen_spark, seen_cmp;
    const void *seen_session, *seen_solver;
    long long seen_iter;
    int seen_done, seen_nstats;
    unsigned long long seen_stats;  /* the solver's stats_version */
    char seen_phase[12];            /* sm_app_solver_phase */

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
        /* The blocks the solver's history recorded between the step the
         * mirror showed and the step shown (nlist -1: not listed). */
        int *list, nlist, list_cap;
        /* The session's structure (grid, machine, model) the mirror was
         * built under: another run keeps it only under the same. */
        unsigned long long mirror_structure;
    } shown;
    long long slice;                        /* steps per frame when running */

    /* Keys typed while a long command ran (progress reads the terminal
     * then): kept in order and handled when it returns, never dropped. */
    struct typed { int code, is_key; } typed[256];
    int typed_head, typed_n;
    double wait;                            /* the seconds the next key may take (0: none) */
} tui;


/* workbench_pane_placement.c */
typedef struct wb_pane_place {
    const sm_pane_ops *ops;
    sm_pane_slot slot;
    int width;
} wb_pane_place;
extern const wb_pane_place wb_pane_table[SM_PANE_COUNT];
void wb_layout(tui *t);

/* workbench_redraw.c */
void wb_shown_reset(struct shown *sh);
void wb_prepare(tui *t, sm_frame *f);
void wb_draw(tui *t, int force);
/* The status line (workbench_status_line.c). */
void wb_draw_status(tui *t, const sm_frame *f);

/* workbench_terminal.c */
int wb_next_key(tui *t, int *code, int *is_key);
void wb_screen_begin(tui *t);
void wb_screen_end(tui *t);

/* workbench_input.c */
double wb_now(void);
void wb_run_words(tui *t, const sm_words *cmd, int flags);
const char *wb_keyname_of(int code, int is_key, char *buf, size_t n);
void wb_handle_key(tui *t, int code, int is_key);
/* Opens q's question when a command asked to quit over unsaved work. */
void wb_take_quit_request(tui *t);
void wb_run_slice(tui *t);

/* A read of the terminal that came back with nothing: rc as get_wch's,
 * asked the seconds it could wait, took those it did. Reads that end at
 * once, again and again, are a dead terminal poll did not call hung up
 * (hangup_watchdog.h). */
void wb_note_read(int rc, double asked, double took);

#endif
