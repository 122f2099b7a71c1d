/* session_edits_undo_redo.c - edits as lists of block moves, so undo and redo replay them
 * through the incremental cost model. */
#include "session_edits_undo_redo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/speed_proportional_quota.h"
#include "core/lib/util.h"

static void free_edit(sm_session *s, sm_edit *ed)
{
    if (ed->nst) s->nstate_edits--;
    free(ed->ch);
    free(ed->st);
}

/* The saved parts an edit changes. */
static unsigned edit_parts(const sm_edit *ed)
{
    return (ed->n ? SM_PART_MAP : 0u) | (ed->nst ? SM_PART_TOPO : 0u);
}

/* Whether an edit in hist[a..b) changes the part. */
static int edits_touch(const sm_session *s, int a, int b, unsigned part)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    for (int e = a; e < b; e++)
        if (edit_parts(&s->hist[e]) & part) return 1;
    return 0;
}

/* "Modified" follows the state, not a flag: a part differs from the disk
 * when it changed outside the history since the save, or when an edit
 * between the saved position and this one changed it (so undoing every
 * edit since the save is unmodified again). */
static void update_dirty(sm_session *s)
{
    unsigned d = s->sticky_parts;
    /* Edits touch only the mapping and (their states) the topology: the
     * other parts need no scan, nor the topology while no edit holds a
     * state change, so a long history costs an edit nothing. */
    unsigned can = SM_PART_MAP | (s->nstate_edits ? SM_PART_TOPO : 0u);
    for (int i = 0; i < 4; i++)
        if ((can & (1u << i)) && !(d & (1u << i)) && edits_touch(s, s->saved_at[i], s->pos, 1u << i))
            d |= 1u << i;
    s->dirty_parts = d;
    s->dirty = d != 0;
}

static void clear_history(sm_session *s)
{
    /* What differed from the disk still does once the history is gone. */
    if (s->hist) {
        update_dirty(s);
        s->sticky_parts = s->dirty_parts;
    }
    for (int i = 0; i < s->nhist; i++) free_edit(s, &s->hist[i]);
    s->nhist = s->pos = 0;
    for (int i = 0; i < 4; i++) s->saved_at[i] = 0;
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
    s->sticky_parts |= parts & SM_PART_ALL;
    update_dirty(s);
}

void sm_session_saved(sm_session *s, unsigned parts)
{
    s->sticky_parts &= ~parts;
    for (int i = 0; i < 4; i++)
        if (parts & (1u << i)) s->saved_at[i] = s->pos;
    update_dirty(s);
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

void sm_session_set_topo_keep_map(sm_session *s, sm_topo *t)
{
    int n = s->grid->ntasks;
    int *map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    memcpy(map, s->cost->map, sizeof(int) * (size_t)n);
    sm_cost_free(s->cost);
    s->cost = NULL;
    sm_topo_free(s->topo);
    s->topo = t;
    rebuild(s, map);
    free(map);
    s->structure++;
    sm_session_mark(s, SM_PART_TOPO);
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

static void push_edit(sm_session *s, sm_change *ch, int n, sm_state_change *st, int nst,
                      const char *label)
{
    /* A saved position in the redo branch goes with it: the parts that
     * branch changed can no longer be undone back to the disk. */
    for (int i = 0; i < 4; i++)
        if (s->saved_at[i] > s->pos) {
            if (edits_touch(s, s->pos, s->saved_at[i], 1u << i)) s->sticky_parts |= 1u << i;
            s->saved_at[i] = s->pos;
        }
    for (int i = s->pos; i < s->nhist; i++) free_edit(s, &s->hist[i]);
    s->nhist = s->pos;
    if (s->nhist == SM_HISTORY_MAX) {
        for (int i = 0; i < 4; i++) {
            if (s->saved_at[i] > 0) s->saved_at[i]--;
            else if (edit_parts(&s->hist[0]) & (1u << i)) s->sticky_parts |= 1u << i;
        }
        free_edit(s, &s->hist[0]);
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
    ed->nst = nst;
    ed->st = st;
    if (nst) s->nstate_edits++;
    s->pos = s->nhist;
    snprintf(s->last_change, sizeof s->last_change, "%s", ed->label);
}

static void push(sm_session *s, sm_change *ch, int n, const char *label)
{
    push_edit(s, ch, n, NULL, 0, label);
}

/* The state a change reads and writes: a processor's own or a type's. */
static int state_now(const sm_session *s, const sm_state_change *c)
{
    return c->kind == SM_STATE_OF_TYPE ? s->topo->types[c->idx].state : s->topo->procs[c->idx].state;
}

/* Set it in the machine, in place, and let the cost model follow each
 * processor it governs (O(log P) each): no rebuild, so the history and
 * everything pointing into the machine stay. */
static void set_state(sm_session *s, const sm_state_change *c, int v)
{
    sm_topo *t = s->topo;
    if (c->kind == SM_STATE_OF_TYPE) {
        t->types[c->idx].state = v;
        for (int p = 0; p < t->nprocs; p++)
            if (t->procs[p].type == c->idx) sm_cost_set_params(s->cost, p, sm_topo_proc_params(t, p));
    } else {
        sm_topo_set_proc_state(t, c->idx, v);
        sm_cost_set_params(s->cost, c->idx, sm_topo_proc_params(t, c->idx));
    }
}

/* A value the machine can hold: a state index, or -1 (for a processor:
 * follow its type; for a type: none), or SM_STATE_BASE for a processor. */
static int state_valid(const sm_session *s, const sm_state_change *c)
{
    const sm_topo *t = s->topo;
    if (c->kind == SM_STATE_OF_TYPE) {
        if (c->idx < 0 || c->idx >= t->ntypes) return 0;
        return c->to >= -1 && c->to < t->types[c->idx].nstates;
    }
    if (c->kind != SM_STATE_OF_PROC || c->idx < 0 || c->idx >= t->nprocs) return 0;
    return c->to == SM_STATE_BASE || (c->to >= -1 && c->to < t->types[t->procs[c->idx].type].nstates);
}

int sm_session_apply_states(sm_session *s, const sm_state_change *st, int nst, const int *map,
                            const char *label)
{
    int n = s->grid->ntasks, k = 0, ks = 0;
    sm_eval before;
    sm_cost_eval(s->cost, &before);
    sm_state_change *sc = sm_xmalloc(sizeof *sc * (size_t)(nst > 0 ? nst : 1));
    for (int i = 0; i < nst; i++) {
        if (!state_valid(s, &st[i])) continue;
        int from = state_now(s, &st[i]);
        if (from == st[i].to) continue;
        sc[ks] = (sm_state_change){st[i].kind, st[i].idx, from, st[i].to};
        set_state(s, &sc[ks], st[i].to);
        ks++;
    }
    if (map)
        for (int u = 0; u < n; u++) k += map[u] != s->cost->map[u];
    sm_change *ch = sm_xmalloc(sizeof(sm_change) * (size_t)(k ? k : 1));
    k = 0;
    if (map)
        for (int u = 0; u < n; u++)
            if (map[u] != s->cost->map[u]) {
                ch[k++] = (sm_change){u, s->cost->map[u], map[u]};
                move_block(s, u, map[u]);
            }
    if (k + ks == 0) {
        free(sc);
        free(ch);
        return 0;
    }
    s->last_eval = before;
    push_edit(s, ch, k, sc, ks, label);
    if (ks) s->structure++;
    s->version++;
    update_dirty(s);
    return k + ks;
}

int sm_session_apply(sm_session *s, const int *map, const char *label)
{
    return sm_session_apply_threads(s, map, label, 1);
}

int sm_session_apply_threads(sm_session *s, const int *map, const char *label, int threads)
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
    sm_cost_remap_threads(s->cost, map, threads);
    push(s, ch, k, label);
    s->version++;
    update_dirty(s);
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
    update_dirty(s);
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
    update_dirty(s);
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
    update_dirty(s);
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
    for (int i = ed->nst - 1; i >= 0; i--) set_state(s, &ed->st[i], ed->st[i].from);
    if (ed->nst) s->structure++;
    s->version++;
    update_dirty(s);
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
    for (int i = 0; i < ed->nst; i++) set_state(s, &ed->st[i], ed->st[i].to);
    for (int i = 0; i < ed->n; i++)
        move_block(s, ed->ch[i].block, ed->ch[i].to);
    if (ed->nst) s->structure++;
    s->version++;
    update_dirty(s);
    return 0;
}

int sm_session_next_states(const sm_session *s, int redo)
{
    if (redo) return s->pos < s->nhist ? s->hist[s->pos].nst : 0;
    return s->pos > 0 ? s->hist[s->pos - 1].nst : 0;
}

const int *sm_session_map(const sm_session *s) { return s->cost->map; }
