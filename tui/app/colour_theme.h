/* colour_theme.h - colour themes (themes/NAME.json, format "stencilmap/theme"): a
 * table indexed by an enum of colour elements, and a processor palette.
 * Parsing only; the TUI turns a theme into curses colour pairs. */
#ifndef SM_COLOUR_THEME_H
#define SM_COLOUR_THEME_H

#include <stddef.h>
#include "core/lib/util.h"

/* X(id, json key, what it colours) */
#define SM_ELEMENTS(X)                                              \
    X(TEXT, "text", "ordinary text")                                \
    X(DIM, "dim", "secondary text, units, empty bar space")         \
    X(FRAME, "frame", "pane borders")                               \
    X(FRAME_FOCUS, "frame_focus", "the focused pane's border")      \
    X(TITLE, "title", "pane titles")                                \
    X(HEADER, "header", "column headings and group rows")           \
    X(CURSOR, "cursor", "the cursor row or block")                  \
    X(SELECTION, "selection", "selected blocks")                    \
    X(HIGHLIGHT, "highlight", "blocks of the chosen pair, last move") \
    X(CUT, "cut", "cut-edge marks in the grid")                     \
    X(BAR_COMP, "bar_comp", "compute time in load bars")            \
    X(BAR_COMM, "bar_comm", "communication time in bars")           \
    X(BAR_IDLE, "bar_idle", "idle time in load bars")               \
    X(DEADLINE, "deadline", "the deadline mark")                    \
    X(E_DYNAMIC, "energy_dynamic", "dynamic energy")                \
    X(E_STATIC, "energy_static", "static energy")                   \
    X(E_IDLE, "energy_idle", "idle energy")                         \
    X(E_INTRA, "energy_intra", "intra-node communication energy")  \
    X(E_INTER, "energy_inter", "inter-node communication energy")  \
    X(GOOD, "good", "better, feasible")                             \
    X(BAD, "bad", "worse, infeasible, errors")                      \
    X(LOG_CMD, "log_command", "commands in the log")                \
    X(LOG_RESULT, "log_result", "results in the log")               \
    X(PROMPT, "prompt", "the console prompt")                       \
    X(STATUS, "status", "the status line")                          \
    X(SPARK_CUR, "spark_current", "current objective sparkline")    \
    X(SPARK_BEST, "spark_best", "best objective sparkline")

typedef enum {
#define X(id, key, help) SM_EL_##id,
    SM_ELEMENTS(X)
#undef X
    SM_EL_COUNT
} sm_element;

extern const char *const sm_element_keys[SM_EL_COUNT];

enum { SM_ATTR_BOLD = 1, SM_ATTR_UNDERLINE = 2, SM_ATTR_REVERSE = 4, SM_ATTR_DIM = 8 };

/* Colours: -1 the terminal default, 0-7 the basic colours, 8-15 bright,
 * 16-255 the xterm 256-colour cube and greys. */
typedef struct sm_style {
    short fg, bg;
    int attrs;
} sm_style;

#define SM_THEME_MAX_PROCS 64
#define SM_THEME_MAX_HEAT 9

typedef struct sm_theme {
    char name[64];
    sm_style el[SM_EL_COUNT];
    int nproc;
    short proc[SM_THEME_MAX_PROCS];   /* block background by processor */
    int nheat;
    short heat[SM_THEME_MAX_HEAT];    /* load ramp, coolest first (Network) */
} sm_theme;

/* The theme compiled into the binary (themes/default.json). */
extern const char sm_default_theme[];

int sm_theme_parse(const char *text, size_t len, const char *file, sm_theme *t, sm_err *e);
/* NAME: a path (contains '/' or ends in .json), or a theme name looked up
 * on the search path (sm_theme_dir: $STENCILMAP_THEMES, the user's XDG
 * data directory, ./themes, beside the program, the installed data
 * directory, $XDG_DATA_DIRS); "default" falls back to the built-in copy. */
int sm_theme_load(const char *name, sm_theme *t, sm_err *e);
void sm_theme_builtin(sm_theme *t);
/* Theme names on the search path and "default", sorted (caller frees
 * each and the array). */
char **sm_theme_list(int *n);
/* The i-th directory of the theme search path, NULL past the last. */
const char *sm_theme_dir(int i);

/* xterm's RGB for a colour number, and the nearest of the 8 basic colours
 * (the fallback on 8-colour terminals). */
void sm_color_rgb(int c, int rgb[3]);
int sm_color_nearest8(int c);
/* Black or white, whichever reads better on colour c. */
int sm_color_contrast(int c);
/* Colour c as a terminal with `colours` colours shows it: itself on 256,
 * the 16 basic ones kept on 16, else the nearest of the 8 basic. */
int sm_color_for(int c, int colours);
/* The processor palette a terminal with `colours` colours can tell apart
 * from the marks that must stand out: entries that look like the cursor's
 * or the highlight's background (or the terminal default) are left out,
 * and so are entries that map to a colour already taken. Fills out[] (up
 * to SM_THEME_MAX_PROCS) with the colours as the terminal shows them and
 * returns how many. */
int sm_theme_palette(const sm_theme *t, int colours, short *out);
/* Parse "red", "bright-blue", "default", "#rrggbb" or a number. */
int sm_color_parse(const char *s, short *out);

#endif
