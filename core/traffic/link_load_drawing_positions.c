/* link_load_drawing_positions.c - planes, rows and columns of a grid-shaped network (see
 * link_load_drawing_positions.h). */
#include "link_load_drawing_positions.h"

#include <string.h>

int sm_link_map_init(const sm_net *n, sm_link_map *m, sm_err *e)
{
    *m = (sm_link_map){1, 1, 1, 0, 0, 0, 0, 0};
    if (n->ops == &sm_net_haec) {
        m->planes = n->dims[0];
        m->rows = n->dims[1];
        m->cols = n->dims[2];
        m->wrap = 1;
        m->haec = 1;
    } else if (n->ops == &sm_net_torus || n->ops == &sm_net_mesh) {
        int nd = n->ndims;
        m->wrap = n->ops == &sm_net_torus;
        m->cols = n->dims[nd - 1];
        if (nd >= 2) m->rows = n->dims[nd - 2];
        for (int d = 0; d + 2 < nd; d++) m->planes *= n->dims[d];
        if (nd >= 3) m->through_size = n->dims[nd - 3];
        m->through_wrap = m->wrap;
    } else {
        sm_err_set(e, "%s networks have no grid of links to draw (expected torus, mesh or haec)",
                   n->ops->kind);
        return -1;
    }
    if (m->haec) m->through_size = m->planes;
    if (m->through_size > 1) m->through = m->rows * m->cols;
    else m->through_size = 0;
    return 0;
}

int sm_link_map_nodes(const sm_link_map *m) { return m->planes * m->rows * m->cols; }

int sm_link_map_node(const sm_link_map *m, int plane, int row, int col)
{
    return (plane * m->rows + row) * m->cols + col;
}

void sm_link_map_pos(const sm_link_map *m, int node, int *plane, int *row, int *col)
{
    *col = node % m->cols;
    *row = node / m->cols % m->rows;
    *plane = node / (m->cols * m->rows);
}

/* One step along a ring of size n: -1 off the end of a line. */
static int step(int i, int n, int wrap)
{
    if (n < 2) return -1;
    if (i + 1 < n) return i + 1;
    return wrap && n > 2 ? 0 : -1;
}

int sm_link_map_next(const sm_link_map *m, int node, int axis)
{
    int pl, r, c;
    if (node < 0 || node >= sm_link_map_nodes(m)) return -1;
    sm_link_map_pos(m, node, &pl, &r, &c);
    if (axis == SM_LINK_COL) {
        int c2 = step(c, m->cols, m->wrap);
        return c2 < 0 ? -1 : sm_link_map_node(m, pl, r, c2);
    }
    if (axis == SM_LINK_ROW) {
        int r2 = step(r, m->rows, m->wrap);
        return r2 < 0 ? -1 : sm_link_map_node(m, pl, r2, c);
    }
    if (axis != SM_LINK_THROUGH || !m->through) return -1;
    /* The through axis is the fastest of the plane index's axes. */
    int t = pl % m->through_size, t2 = step(t, m->through_size, m->through_wrap);
    return t2 < 0 ? -1 : node + (t2 - t) * m->through;
}

int sm_link_map_axis(const sm_link_map *m, int a, int b, int *at)
{
    int n = sm_link_map_nodes(m);
    if (a < 0 || b < 0 || a >= n || b >= n || a == b) return -1;
    if (m->haec) {
        int pa = a / m->through, pb = b / m->through;
        if (pa - pb == 1 || pb - pa == 1) {
            *at = pa < pb ? a : b;
            return SM_LINK_THROUGH;
        }
        if (pa != pb) return -1;
    }
    for (int axis = 0; axis < SM_LINK_AXES; axis++) {
        if (m->haec && axis == SM_LINK_THROUGH) break;
        if (sm_link_map_next(m, a, axis) == b) { *at = a; return axis; }
        if (sm_link_map_next(m, b, axis) == a) { *at = b; return axis; }
    }
    return -1;
}

int sm_link_sel_match(int from, int to, const void *ctx)
{
    const sm_link_sel *s = ctx;
    if (s->back) {
        int t = from;
        from = to;
        to = t;
    }
    if (s->to != SM_LINK_MAP_BOARD) return from == s->from && to == s->to;
    return from == s->from && s->per > 0 && to / s->per == s->from / s->per + 1;
}

void sm_link_map_loads(const sm_link_map *m, const sm_link_load *ll, int n, sm_link_load *out)
{
    size_t len = (size_t)sm_link_map_nodes(m) * SM_LINK_AXES * 2;
    memset(out, 0, sizeof *out * len);
    for (int i = 0; i < n; i++) {
        int at, axis = sm_link_map_axis(m, ll[i].from, ll[i].to, &at);
        if (axis < 0) continue;
        sm_link_load *o = &out[((size_t)at * SM_LINK_AXES + (size_t)axis) * 2 + (ll[i].from != at)];
        o->from = at;
        o->to = axis;
        /* Several physical links drawn as one (a HAEC node's wireless
         * links to the next board): the busiest of them, so the heat map
         * and its maximum are per physical link, as congestion is. */
        if (ll[i].messages > o->messages) o->messages = ll[i].messages;
        if (ll[i].cells > o->cells) o->cells = ll[i].cells;
    }
}
