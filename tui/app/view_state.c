/* view_state.c - the workbench's view state (see view_state.h). */
#include "view_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/study/study_table.h"

const char *const sm_pane_names[SM_PANE_COUNT] = {
#define X(id, name, title, slot, width) #name,
    SM_PANES(X)
#undef X
};
const char *const sm_pane_titles[SM_PANE_COUNT] = {
#define X(id, name, title, slot, width) title,
    SM_PANES(X)
#undef X
};
const sm_pane_slot sm_pane_slots[SM_PANE_COUNT] = {
#define X(id, name, title, slot, width) slot,
    SM_PANES(X)
#undef X
};
const char *const sm_sort_names[SM_SORT_COUNT] = {
#define X(n) #n,
    SM_PROC_SORTS(X)
#undef X
};

sm_view *sm_view_new(void)
{
    sm_view *v = sm_xcalloc(1, sizeof *v);
    v->proc = -1;
    v->node = -1;
    v->pair_p = v->pair_q = -1;
    v->link_from = v->link_to = v->link_level = -1;
    v->stepn = 10;
    v->version = 1;
    sm_theme_builtin(&v->theme);
    v->theme_version = 1;
    return v;
}

void sm_view_free(sm_view *v)
{
    if (!v) return;
    free(v->sel);
    free(v->sel_list);
    for (int i = 0; i < v->nhistory; i++) free(v->history[i]);
    for (int i = 0; i < v->nbinds; i++) free(v->binds[i].script);
    free(v->binds);
    sm_study_table_free(v->study);
    free(v);
}

void sm_view_touch(sm_view *v) { v->version++; }

void sm_view_resize(sm_view *v, const int dims[3], int nprocs)
{
    int n = dims[0] * dims[1] * dims[2];
    if (n != v->ntasks || memcmp(dims, v->dims, sizeof v->dims) != 0) {
        free(v->sel);
        v->sel = sm_xcalloc((size_t)n, 1);
        v->nsel = 0;
        free(v->sel_list);
        v->sel_list = NULL;
        v->sel_cap = 0;
        v->ntasks = n;
        memcpy(v->dims, dims, sizeof v->dims);
        for (int a = 0; a < 3; a++)
            if (v->cur[a] >= dims[a]) v->cur[a] = dims[a] - 1;
    }
    if (v->proc >= nprocs) v->proc = -1;
    if (v->node >= nprocs) v->node = -1;
    if (v->pair_p >= nprocs || v->pair_q >= nprocs) v->pair_p = v->pair_q = -1;
    v->comm_row = 0;
    sm_view_touch(v);
}

int sm_view_cursor_block(const sm_view *v)
{
    return v->cur[0] + v->dims[0] * (v->cur[1] + v->dims[1] * v->cur[2]);
}

void sm_view_set_cursor(sm_view *v, int i, int j, int k)
{
    int c[3] = {i, j, k};
    for (int a = 0; a < 3; a++) {
        if (c[a] < 0) c[a] = 0;
        if (c[a] >= v->dims[a]) c[a] = v->dims[a] - 1;
    }
    memcpy(v->cur, c, sizeof c);
    sm_view_touch(v);
}

void sm_view_select(sm_view *v, int block, int on)
{
    if (block < 0 || block >= v->ntasks || !!v->sel[block] == !!on) return;
    v->sel[block] = (unsigned char)!!on;
    if (on) {
        if (v->nsel == v->sel_cap) {
            v->sel_cap = v->sel_cap ? 2 * v->sel_cap : 64;
            v->sel_list = sm_xrealloc(v->sel_list, sizeof(int) * (size_t)v->sel_cap);
        }
        v->sel_list[v->nsel++] = block;
    } else {
        /* From the end: what was selected last is unselected first. */
        int i = v->nsel - 1;
        while (v->sel_list[i] != block) i--;
        v->sel_list[i] = v->sel_list[--v->nsel];
    }
    sm_view_touch(v);
}

void sm_view_select_clear(sm_view *v)
{
    if (v->nsel > v->ntasks / 16) {
        if (v->ntasks) memset(v->sel, 0, (size_t)v->ntasks);
    } else {
        for (int i = 0; i < v->nsel; i++) v->sel[v->sel_list[i]] = 0;
    }
    v->nsel = 0;
    sm_view_touch(v);
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int *sm_view_selection(const sm_view *v, int *n)
{
    int *out = sm_xmalloc(sizeof(int) * (size_t)(v->nsel + 1));
    if (v->nsel > v->ntasks / 16) { /* a big one: the bitmap is in order already */
        int k = 0;
        for (int b = 0; b < v->ntasks && k < v->nsel; b++)
            if (v->sel[b]) out[k++] = b;
    } else if (v->nsel) {
        memcpy(out, v->sel_list, sizeof(int) * (size_t)v->nsel);
        qsort(out, (size_t)v->nsel, sizeof *out, int_cmp);
    }
    *n = v->nsel;
    return out;
}

int *sm_view_targets(const sm_view *v, int *n)
{
    int *out = sm_view_selection(v, n);
    if (*n == 0 && v->ntasks) out[(*n)++] = sm_view_cursor_block(v);
    return out;
}

void sm_view_log(sm_view *v, sm_log_kind kind, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* One log line per text line (long ones in pieces), so multi-line
     * results stay readable. */
    char *line = buf;
    while (line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        size_t len = strlen(line);
        int cont = 0;
        do {
            size_t piece = len < SM_LOG_LINE - 1 ? len : SM_LOG_LINE - 1;
            int slot = (v->log_head + v->log_n) % SM_LOG_MAX;
            if (v->log_n == SM_LOG_MAX) v->log_head = (v->log_head + 1) % SM_LOG_MAX;
            else v->log_n++;
            v->log[slot].kind = kind;
            v->log[slot].cont = cont;
            cont = 1;
            memcpy(v->log[slot].text, line, piece);
            v->log[slot].text[piece] = '\0';
            line += piece;
            len -= piece;
        } while (len);
        line = nl && nl[1] ? nl + 1 : NULL;
    }
    v->log_version++;
}

const sm_log_line *sm_view_log_line(const sm_view *v, int i)
{
    if (i < 0 || i >= v->log_n) return NULL;
    return &v->log[(v->log_head + v->log_n - 1 - i) % SM_LOG_MAX];
}

void sm_view_spark_reset(sm_view *v)
{
    v->spark_n = 0;
    v->spark_version++;
}

/* Keeps the newest SM_SPARK_MAX samples. */
void sm_view_spark_add(sm_view *v, double cur, double best)
{
    if (v->spark_n == SM_SPARK_MAX) {
        memmove(v->spark_cur, v->spark_cur + 1, sizeof(double) * (SM_SPARK_MAX - 1));
        memmove(v->spark_best, v->spark_best + 1, sizeof(double) * (SM_SPARK_MAX - 1));
        v->spark_n--;
    }
    v->spark_cur[v->spark_n] = cur;
    v->spark_best[v->spark_n] = best;
    v->spark_n++;
    v->spark_version++;
}

void sm_view_history_add(sm_view *v, const char *line)
{
    if (!*line) return;
    if (v->nhistory && strcmp(v->history[v->nhistory - 1], line) == 0) return;
    if (v->nhistory == SM_HISTORY_LINES) {
        free(v->history[0]);
        memmove(v->history, v->history + 1, sizeof(char *) * (SM_HISTORY_LINES - 1));
        v->nhistory--;
    }
    v->history[v->nhistory++] = sm_xstrdup(line);
}

void sm_view_bind(sm_view *v, const char *key, const char *script, int safe)
{
    for (int i = 0; i < v->nbinds; i++) {
        if (strcmp(v->binds[i].key, key) != 0) continue;
        free(v->binds[i].script);
        if (script && *script) {
            v->binds[i].script = sm_xstrdup(script);
            v->binds[i].safe = safe;
        } else {
            v->binds[i] = v->binds[--v->nbinds];
        }
        return;
    }
    if (!script || !*script) return;
    v->binds = sm_xrealloc(v->binds, sizeof *v->binds * (size_t)(v->nbinds + 1));
    snprintf(v->binds[v->nbinds].key, sizeof v->binds[v->nbinds].key, "%s", key);
    v->binds[v->nbinds].script = sm_xstrdup(script);
    v->binds[v->nbinds].safe = safe;
    v->nbinds++;
}

const char *sm_view_binding(const sm_view *v, const char *key, int *safe)
{
    for (int i = 0; i < v->nbinds; i++)
        if (strcmp(v->binds[i].key, key) == 0) {
            if (safe) *safe = v->binds[i].safe;
            return v->binds[i].script;
        }
    return NULL;
}

int sm_view_pane_index(const char *name)
{
    for (int i = 0; i < SM_PANE_COUNT; i++)
        if (strcmp(sm_pane_names[i], name) == 0) return i;
    return -1;
}

int sm_view_pane_shown(const sm_view *v, int pane)
{
    if (pane < 0 || pane >= SM_PANE_COUNT) return 0;
    if (sm_pane_slots[pane] == SM_SLOT_ALT) return (v->alt_shown >> pane) & 1;
    /* A host is hidden while the ALT pane after it is shown. */
    return !(pane + 1 < SM_PANE_COUNT && sm_pane_slots[pane + 1] == SM_SLOT_ALT &&
             ((v->alt_shown >> (pane + 1)) & 1));
}

void sm_view_show_alt(sm_view *v, int pane, int on)
{
    if (pane <= 0 || pane >= SM_PANE_COUNT || sm_pane_slots[pane] != SM_SLOT_ALT) return;
    if (on) v->alt_shown |= 1u << pane;
    else v->alt_shown &= ~(1u << pane);
    /* The pane shown has the focus: keys go where the eye is. */
    if (on) v->focus = pane;
    else if (v->focus == pane) v->focus = pane - 1;
    sm_view_touch(v);
}

int sm_view_pane_step(const sm_view *v, int from, int dir)
{
    int f = from;
    for (int i = 0; i < SM_PANE_COUNT; i++) {
        f = (f + dir + SM_PANE_COUNT) % SM_PANE_COUNT;
        if (sm_view_pane_shown(v, f)) return f;
    }
    return from;
}

void sm_view_set_study(sm_view *v, struct sm_study_table *t)
{
    if (v->study != t) sm_study_table_free(v->study);
    v->study = t;
    if (!t) v->study_source[0] = '\0';
    /* Loading shows the Study pane in the Solver pane's place (and
     * focuses it); unloading gives the place back. */
    sm_view_show_alt(v, SM_PANE_STUDY, t != NULL);
}
