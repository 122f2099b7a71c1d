/* pane_shared_drawing_helpers.c - colour pairs from the theme (a table indexed by colour
 * element, as htop's CRT.c does) and the drawing helpers panes share. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/lib/units.h"
#include "pane.h"
#include "tui/app/processor_marks.h"

static attr_t el_attr[SM_EL_COUNT];
static attr_t heat_attr[SM_THEME_MAX_HEAT];
static int nheat_styles = 1;

/* Processor styles: the palette colours the terminal tells apart from the
 * cursor and the highlight (sm_theme_palette), each plain and bold on 8
 * colours; and, per processor of the machine shown, its style and glyph
 * (processor_marks.h). */
#define MAX_STYLES (SM_THEME_MAX_PROCS * 2)
static attr_t style_attr[MAX_STYLES];
static int nstyles = 1;
static struct {
    const sm_topo *topo;
    unsigned long long key;
    int n, by_node;
    attr_t *attr;
    char *glyph;
} marks;

static attr_t style_attrs(int a)
{
    attr_t r = 0;
    if (a & SM_ATTR_BOLD) r |= A_BOLD;
    if (a & SM_ATTR_UNDERLINE) r |= A_UNDERLINE;
    if (a & SM_ATTR_REVERSE) r |= A_REVERSE;
    if (a & SM_ATTR_DIM) r |= A_DIM;
    return r;
}

/* A pair of colour bg with readable text on it, or the plain style
 * without colours (or when the pairs run out). */
static attr_t colour_pair(short colour, int *pair, int colours, attr_t plain)
{
    if (!colours || *pair >= COLOR_PAIRS) return plain;
    short bg = (short)sm_color_for(colour, COLORS);
    short fg = (short)sm_color_contrast(bg);
    if (COLORS < 16) fg = fg == 15 ? COLOR_WHITE : COLOR_BLACK;
    int n = (*pair)++;
    init_pair((short)n, fg, bg);
    return COLOR_PAIR(n);
}

int sm_ui_no_color(void)
{
    const char *v = getenv("NO_COLOR");   /* no-color.org: set and not empty */
    return v && *v;
}

void sm_ui_apply_theme(const sm_theme *t)
{
    int pair = 1;
    int colours = has_colors() && COLORS >= 8 && !sm_ui_no_color();
    int few = !colours || COLORS < 16;   /* bold doubles the styles */
    for (int e = 0; e < SM_EL_COUNT; e++) {
        el_attr[e] = style_attrs(t->el[e].attrs);
        if (colours && pair < COLOR_PAIRS) {
            int fg = sm_color_for(t->el[e].fg, COLORS), bg = sm_color_for(t->el[e].bg, COLORS);
            /* 8 colours: a grey (or black) text on the terminal's own
             * background became black or white, invisible on a dark or a
             * light terminal (TERM=xterm: every unfocused frame); the
             * terminal's own foreground reads on both, dimmed for the
             * darker greys. */
            if (COLORS < 16 && bg < 0 && t->el[e].fg >= 0 && (fg == COLOR_BLACK || fg == COLOR_WHITE) &&
                t->el[e].fg != 7 && t->el[e].fg != 15) {
                int rgb[3];
                sm_color_rgb(t->el[e].fg, rgb);
                if (rgb[0] + rgb[1] + rgb[2] < 3 * 160) el_attr[e] |= A_DIM;
                fg = -1;
            }
            init_pair((short)pair, (short)fg, (short)bg);
            el_attr[e] |= COLOR_PAIR(pair);
            pair++;
        }
    }
    short pal[SM_THEME_MAX_PROCS];
    int npal = colours ? sm_theme_palette(t, COLORS, pal) : 2;
    int base = 0;
    for (int i = 0; i < npal; i++)
        if (!colours || pair < COLOR_PAIRS)
            style_attr[base++] = colour_pair(pal[i], &pair, colours, i % 2 ? A_REVERSE : A_NORMAL);
    if (base == 0) style_attr[base++] = A_NORMAL;
    nstyles = base;
    if (few)
        for (int i = 0; i < base; i++) style_attr[nstyles++] = style_attr[i] | A_BOLD;
    marks.topo = NULL;   /* styles changed: marks follow on the next frame */
    /* No colour: the Network pane's digits carry the level; the hottest half bold. */
    nheat_styles = t->nheat > 0 ? t->nheat : 1;
    for (int h = 0; h < t->nheat; h++)
        heat_attr[h] = colour_pair(t->heat[h], &pair, colours, 2 * h >= t->nheat ? A_BOLD | A_REVERSE : A_NORMAL);
}

attr_t sm_ui_heat_attr(double frac)
{
    /* A NaN or out-of-range fraction must not reach the int cast
     * (undefined behaviour: the sanitized build checks float casts). */
    if (!(frac >= 0)) frac = 0;
    if (frac > 1) frac = 1;
    int h = (int)(frac * nheat_styles);
    if (h >= nheat_styles) h = nheat_styles - 1;
    if (h < 0) h = 0;
    return heat_attr[h];
}

void sm_ui_set_marks(const sm_topo *t, unsigned long long key)
{
    if (marks.topo == t && marks.key == key && marks.n == t->nprocs) return;
    int *style = sm_xmalloc(sizeof(int) * (size_t)(t->nprocs + 1));
    marks.glyph = sm_xrealloc(marks.glyph, (size_t)t->nprocs + 1);
    marks.attr = sm_xrealloc(marks.attr, sizeof(attr_t) * (size_t)(t->nprocs + 1));
    marks.by_node = sm_proc_marks(t, nstyles, style, marks.glyph);
    for (int p = 0; p < t->nprocs; p++) marks.attr[p] = style_attr[style[p]];
    free(style);
    marks.topo = t;
    marks.key = key;
    marks.n = t->nprocs;
}

int sm_ui_marks_by_node(void) { return marks.by_node; }

void sm_ui_release_marks(void)
{
    free(marks.attr);
    free(marks.glyph);
    memset(&marks, 0, sizeof marks);
}

attr_t sm_ui_attr(sm_element e) { return el_attr[e]; }

static int utf8_lines;
void sm_ui_set_utf8(int on) { utf8_lines = on; }

/* In a UTF-8 locale draw the box with Unicode line characters, so what
 * the terminal (and a capture of it) holds is plain text. */
void sm_ui_box(WINDOW *w)
{
    if (utf8_lines) box_set(w, WACS_VLINE, WACS_HLINE);
    else box(w, 0, 0);
}

void sm_ui_vline(WINDOW *w, int y, int x, int n, attr_t a)
{
    wattrset(w, a);
    if (utf8_lines) mvwvline_set(w, y, x, WACS_VLINE, n);
    else mvwvline(w, y, x, ACS_VLINE, n);
    wattrset(w, A_NORMAL);
}

attr_t sm_ui_proc_attr(int p)
{
    if (p >= 0 && p < marks.n) return marks.attr[p];
    return style_attr[(p < 0 ? 0 : p) % nstyles];
}

char sm_ui_glyph(int p)
{
    if (p >= 0 && p < marks.n) return marks.glyph[p];
    return sm_mark_glyph(p);
}

void sm_ui_frame(sm_pane *p, const sm_app *app, const char *title)
{
    int focus = app->view->focus == p->id;
    attr_t a = sm_ui_attr(focus ? SM_EL_FRAME_FOCUS : SM_EL_FRAME);
    wattrset(p->win, a);
    sm_ui_box(p->win);
    wattrset(p->win, sm_ui_attr(SM_EL_TITLE));
    char t[256];
    snprintf(t, sizeof t, "%s%s%s", focus ? "[" : " ", title, focus ? "]" : " ");
    sm_ui_text(p->win, 0, 2, p->w - 4, sm_ui_attr(SM_EL_TITLE) | (focus ? A_BOLD : 0), "%s", t);
}

int sm_ui_title_fits(const sm_pane *p, const char *title) { return (int)strlen(title) + 2 <= p->w - 4; }

void sm_ui_frame_forms(sm_pane *p, const sm_app *app, const char *const *forms, int n)
{
    int i = 0;
    while (i < n - 1 && (!forms[i] || !sm_ui_title_fits(p, forms[i]))) i++;
    sm_ui_frame(p, app, forms[i]);
}

void sm_ui_text(WINDOW *w, int y, int x, int width, attr_t a, const char *fmt, ...)
{
    if (width <= 0) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    wattrset(w, a);
    mvwaddnstr(w, y, x, buf, width);
    wattrset(w, A_NORMAL);
}

/* A unit after a number: J, mJ, us, ms, s, W, kJ... or %. */
static int unit_at(const char *p)
{
    if (*p == '%') return 1;
    if (*p && strchr("kMGmunp", *p) && p[1] && strchr("JsW", p[1])) p++;
    if (!*p || !strchr("JsW", *p)) return 0;
    return !((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z') || (p[1] >= '0' && p[1] <= '9'));
}

void sm_ui_words(WINDOW *w, int y, int x, int width, attr_t a, const char *fmt, ...)
{
    if (width <= 0) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    int n = (int)strlen(buf);
    if (n > width) {
        /* At the last space that leaves whole words (trailing spaces
         * dropped), never between a number and its unit ("177.6 us");
         * one word longer than the width is cut as it is. */
        int cut = width;
        for (;;) {
            while (cut > 0 && buf[cut] != ' ') cut--;
            if (cut > 0 && unit_at(buf + cut + 1) && buf[cut - 1] >= '0' && buf[cut - 1] <= '9') {
                cut--;
                continue;
            }
            break;
        }
        while (cut > 0 && buf[cut - 1] == ' ') cut--;
        if (cut > 0 || buf[0] == ' ') buf[cut] = '\0';
    }
    wattrset(w, a);
    mvwaddnstr(w, y, x, buf, width);
    wattrset(w, A_NORMAL);
}

void sm_ui_bar(WINDOW *w, int y, int x, int width, double value, double scale, sm_element el, char ch)
{
    if (width <= 0) return;
    double f = scale > 0 ? width * value / scale : 0;
    int fill = f >= width ? width : f > 0 ? (int)lround(f) : 0;
    if (value > 0 && fill == 0) fill = 1;
    if (fill > width) fill = width;
    wattrset(w, sm_ui_attr(el));
    for (int i = 0; i < fill; i++) mvwaddch(w, y, x + i, (chtype)ch);
    wattrset(w, sm_ui_attr(SM_EL_DIM));
    for (int i = fill; i < width; i++) mvwaddch(w, y, x + i, (chtype)' ');
    wattrset(w, A_NORMAL);
}

void sm_ui_sparkline(WINDOW *w, int y, int x, int width, const double *v, int n, double lo,
                     double hi, sm_element el, int utf8)
{
    static const char *const bars[] = {"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
                                       "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"};
    static const char ascii[] = "_.-:=+*#";
    int first = n > width ? n - width : 0;
    wattrset(w, sm_ui_attr(el));
    for (int i = first; i < n; i++) {
        double t = hi > lo ? (v[i] - lo) / (hi - lo) : 0.5;
        /* Inf/Inf or a NaN value: the top for the largest, else the
         * bottom; never a NaN into the int cast. */
        if (isnan(t)) t = v[i] >= hi ? 1 : 0;
        if (t < 0) t = 0;
        if (t > 1) t = 1;
        int k = (int)(t * 7.999);
        if (k < 0) k = 0;
        if (k > 7) k = 7;
        if (utf8) mvwaddstr(w, y, x + i - first, bars[k]);
        else mvwaddch(w, y, x + i - first, (chtype)ascii[k]);
    }
    wattrset(w, A_NORMAL);
}

/* The one number rule lives in core/lib/units.c (the study plots use it
 * too). */
const char *sm_ui_si(double v, const char *unit, int digits, char *buf, size_t n)
{
    return sm_format_si(v, unit, digits, buf, n);
}

const char *sm_ui_joules(double j, char *buf, size_t n) { return sm_ui_si(j, "J", 4, buf, n); }

/* Times of a minute and more stay in seconds (no "ks"). */
const char *sm_ui_seconds(double s, char *buf, size_t n) { return sm_format_value(s, "s", 4, buf, n); }

/* Statistic names that carry a unit (units.h): energies in J, times in s. */
const char *sm_ui_stat(const char *key, double v, char *buf, size_t n)
{
    const char *unit = sm_unit_of(key);
    if (unit && strcmp(unit, "s") == 0) return sm_ui_seconds(v, buf, n);
    if (unit) return sm_format_si(v, unit, 4, buf, n);
    if (isnan(v)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%.6g", v);
    return buf;
}

/* ---- list panes ---- */

int sm_pane_page(const sm_pane *p)
{
    int rows = p->h - 3; /* border and heading line */
    return rows > 1 ? rows : 1;
}

int sm_pane_step(int cursor, int delta, int n)
{
    if (n <= 0) return -1;
    long long i = delta == SM_ROW_FIRST ? 0 : delta == SM_ROW_LAST ? n - 1 : (long long)cursor + delta;
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return (int)i;
}

int sm_pane_scroll_to(int cur, int n, int visible, int old)
{
    if (n <= visible) return 0;
    if (cur < old) old = cur;
    if (cur >= old + visible) old = cur - visible + 1;
    if (old > n - visible) old = n - visible;
    return old < 0 ? 0 : old;
}
