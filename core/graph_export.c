/* graph_export.c - vertex weight = cells, edge weight = halo cells; METIS
 * and Scotch want undirected graphs, so both directions are merged. */
#include "graph_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"
#include "util.h"

int sm_graph_format_parse(const char *s, sm_graph_format *out)
{
    if (strcmp(s, "metis") == 0) *out = SM_GFMT_METIS;
    else if (strcmp(s, "scotch") == 0) *out = SM_GFMT_SCOTCH;
    else if (strcmp(s, "graphml") == 0) *out = SM_GFMT_GRAPHML;
    else return -1;
    return 0;
}

/* Weight of the undirected edge u-v: cells both ways. */
static int64_t merged(const sm_grid *g, int u, int v)
{
    int64_t w = 0;
    for (int k = g->inc_off[u]; k < g->inc_off[u + 1]; k++) {
        const sm_edge *e = &g->edges[g->inc[k]];
        if ((e->src == u && e->dst == v) || (e->src == v && e->dst == u)) w += e->cells;
    }
    return w;
}

static void xml_escape(sm_strbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': sm_strbuf_put(b, "&lt;"); break;
        case '>': sm_strbuf_put(b, "&gt;"); break;
        case '&': sm_strbuf_put(b, "&amp;"); break;
        case '"': sm_strbuf_put(b, "&quot;"); break;
        default: sm_strbuf_put(b, "%c", *s);
        }
    }
}

char *sm_graph_export(const sm_grid *g, sm_graph_format f, const int *map,
                      const sm_topo *t, size_t *len)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    int n = g->ntasks, m = g->nbr_off[n] / 2;
    if (f == SM_GFMT_METIS) {
        sm_strbuf_put(&b, "%% stencilmap task graph: vertex weight = cells, edge weight = halo cells\n");
        sm_strbuf_put(&b, "%d %d 011\n", n, m);
        for (int u = 0; u < n; u++) {
            sm_strbuf_put(&b, "%lld", (long long)g->task_cells[u]);
            for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++)
                sm_strbuf_put(&b, " %d %lld", g->nbr[k] + 1, (long long)merged(g, u, g->nbr[k]));
            sm_strbuf_put(&b, "\n");
        }
    } else if (f == SM_GFMT_SCOTCH) {
        sm_strbuf_put(&b, "0\n%d %d\n0 011\n", n, 2 * m);
        for (int u = 0; u < n; u++) {
            sm_strbuf_put(&b, "%lld %d", (long long)g->task_cells[u], g->nbr_off[u + 1] - g->nbr_off[u]);
            for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++)
                sm_strbuf_put(&b, " %lld %d", (long long)merged(g, u, g->nbr[k]), g->nbr[k]);
            sm_strbuf_put(&b, "\n");
        }
    } else {
        sm_strbuf_put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                "  <key id=\"cells\" for=\"node\" attr.name=\"cells\" attr.type=\"long\"/>\n"
                "  <key id=\"ijk\" for=\"node\" attr.name=\"ijk\" attr.type=\"string\"/>\n");
        if (map)
            sm_strbuf_put(&b, "  <key id=\"proc\" for=\"node\" attr.name=\"proc\" attr.type=\"string\"/>\n"
                    "  <key id=\"node\" for=\"node\" attr.name=\"node\" attr.type=\"int\"/>\n");
        sm_strbuf_put(&b, "  <key id=\"halo\" for=\"edge\" attr.name=\"cells\" attr.type=\"long\"/>\n"
                "  <graph id=\"tasks\" edgedefault=\"directed\">\n");
        for (int u = 0; u < n; u++) {
            int c[3];
            sm_grid_coords(g, u, c);
            sm_strbuf_put(&b, "    <node id=\"b%d\"><data key=\"cells\">%lld</data>"
                    "<data key=\"ijk\">%d %d %d</data>",
                u, (long long)g->task_cells[u], c[0], c[1], c[2]);
            if (map) {
                sm_strbuf_put(&b, "<data key=\"proc\">");
                xml_escape(&b, t->procs[map[u]].name);
                sm_strbuf_put(&b, "</data><data key=\"node\">%d</data>", t->procs[map[u]].node);
            }
            sm_strbuf_put(&b, "</node>\n");
        }
        for (int e = 0; e < g->nedges; e++)
            sm_strbuf_put(&b, "    <edge source=\"b%d\" target=\"b%d\"><data key=\"halo\">%lld</data></edge>\n",
                g->edges[e].src, g->edges[e].dst, (long long)g->edges[e].cells);
        sm_strbuf_put(&b, "  </graph>\n</graphml>\n");
    }
    *len = b.n;
    return b.s;
}
