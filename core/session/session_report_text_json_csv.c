/* session_report_text_json_csv.c - what `report` writes: totals, then one row per processor. */
#include "session_report_text_json_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/result_keys.h"
#include "core/io/grid_file.h"
#include "core/lib/jsonutil.h"
#include "core/io/scenario_file_load_save_and_its_errors.h"
#include "core/lib/strbuf.h"

int sm_report_format_parse(const char *s, sm_report_format *out)
{
    if (strcmp(s, "text") == 0) *out = SM_REPORT_TEXT;
    else if (strcmp(s, "json") == 0) *out = SM_REPORT_JSON;
    else if (strcmp(s, "csv") == 0) *out = SM_REPORT_CSV;
    else return -1;
    return 0;
}

static char *json_report(const sm_session *s, const sm_eval *ev)
{
    const sm_cost *c = s->cost;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "stencilmap/report");
    cJSON_AddNumberToObject(j, "version", 1);
    cJSON_AddItemToObject(j, "grid", sm_grid_spec_to_json(&s->grid->spec, 0));
    cJSON_AddItemToObject(j, "model", sm_model_to_json(&s->model));
    cJSON *e = cJSON_AddObjectToObject(j, "eval");
#define X(k, kind, expr) cJSON_AddNumberToObject(e, #k, (double)(expr));
    SM_EVAL_FIELDS(X)
#undef X
    cJSON *procs = cJSON_AddArrayToObject(j, "procs");
    for (int p = 0; p < c->nprocs; p++) {
        sm_proc_eval pev, *pe = &pev;
        sm_cost_proc(c, ev, p, pe);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", s->topo->procs[p].name);
        cJSON_AddStringToObject(o, "type", s->topo->types[s->topo->procs[p].type].name);
        cJSON_AddNumberToObject(o, "node", s->topo->procs[p].node);
#define X(k, kind, expr) cJSON_AddNumberToObject(o, #k, (double)(expr));
        SM_PROC_FIELDS(X)
#undef X
        cJSON_AddItemToArray(procs, o);
    }
    char *out = sm_json_print(j);
    cJSON_Delete(j);
    return out;
}

/* One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF,
 * with quotes doubled, so a name never shifts the columns. */
static void csv_field(sm_strbuf *b, const char *v)
{
    if (!strpbrk(v, ",\"\r\n")) {
        sm_strbuf_put(b, "%s", v);
        return;
    }
    sm_strbuf_put(b, "\"");
    for (const char *c = v; *c; c++) {
        if (*c == '"') sm_strbuf_put(b, "\"");
        sm_strbuf_put(b, "%c", *c);
    }
    sm_strbuf_put(b, "\"");
}

static void csv_report(sm_strbuf *b, const sm_session *s, const sm_eval *ev)
{
    const sm_cost *c = s->cost;
    sm_strbuf_put(b, "name,type,node");
#define X(k, kind, expr) sm_strbuf_put(b, "," #k);
    SM_PROC_FIELDS(X)
#undef X
    sm_strbuf_put(b, "\n");
    for (int p = 0; p < c->nprocs; p++) {
        sm_proc_eval pev, *pe = &pev;
        sm_cost_proc(c, ev, p, pe);
        csv_field(b, s->topo->procs[p].name);
        sm_strbuf_put(b, ",");
        csv_field(b, s->topo->types[s->topo->procs[p].type].name);
        sm_strbuf_put(b, ",%d", s->topo->procs[p].node);
#define X(k, kind, expr) sm_strbuf_put(b, ",%.10g", (double)(expr));
        SM_PROC_FIELDS(X)
#undef X
        sm_strbuf_put(b, "\n");
    }
    int64_t cells = 0;
    for (int u = 0; u < s->grid->ntasks; u++) cells += s->grid->task_cells[u];
    /* Totals under the same columns; time_per_cell and idle_time stay empty. */
    sm_strbuf_put(b, "TOTAL,,,,%d,%lld,%.10g,,%.10g,%.10g,%.10g,%.10g,%.10g\n",
        s->grid->ntasks, (long long)cells, ev->comp_time, ev->energy,
        ev->energy_dynamic, ev->energy_static, ev->energy_idle, ev->energy_comm);
}

static void text_report(sm_strbuf *b, const sm_session *s, const sm_eval *ev)
{
    const sm_grid_spec *g = &s->grid->spec;
    sm_strbuf_put(b, "grid      %d x %d x %d blocks (%d), %s, halo %d, periodic %d%d%d\n",
        g->blocks[0], g->blocks[1], g->blocks[2], s->grid->ntasks,
        sm_stencil_name(g->stencil), g->halo, g->periodic[0], g->periodic[1],
        g->periodic[2]);
    sm_strbuf_put(b, "machine   %d processors on %d nodes, %s network\n", s->topo->nprocs,
        s->topo->nnodes, s->topo->net->ops->kind);
    sm_strbuf_put(b, "model     rounds %s, overlap %d, round_time %g s, deadline ",
        sm_rounds_name(s->model.rounds), s->model.overlap, s->model.round_time);
    if (s->model.has_deadline) sm_strbuf_put(b, "%g s\n", s->model.deadline);
    else sm_strbuf_put(b, "none\n");
    sm_strbuf_put(b, "time      %.6e s (compute %.6e s, communication %.6e s)%s\n", ev->time,
        ev->comp_time, ev->comm_time, ev->feasible ? "" : "  INFEASIBLE");
    sm_strbuf_put(b, "energy    %.6f J = dynamic %.6f + static %.6f + idle %.6f + comm "
           "%.6f (intra %.6f, inter %.6f)\n",
        ev->energy, ev->energy_dynamic, ev->energy_static, ev->energy_idle,
        ev->energy_comm, ev->energy_comm_intra, ev->energy_comm_inter);
    sm_strbuf_put(b, "comm      %lld messages, %lld edges (%lld intra, %lld inter), %lld "
           "rounds, %lld message rounds\n",
        (long long)ev->messages, (long long)ev->edges, (long long)ev->edges_intra,
        (long long)ev->edges_inter, (long long)ev->rounds,
        (long long)ev->message_rounds);
    sm_strbuf_put(b, "\n%-12s %-8s %5s %7s %12s %12s %12s %12s\n", "processor", "type",
        "node", "blocks", "cells", "comp (s)", "idle (s)", "energy (J)");
    for (int p = 0; p < s->topo->nprocs; p++) {
        sm_proc_eval pe;
        sm_cost_proc(s->cost, ev, p, &pe);
        sm_strbuf_put(b, "%-12s %-8s %5d %7lld %12lld %12.6e %12.6e %12.6f\n",
            s->topo->procs[p].name, s->topo->types[s->topo->procs[p].type].name,
            s->topo->procs[p].node, (long long)pe.blocks, (long long)pe.cells,
            pe.comp_time, pe.idle_time, pe.energy);
    }
}

char *sm_report(const sm_session *s, sm_report_format f)
{
    sm_eval ev;
    sm_cost_eval(s->cost, &ev);
    if (f == SM_REPORT_JSON) return json_report(s, &ev);
    sm_strbuf b;
    sm_strbuf_init(&b);
    if (f == SM_REPORT_CSV) csv_report(&b, s, &ev);
    else text_report(&b, s, &ev);
    return b.s;
}
