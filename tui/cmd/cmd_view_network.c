/* cmd_view_network.c - the Network pane's state as commands: which plane of
 * the machine it shows, which link is selected, what the heat scales by.
 * The link's crossing pairs come from core (sm_links_crossing), over the
 * session's mapping, so scripts get what the pane lists. */
#include "cmd_view_network.h"

#include <stdlib.h>
#include <string.h>
#include "core/traffic/link_load_drawing_positions.h"
#include "core/traffic/link_load_counts.h"
#include "core/net/net.h"

static int link_map(sm_app *app, Tcl_Interp *in, sm_link_map *m)
{
    sm_err e;
    if (sm_link_map_init(app->session->topo->net, m, &e))
        return sm_tcl_error(in, "STATE", "view network: %s", e.msg);
    return TCL_OK;
}

/* The selection if it still names a link of this machine (the scenario
 * may have changed since), else none. */
static int valid_link(const sm_view *v, const sm_link_map *m, int *at, int *axis)
{
    if (v->link_from < 0) return 0;
    if (v->link_to == SM_LINK_BOARD) {
        if (!m->haec || v->link_from >= sm_link_map_nodes(m) ||
            sm_link_map_next(m, v->link_from, SM_LINK_THROUGH) < 0)
            return 0;
        *at = v->link_from;
        *axis = SM_LINK_THROUGH;
        return 1;
    }
    *axis = sm_link_map_axis(m, v->link_from, v->link_to, at);
    return *axis >= 0;
}

/* ---- trees: one row of uplinks per level ---- */

static int is_tree(const sm_app *app) { return app->session->topo->net->ops == &sm_net_tree; }

/* A level of the tree is drawn when it has more than one group (a single
 * group's uplink carries nothing). */
static int tree_levels(const sm_app *app)
{
    const sm_net *n = app->session->topo->net;
    int L = 0;
    while (L <= n->ndims && sm_links_tree_groups(n, app->session->topo->nnodes, L) > 1) L++;
    return L;
}

static int tree_valid(const sm_app *app)
{
    const sm_view *v = app->view;
    return v->link_level >= 0 && v->link_level < tree_levels(app) && v->link_from >= 0 &&
           v->link_from < sm_links_tree_groups(app->session->topo->net, app->session->topo->nnodes, v->link_level);
}

static int tree_put(sm_app *app, Tcl_Interp *in, int down, Tcl_Obj *d);

/* {level L index I axis up messages M cells C pairs {...} reverse {...}}. */
static int tree_result(sm_app *app, Tcl_Interp *in)
{
    const sm_view *v = app->view;
    Tcl_Obj *d = Tcl_NewDictObj(), *rev = Tcl_NewDictObj();
    Tcl_IncrRefCount(d);
    Tcl_IncrRefCount(rev);
    int rc = TCL_OK;
    if (tree_valid(app)) {
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("level", -1), Tcl_NewIntObj(v->link_level));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("index", -1), Tcl_NewIntObj(v->link_from));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("axis", -1), Tcl_NewStringObj("up", -1));
        rc = tree_put(app, in, 0, d);
        if (rc == TCL_OK) rc = tree_put(app, in, 1, rev);
        if (rc == TCL_OK) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("reverse", -1), rev);
    }
    if (rc == TCL_OK) Tcl_SetObjResult(in, d);
    Tcl_DecrRefCount(rev);
    Tcl_DecrRefCount(d);
    return rc;
}

static int tree_cursor(sm_app *app, Tcl_Interp *in, int dir)
{
    sm_view *v = app->view;
    const sm_net *n = app->session->topo->net;
    int nn = app->session->topo->nnodes, levels = tree_levels(app);
    if (levels == 0) return sm_tcl_error(in, "STATE", "view link: this tree has one node, no links");
    if (!tree_valid(app)) {
        v->link_level = 0;
        v->link_from = 0;
    } else if (dir < 2) {
        int i = v->link_from + (dir ? 1 : -1), cnt = sm_links_tree_groups(n, nn, v->link_level);
        v->link_from = i < 0 ? 0 : i >= cnt ? cnt - 1 : i;
    } else if (dir == 2 && v->link_level + 1 < levels) {
        /* Up the tree: the group this one belongs to. */
        v->link_from /= n->dims[v->link_level < n->ndims ? v->link_level : n->ndims - 1];
        v->link_level++;
    } else if (dir == 3 && v->link_level > 0) {
        v->link_level--;
        v->link_from *= n->dims[v->link_level < n->ndims ? v->link_level : n->ndims - 1];
    }
    v->link_to = -1;
    sm_view_touch(v);
    return tree_result(app, in);
}

/* Select the drawn link at node `at` along `axis`, forward. */
static void select_drawn(sm_view *v, const sm_link_map *m, int at, int axis)
{
    v->link_from = at;
    v->link_level = -1;
    v->link_to = m->haec && axis == SM_LINK_THROUGH ? SM_LINK_BOARD : sm_link_map_next(m, at, axis);
    int pl, r, c;
    sm_link_map_pos(m, at, &pl, &r, &c);
    v->net_plane = pl;
    sm_view_touch(v);
}

static const char *const axis_names[] = {"column", "row", "through", NULL};

/* One direction of a link into d: messages M cells C pairs {{P Q
 * messages cells} ...}, from n crossing pairs (n < 0: e says why); frees pp. */
static int put_pairs(const sm_app *app, Tcl_Interp *in, int n, sm_link_pair *pp, const sm_err *e, Tcl_Obj *d)
{
    if (n < 0) return sm_tcl_error(in, "MODEL", "%s", e->msg);
    const sm_topo *t = app->session->topo;
    Tcl_Obj *pairs = Tcl_NewListObj(0, NULL);
    long long msgs = 0, cells = 0;
    for (int i = 0; i < n; i++) {
        Tcl_Obj *el[4] = {Tcl_NewStringObj(t->procs[pp[i].src].name, -1),
                          Tcl_NewStringObj(t->procs[pp[i].dst].name, -1),
                          Tcl_NewWideIntObj(pp[i].messages), Tcl_NewWideIntObj(pp[i].cells)};
        Tcl_ListObjAppendElement(NULL, pairs, Tcl_NewListObj(4, el));
        msgs += pp[i].messages;
        cells += pp[i].cells;
    }
    free(pp);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("messages", -1), Tcl_NewWideIntObj(msgs));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("cells", -1), Tcl_NewWideIntObj(cells));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("pairs", -1), pairs);
    return TCL_OK;
}

/* Links are routed per processor pair from the traffic the session's
 * cost state keeps, not per task edge: a million blocks answer in
 * milliseconds (sm_links_*_traffic, the same results). */
static int direction_put(sm_app *app, Tcl_Interp *in, const sm_link_sel *sel, Tcl_Obj *d)
{
    const sm_session *s = app->session;
    sm_link_pair *pp = NULL;
    sm_traffic *tr;
    sm_err e;
    int ntr = sm_cost_traffic(s->cost, 0, &tr);
    int n = sm_links_crossing_traffic(s->topo, tr, ntr, sm_link_sel_match, sel, &pp, &e);
    free(tr);
    return put_pairs(app, in, n, pp, &e, d);
}

static int tree_put(sm_app *app, Tcl_Interp *in, int down, Tcl_Obj *d)
{
    const sm_session *s = app->session;
    sm_link_pair *pp = NULL;
    sm_traffic *tr;
    sm_err e;
    int ntr = sm_cost_traffic(s->cost, 0, &tr);
    int n = sm_links_tree_crossing_traffic(s->topo, tr, ntr, app->view->link_level, app->view->link_from, down,
                                           &pp, &e);
    free(tr);
    return put_pairs(app, in, n, pp, &e, d);
}

/* {from F to T axis A messages M cells C pairs {...} reverse {messages
 * cells pairs}}, or {} with no selection. */
static int link_result(sm_app *app, Tcl_Interp *in, const sm_link_map *m)
{
    const sm_view *v = app->view;
    int at, axis;
    Tcl_Obj *d = Tcl_NewDictObj(), *rev = Tcl_NewDictObj();
    Tcl_IncrRefCount(d);
    Tcl_IncrRefCount(rev);
    int rc = TCL_OK;
    if (valid_link(v, m, &at, &axis)) {
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("from", -1), Tcl_NewIntObj(v->link_from));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("to", -1),
                       v->link_to == SM_LINK_BOARD ? Tcl_NewStringObj("board", -1) : Tcl_NewIntObj(v->link_to));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("axis", -1), Tcl_NewStringObj(axis_names[axis], -1));
        sm_link_sel sel = {v->link_from, v->link_to, m->through, 0};
        rc = direction_put(app, in, &sel, d);
        sel.back = 1;
        if (rc == TCL_OK) rc = direction_put(app, in, &sel, rev);
        if (rc == TCL_OK) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("reverse", -1), rev);
    }
    if (rc == TCL_OK) Tcl_SetObjResult(in, d);
    Tcl_DecrRefCount(rev);
    Tcl_DecrRefCount(d);
    return rc;
}

/* The busiest link under the current scale (messages or cells), the
 * lowest-numbered among equals: congestion's hot spot in one command. */
static int select_busiest(sm_app *app, Tcl_Interp *in)
{
    sm_view *v = app->view;
    const sm_session *s = app->session;
    sm_err e;
    long long best = 0;
    if (is_tree(app)) {
        sm_tree_link *tl;
        sm_traffic *tr;
        int ntr = sm_cost_traffic(s->cost, 0, &tr);
        int n = sm_links_tree_traffic(s->topo, tr, ntr, &tl, &e);
        free(tr);
        if (n < 0) return sm_tcl_error(in, "MODEL", "%s", e.msg);
        for (int i = 0; i < n; i++) {
            long long up = v->net_cells ? tl[i].up_cells : tl[i].up_messages;
            long long dn = v->net_cells ? tl[i].down_cells : tl[i].down_messages;
            long long x = up > dn ? up : dn;
            if (x <= best) continue;
            best = x;
            v->link_level = tl[i].level;
            v->link_from = tl[i].index;
            v->link_to = -1;
        }
        free(tl);
    } else {
        sm_link_load *ll;
        sm_traffic *tr;
        int ntr = sm_cost_traffic(s->cost, 0, &tr);
        int n = sm_links_compute_traffic(s->topo, tr, ntr, &ll, &e);
        free(tr);
        if (n < 0) return sm_tcl_error(in, "STATE", "view link: %s", e.msg);
        sm_link_map m;
        if (link_map(app, in, &m)) {
            free(ll);
            return TCL_ERROR;
        }
        for (int i = 0; i < n; i++) {
            long long x = v->net_cells ? ll[i].cells : ll[i].messages;
            if (x <= best) continue;
            best = x;
            /* A wireless link is shown as its node's links to the next board. */
            int at, axis = sm_link_map_axis(&m, ll[i].from, ll[i].to, &at);
            v->link_from = m.haec && axis == SM_LINK_THROUGH ? at : ll[i].from;
            v->link_to = m.haec && axis == SM_LINK_THROUGH ? SM_LINK_BOARD : ll[i].to;
            v->link_level = -1;
            int pl, r, col;
            sm_link_map_pos(&m, v->link_from, &pl, &r, &col);
            v->net_plane = pl;
        }
        free(ll);
    }
    sm_view_touch(v);
    return TCL_OK;
}

/* view link ?FROM TO | FROM board | none?: select the physical link
 * FROM -> TO (node indices as `model links` gives them). */
int sm_view_link_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    sm_link_map m;
    if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "busiest") == 0) {
        if (select_busiest(app, in)) return TCL_ERROR;
        objc = 2;  /* then report it as a plain query does */
    }
    if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "none") == 0) {
        v->link_from = v->link_to = v->link_level = -1;
        sm_view_touch(v);
        Tcl_SetObjResult(in, Tcl_NewDictObj());
        return TCL_OK;
    }
    if (is_tree(app)) {
        if (objc == 5 && strcmp(Tcl_GetString(objv[2]), "level") == 0) {
            int L, i, levels = tree_levels(app);
            if (Tcl_GetIntFromObj(NULL, objv[3], &L) != TCL_OK || L < 0 || L >= levels)
                return sm_tcl_error(in, "ARGS", "view link level: \"%s\": expected a level in [0, %d) of this tree",
                                    Tcl_GetString(objv[3]), levels);
            int cnt = sm_links_tree_groups(app->session->topo->net, app->session->topo->nnodes, L);
            if (Tcl_GetIntFromObj(NULL, objv[4], &i) != TCL_OK || i < 0 || i >= cnt)
                return sm_tcl_error(in, "ARGS", "view link level %d: group \"%s\": expected an index in [0, %d)",
                                    L, Tcl_GetString(objv[4]), cnt);
            v->link_level = L;
            v->link_from = i;
            v->link_to = -1;
            sm_view_touch(v);
        } else if (objc != 2) {
            return sm_tcl_error(in, "ARGS", "view link: on a tree, expected \"level L INDEX\" (the uplink of "
                                "group INDEX at level L; level 0: a node's)");
        }
        return tree_result(app, in);
    }
    if (link_map(app, in, &m)) return TCL_ERROR;
    if (objc == 5 || objc == 3) {
        Tcl_WrongNumArgs(in, 2, objv, "?FROM TO | FROM board | level L INDEX | busiest | none?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    if (objc == 4) {
        int nodes = sm_link_map_nodes(&m), a, b, at;
        const char *bs = Tcl_GetString(objv[3]);
        if (Tcl_GetIntFromObj(NULL, objv[2], &a) != TCL_OK || a < 0 || a >= nodes)
            return sm_tcl_error(in, "ARGS", "view link: node \"%s\": expected a node index in [0, %d)",
                                Tcl_GetString(objv[2]), nodes);
        if (strcmp(bs, "board") == 0) {
            if (!m.haec || sm_link_map_next(&m, a, SM_LINK_THROUGH) < 0)
                return sm_tcl_error(in, "ARGS", "view link %d board: expected a HAEC node below the last "
                                    "board", a);
            b = SM_LINK_BOARD;
        } else if (Tcl_GetIntFromObj(NULL, objv[3], &b) != TCL_OK || b < 0 || b >= nodes) {
            return sm_tcl_error(in, "ARGS", "view link: node \"%s\": expected a node index in [0, %d)", bs,
                                nodes);
        } else if (sm_link_map_axis(&m, a, b, &at) < 0) {
            return sm_tcl_error(in, "ARGS", "view link %d %d: no physical link joins these nodes "
                                "(expected neighbours on the %s)", a, b, app->session->topo->net->ops->kind);
        }
        v->link_from = a;
        v->link_to = b;
        v->link_level = -1;
        int pl, r, c;
        sm_link_map_pos(&m, a, &pl, &r, &c);
        v->net_plane = pl;
        sm_view_touch(v);
    } else if (objc != 2) {
        Tcl_WrongNumArgs(in, 2, objv, "?FROM TO | FROM board | level L INDEX | busiest | none?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    return link_result(app, in, &m);
}

int sm_view_net_cursor(sm_app *app, Tcl_Interp *in, int dir)
{
    sm_view *v = app->view;
    if (is_tree(app)) return tree_cursor(app, in, dir);
    sm_link_map m;
    if (link_map(app, in, &m)) return TCL_ERROR;
    int at, axis;
    if (!valid_link(v, &m, &at, &axis)) {
        int plane = v->net_plane < m.planes ? v->net_plane : 0;
        select_drawn(v, &m, sm_link_map_node(&m, plane, 0, 0), m.cols > 1 ? SM_LINK_COL : SM_LINK_ROW);
        return link_result(app, in, &m);
    }
    int pl, r, c;
    sm_link_map_pos(&m, at, &pl, &r, &c);
    /* Along the rows and columns the drawing shows (wrapping on a torus);
     * a link that would start past a mesh's edge is not there: stay. */
    if (dir < 2) c = m.wrap ? (c + (dir ? 1 : -1) + m.cols) % m.cols : c + (dir ? 1 : -1);
    else r = m.wrap ? (r + (dir == 3 ? 1 : -1) + m.rows) % m.rows : r + (dir == 3 ? 1 : -1);
    if (c >= 0 && c < m.cols && r >= 0 && r < m.rows) {
        int node = sm_link_map_node(&m, pl, r, c);
        if (sm_link_map_next(&m, node, axis) >= 0) select_drawn(v, &m, node, axis);
    }
    return link_result(app, in, &m);
}

int sm_view_net_plane(sm_app *app, Tcl_Interp *in, Tcl_Obj *arg)
{
    sm_view *v = app->view;
    sm_link_map m;
    if (is_tree(app)) {
        /* A tree is drawn whole: one plane. */
        m.planes = 1;
    } else if (link_map(app, in, &m)) {
        return TCL_ERROR;
    }
    const char *a = Tcl_GetString(arg);
    int k;
    if (strcmp(a, "prev") == 0) k = v->net_plane - 1;
    else if (strcmp(a, "next") == 0) k = v->net_plane + 1;
    else if (Tcl_GetIntFromObj(NULL, arg, &k) != TCL_OK || k < 0 || k >= m.planes)
        return sm_tcl_error(in, "ARGS", "view network -plane: expected prev, next or 0..%d, got \"%s\"",
                            m.planes - 1, a);
    if (k < 0) k = 0;
    if (k >= m.planes) k = m.planes - 1;
    /* The selected link goes along to the same place on the new plane. */
    int at, axis;
    if (!is_tree(app) && valid_link(v, &m, &at, &axis)) {
        int pl, r, c;
        sm_link_map_pos(&m, at, &pl, &r, &c);
        int node = sm_link_map_node(&m, k, r, c);
        if (sm_link_map_next(&m, node, axis) >= 0) select_drawn(v, &m, node, axis);
        else v->link_from = v->link_to = -1;
    }
    v->net_plane = k;
    sm_view_touch(v);
    Tcl_SetObjResult(in, Tcl_NewIntObj(k));
    return TCL_OK;
}

/* view network ?on|off|toggle? ?-plane K|prev|next? ?-scale messages|cells? */
int sm_view_network_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const flags[] = {"on", "off", "toggle", NULL};
    static const char *const opts[] = {"-plane", "-scale", NULL};
    static const char *const scales[] = {"messages", "cells", NULL};
    sm_view *v = app->view;
    int i = 2, k;
    if (objc > 2 && Tcl_GetString(objv[2])[0] != '-') {
        if (Tcl_GetIndexFromObj(in, objv[2], flags, "state", 0, &k) != TCL_OK) goto args;
        int shown = sm_view_pane_shown(v, SM_PANE_NETWORK);
        sm_view_show_alt(v, SM_PANE_NETWORK, k == 0 ? 1 : k == 1 ? 0 : !shown);
        i = 3;
    }
    if ((objc - i) % 2)
        return sm_tcl_error(in, "ARGS", "view network: options come in pairs: ?on|off|toggle? "
                            "?-plane K|prev|next? ?-scale messages|cells?");
    for (; i < objc; i += 2) {
        int o;
        if (Tcl_GetIndexFromObj(in, objv[i], opts, "option", 0, &o) != TCL_OK) goto args;
        if (o == 0) {
            if (sm_view_net_plane(app, in, objv[i + 1])) return TCL_ERROR;
        } else {
            if (Tcl_GetIndexFromObj(in, objv[i + 1], scales, "scale", 0, &k) != TCL_OK) goto args;
            v->net_cells = k;
            sm_view_touch(v);
        }
    }
    sm_link_map m;
    sm_err e;
    int planes = is_tree(app) ? 1 : sm_link_map_init(app->session->topo->net, &m, &e) ? 0 : m.planes;
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("shown", -1), Tcl_NewIntObj(sm_view_pane_shown(v, SM_PANE_NETWORK)));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("plane", -1), Tcl_NewIntObj(v->net_plane));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("planes", -1), Tcl_NewIntObj(planes));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("scale", -1), Tcl_NewStringObj(scales[v->net_cells], -1));
    Tcl_SetObjResult(in, d);
    return TCL_OK;
args:
    Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
    return TCL_ERROR;
}
