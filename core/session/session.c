/* session.c - edits as lists of block moves, so undo and redo replay them
 * through the incremental cost model. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/fill.h"
#include "core/lib/util.h"

static void clear_history(sm_session *s)
{
    for (int i = 0; i < s->nhist; i++) free(s->hist[i].ch);
    s->nhist = s->pos = 0;
}

/* Whoever reads the log from before this point compares everything. */
static void touch_reset(sm_session *s)
{
    s->touched_base += (unsigned long long)s->ntouched + 1;
    s->ntouched = 0;
}

static void touch(sm_session *s, int block)
{
    if (s->ntouched == s->touched_cap) {
        int limit = s->grid->ntasks / 8 > 4096 ? s->grid->ntasks / 8 : 4096;
        if (s->touched_cap >= limit) {
            touch_reset(s);
        } else {
            s->touched_cap = s->touched_cap ? 2 * s->touched_cap : 256;
            if (s->touched_cap > limit) s->touched_cap = limit;
            s->touched = sm_xrealloc(s->touched, sizeof(int) * (size_t)s->touched_cap);
        }
    }
    s->touched[s->ntouched++] = block;
}

/* Every mapping change goes through here. */
static void move_block(sm_session *s, int block, int proc)
{
    sm_cost_move(s->cost, block, proc);
    touch(s, block);
}

unsigned long long sm_session_touch_mark(const sm_session *s)
{
    return s->touched_base + (unsigned long long)s->ntouched;
}

const int *sm_session_touched_since(const sm_session *s, unsigned long long mark, int *n)
{
    if (mark < s->touched_base || mark > sm_session_touch_mark(s)) return NULL;
    *n = (int)(sm_session_touch_mark(s) - mark);
    return s->touched + (mark - s->touched_base);
}

static void rebuild(sm_session *s, const int *map)
{
    int n = s->grid->ntasks;
    int *m = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    if (map) memcpy(m, map, sizeof(int) * (size_t)n);
    else sm_fill(s->grid, s->topo, SM_SPEEDS_EXACT, SM_ORDER_IJK, 0, m);
    sm_cost_free(s->cost);
    s->cost = sm_cost_new(s->grid, s->topo, &s->model, m);
    free(m);
    clear_history(s);
    touch_reset(s);
    s->version++;
    s->rebuilt++;
    sm_cost_eval(s->cost, &s->last_eval);
    s->last_change[0] = '\0';
}

sm_session *sm_session_new(sm_grid *g, sm_topo *t, const sm_model *m,
                           const int *map)
{
    sm_session *s = sm_xcalloc(1, sizeof *s);
    s->grid = g;
    s->topo = t;
    s->model = *m;
    rebuild(s, map);
    return s;
}

void sm_session_mark(sm_session *s, unsigned parts)
{
    s->dirty_parts |= parts;
    s->dirty = s->dirty_parts != 0;
}

void sm_session_saved(sm_session *s, unsigned parts)
{
    s->dirty_parts &= ~parts;
    s->dirty = s->dirty_parts != 0;
}

void sm_session_free(sm_session *s)
{
    if (!s) return;
    clear_history(s);
    free(s->hist);
    free(s->touched);
    sm_cost_free(s->cost);
    sm_grid_free(s->grid);
    sm_topo_free(s->topo);
    free(s);
}

void sm_session_replace(sm_session *s, sm_scenario *sc)
{
    sm_cost_free(s->cost);
    s->cost = NULL;
    sm_grid_free(s->grid);
    sm_topo_free(s->topo);
    s->grid = sc->grid;
    s->topo = sc->topo;
    s->model = sc->model;
    rebuild(s, sc->map);
    free(sc->map);
    memset(sc, 0, sizeof *sc);
    s->structure++;
    sm_session_saved(s, SM_PART_ALL);
}

void sm_session_set_grid(sm_session *s, sm_grid *g)
{
    sm_cost_free(s->cost);
    s->cost = NULL;
    sm_grid_free(s->grid);
    s->grid = g;
    rebuild(s, NULL);
    s->structure++;
    sm_session_mark(s, SM_PART_GRID | SM_PART_MAP);
}

void sm_session_set_topo(sm_session *s, sm_topo *t)
{
    sm_cost_free(s->cost);
    s->cost = NULL;
    sm_topo_free(s->topo);
    s->topo = t;
    rebuild(s, NULL);
    s->structure++;
    sm_session_mark(s, SM_PART_TOPO | SM_PART_MAP);
}

void sm_session_set_model(sm_session *s, const sm_model *m)
{
    sm_cost_eval(s->cost, &s->last_eval);
    snprintf(s->last_change, sizeof s->last_change, "model configure");
    s->model = *m;
    sm_cost_set_model(s->cost, m);
    s->version++;
    s->structure++;
    sm_session_mark(s, SM_PART_MODEL);
}

static void push(sm_session *s, sm_change *ch, int n, const char *label)
{
    for (int i = s->pos; i < s->nhist; i++) free(s->hist[i].ch);
    s->nhist = s->pos;
    if (s->nhist == SM_HISTORY_MAX) {
        free(s->hist[0].ch);
        memmove(s->hist, s->hist + 1, sizeof(sm_edit) * (size_t)(s->nhist - 1));
        s->nhist--;
    }
    if (s->nhist == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 32;
        s->hist = sm_xrealloc(s->hist, sizeof(sm_edit) * (size_t)s->cap);
    }
    sm_edit *ed = &s->hist[s->nhist++];
    snprintf(ed->label, sizeof ed->label, "%s", label ? label : "edit");
    ed->n = n;
    ed->ch = ch;
    s->pos = s->nhist;
    snprintf(s->last_change, sizeof s->last_change, "%s", ed->label);
}

int sm_session_apply(sm_session *s, const int *map, const char *label)
{
    int n = s->grid->ntasks, k = 0;
    for (int u = 0; u < n; u++) k += map[u] != s->cost->map[u];
    if (k == 0) return 0;
    sm_cost_eval(s->cost, &s->last_eval);
    sm_change *ch = sm_xmalloc(sizeof(sm_change) * (size_t)k);
    k = 0;
    for (int u = 0; u < n; u++)
        if (map[u] != s->cost->map[u]) {
            ch[k++] = (sm_change){u, s->cost->map[u], map[u]};
            touch(s, u);
        }
    /* Every mapping change goes through move_block but this one: a whole
     * mapping is reached by sm_cost_remap (a rebuild when most blocks
     * move), its blocks logged above. */
    sm_cost_remap(s->cost, map);
    push(s, ch, k, label);
    s->version++;
    sm_session_mark(s, SM_PART_MAP);
    return k;
}

int sm_session_move(sm_session *s, int block, int proc, const char *label)
{
    if (s->cost->map[block] == proc) return 0;
    sm_cost_eval(s->cost, &s->last_eval);
    sm_change *ch = sm_xmalloc(sizeof(sm_change));
    ch[0] = (sm_change){block, s->cost->map[block], proc};
    move_block(s, block, proc);
    push(s, ch, 1, label);
    s->version++;
    sm_session_mark(s, SM_PART_MAP);
    return 1;
}

int sm_session_move_blocks(sm_session *s, const int *blocks, int n, int proc, const char *label)
{
    int k = 0;
    for (int i = 0; i < n; i++) k += s->cost->map[blocks[i]] != proc;
    if (k == 0) return 0;
    sm_cost_eval(s->cost, &s->last_eval);
    sm_change *ch = sm_xmalloc(sizeof(sm_change) * (size_t)k);
    k = 0;
    /* A repeated block is at proc by its second time: one change each. */
    for (int i = 0; i < n; i++)
        if (s->cost->map[blocks[i]] != proc) {
            ch[k++] = (sm_change){blocks[i], s->cost->map[blocks[i]], proc};
            move_block(s, blocks[i], proc);
        }
    push(s, ch, k, label);
    s->version++;
    sm_session_mark(s, SM_PART_MAP);
    return k;
}

int sm_session_swap(sm_session *s, int b1, int b2, const char *label)
{
    int p1 = s->cost->map[b1], p2 = s->cost->map[b2];
    if (p1 == p2) return 0;
    sm_cost_eval(s->cost, &s->last_eval);
    sm_change *ch = sm_xmalloc(sizeof(sm_change) * 2);
    ch[0] = (sm_change){b1, p1, p2};
    ch[1] = (sm_change){b2, p2, p1};
    sm_cost_swap(s->cost, b1, b2);
    touch(s, b1);
    touch(s, b2);
    push(s, ch, 2, label);
    s->version++;
    sm_session_mark(s, SM_PART_MAP);
    return 2;
}

int sm_session_undo(sm_session *s)
{
    if (s->pos == 0) return -1;
    sm_cost_eval(s->cost, &s->last_eval);
    sm_edit *ed = &s->hist[--s->pos];
    snprintf(s->last_change, sizeof s->last_change, "undo %s", ed->label);
    for (int i = ed->n - 1; i >= 0; i--)
        move_block(s, ed->ch[i].block, ed->ch[i].from);
    s->version++;
    sm_session_mark(s, SM_PART_MAP);
    return 0;
}

int sm_session_undo_point(const sm_session *s, int back, int *map)
{
    if (back < 1 || back > s->pos) return -1;
    memcpy(map, s->cost->map, sizeof(int) * (size_t)s->grid->ntasks);
    for (int e = s->pos - 1; e >= s->pos - back; e--)
        for (int i = s->hist[e].n - 1; i >= 0; i--) map[s->hist[e].ch[i].block] = s->hist[e].ch[i].from;
    return 0;
}

int sm_session_redo(sm_session *s)
{
    if (s->pos == s->nhist) return -1;
    sm_cost_eval(s->cost, &s->last_eval);
    sm_edit *ed = &s->hist[s->pos++];
    snprintf(s->last_change, sizeof s->last_change, "redo %s", ed->label);
    for (int i = 0; i < ed->n; i++)
        move_block(s, ed->ch[i].block, ed->ch[i].to);
    s->version++;
    sm_session_mark(s, SM_PART_MAP);
    return 0;
}

const int *sm_session_map(const sm_session *s) { return s->cost->map; }
