/* link_load_drawing_positions.h - a grid-shaped network laid out for drawing: planes of
 * rows x columns of nodes and the physical links between them.
 *
 * Torus and mesh: the last axis runs along a row (columns), the one
 * before it down the columns (rows); the slower axes together number the
 * planes, and the next-slowest is the "through" axis from one plane to
 * the next. HAEC: a board is a plane; through is the wireless hop to the
 * next board (boards form a line). Node index = (plane * rows + row) *
 * cols + col, as the networks number nodes. No curses, no Tcl. */
#ifndef SM_LINK_LOAD_DRAWING_POSITIONS_H
#define SM_LINK_LOAD_DRAWING_POSITIONS_H

#include "link_load_counts.h"
#include "core/net/net.h"

enum { SM_LINK_COL, SM_LINK_ROW, SM_LINK_THROUGH, SM_LINK_AXES };

typedef struct sm_link_map {
    int planes, rows, cols;
    int wrap;               /* torus (HAEC boards): rows and columns wrap */
    int haec;
    int through;            /* nodes one plane further on the through axis; 0: none */
    int through_size;       /* planes along the through axis */
    int through_wrap;       /* a torus wraps the through axis too */
} sm_link_map;

/* -1 with e set for networks without a grid shape (single, tree, matrix). */
int sm_link_map_init(const sm_net *n, sm_link_map *m, sm_err *e);
int sm_link_map_nodes(const sm_link_map *m);
int sm_link_map_node(const sm_link_map *m, int plane, int row, int col);
void sm_link_map_pos(const sm_link_map *m, int node, int *plane, int *row, int *col);
/* The node one step forward from node along an axis (wrapping where the
 * network wraps), or -1: a mesh's last node, or no such axis. On HAEC
 * the through neighbour is the same position on the next board. */
int sm_link_map_next(const sm_link_map *m, int node, int axis);
/* The axis of the physical link between nodes a and b, and the node it
 * is drawn at (*at: the one b is sm_link_map_next of, or on HAEC the one
 * on the lower board); -1 when no single link joins them. */
int sm_link_map_axis(const sm_link_map *m, int a, int b, int *at);

/* A link as the workbench selects it: from -> to (back: to -> from);
 * to = SM_LINK_MAP_BOARD on HAEC: every wireless link between node from
 * and the next board (back: from the next board to node from). */
#define SM_LINK_MAP_BOARD (-2)
typedef struct sm_link_sel { int from, to, per, back; } sm_link_sel;
/* An sm_link_match for sm_links_crossing; ctx is an sm_link_sel. */
int sm_link_sel_match(int from, int to, const void *ctx);

/* Loads by drawn link: index (node * SM_LINK_AXES + axis) * 2 + back,
 * back = 1 for the direction towards the node the link is drawn at (on
 * HAEC through: from the next board; the busiest of the node's wireless
 * links, so no drawn load exceeds the busiest physical link). Caller's
 * array of
 * sm_link_map_nodes(m) * SM_LINK_AXES * 2, zeroed here. */
void sm_link_map_loads(const sm_link_map *m, const sm_link_load *ll, int n, sm_link_load *out);

#endif
