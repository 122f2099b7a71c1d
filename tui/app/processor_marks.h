/* processor_marks.h - how the Grid (and every pane that shows a processor's chip)
 * tells processors apart: a style, one of the palette colours the terminal
 * can show, and a glyph. No curses: the pane layer turns styles into
 * colour pairs.
 *
 * When the palette has a colour for every processor, each processor has
 * its own colour and its index as glyph. Beyond that the colour is the
 * node's and the glyph the processor's place within its node (0, 1, ...),
 * so a machine reads as nodes at a glance and as processors up close;
 * nodes that share a colour (more nodes than colours) shift their glyphs
 * by the node size (the second lap of nodes starts at glyph m, the third
 * at 2m), so no two processors share colour and glyph below palette x 62
 * processors. Past that, the Grid's legend line names the processor under
 * the cursor and `view node` singles out one node. */
#ifndef SM_PROCESSOR_MARKS_H
#define SM_PROCESSOR_MARKS_H

#include "core/model/topology.h"

/* The 62 glyphs, 0-9 A-Z a-z. */
char sm_mark_glyph(int i);

/* Fills style[p] (0..nstyles-1) and glyph[p] for every processor of t;
 * returns 1 when styles follow nodes, 0 when each processor has its own. */
int sm_proc_marks(const sm_topo *t, int nstyles, int *style, char *glyph);

/* Processors of node n in t (their indices into out, in list order);
 * returns the count. out holds t->nprocs. */
int sm_node_procs(const sm_topo *t, int node, int *out);

#endif
