/* cmd_scenario.c - scenario, grid and topo: loading, saving, building
 * and describing what the session holds. A failed load leaves the
 * session exactly as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/io/grid_file.h"
#include "core/session/crash_recovery_journal.h"
#include "core/model/grid_memory.h"
#include "core/model/processor_time_energy.h"
#include "core/io/scenario_file_load_save_and_its_errors.h"
#include "cmd_common.h"
#include "tui/app/installed_data_directory.h"
#include "cmd_topo_detect_import.h"
#include "cmd_topo_measure.h"
#include "tui/app/path_display_tidy.h"
#include "core/lib/atomic_file_write.h"
#include "core/io/processor_profile_csv_file.h"
#include "core/io/topology_file.h"

static int load_err(Tcl_Interp *in, const sm_err *e)
{
    return sm_tcl_err(in, "LOAD", e); /* a grid too large: MEMORY */
}

static int after_change(sm_app *app, Tcl_Interp *in)
{
    int rc = sm_app_changed(app);
    if (rc == TCL_OK) Tcl_ResetResult(in);
    return rc;
}

static Tcl_Obj *grid_info(const sm_grid *g)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_Obj *cells = Tcl_NewListObj(0, NULL), *blocks = Tcl_NewListObj(0, NULL),
            *per = Tcl_NewListObj(0, NULL);
    for (int a = 0; a < 3; a++) {
        Tcl_ListObjAppendElement(NULL, cells, Tcl_NewWideIntObj(g->spec.cells[a]));
        Tcl_ListObjAppendElement(NULL, blocks, Tcl_NewIntObj(g->spec.blocks[a]));
        Tcl_ListObjAppendElement(NULL, per, Tcl_NewIntObj(g->spec.periodic[a]));
    }
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("cells", -1), cells);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("blocks", -1), blocks);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("periodic", -1), per);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("stencil", -1),
                   Tcl_NewStringObj(sm_stencil_name(g->spec.stencil), -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("halo", -1), Tcl_NewIntObj(g->spec.halo));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("tasks", -1), Tcl_NewIntObj(g->ntasks));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("edges", -1), Tcl_NewIntObj(g->nedges));
    int64_t total = 0;
    for (int u = 0; u < g->ntasks; u++) total += g->task_cells[u];
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("total_cells", -1), Tcl_NewWideIntObj(total));
    return d;
}

static Tcl_Obj *topo_info(const sm_topo *t)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("processors", -1), Tcl_NewIntObj(t->nprocs));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("nodes", -1), Tcl_NewIntObj(t->nnodes));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("network", -1),
                   Tcl_NewStringObj(t->net->ops->kind, -1));
    int placed = 0;
    for (int p = 0; p < t->nprocs; p++) placed += t->procs[p].place != NULL;
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("placed", -1), Tcl_NewIntObj(placed));
    Tcl_Obj *types = Tcl_NewDictObj();
    for (int i = 0; i < t->ntypes; i++) {
        const sm_type *T = &t->types[i];
        const sm_params *p = sm_type_params(T);
        Tcl_Obj *o = Tcl_NewDictObj();
        int count = 0;
        for (int k = 0; k < t->nprocs; k++) count += t->procs[k].type == i;
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("count", -1), Tcl_NewIntObj(count));
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("time_per_cell", -1), Tcl_NewDoubleObj(p->time_per_cell));
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("energy_per_cell", -1), Tcl_NewDoubleObj(p->energy_per_cell));
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("p0", -1), Tcl_NewDoubleObj(p->p0));
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("p_idle", -1), Tcl_NewDoubleObj(p->p_idle));
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("roofline", -1), Tcl_NewIntObj(p->roofline));
        if (p->memory > 0) Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("memory", -1), Tcl_NewDoubleObj(p->memory));
        Tcl_Obj *states = Tcl_NewListObj(0, NULL);
        for (int k = 0; k < T->nstates; k++)
            Tcl_ListObjAppendElement(NULL, states, Tcl_NewStringObj(T->state_names[k], -1));
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("states", -1), states);
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("state", -1),
                       Tcl_NewStringObj(T->state >= 0 ? T->state_names[T->state] : "", -1));
        if (T->estimated)
            Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("estimated", -1), Tcl_NewStringObj(T->estimated, -1));
        if (T->source && cJSON_GetArraySize(T->source)) {
            /* Where each parameter came from (SPEC 8): KEY measured|fitted|estimated|published. */
            Tcl_Obj *src = Tcl_NewDictObj();
            const cJSON *it;
            cJSON_ArrayForEach(it, T->source)
                Tcl_DictObjPut(NULL, src, Tcl_NewStringObj(it->string, -1), Tcl_NewStringObj(it->valuestring, -1));
            Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("source", -1), src);
        }
        Tcl_DictObjPut(NULL, types, Tcl_NewStringObj(T->name, -1), o);
    }
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("types", -1), types);
    return d;
}

/* ---- scenario ---- */

/* Two instances (SPEC 5): a scenario another running workbench holds
 * (its journal's lock) is said to be so when opened here, a shipped
 * sample too (two users editing one demo each think the edits theirs);
 * saves are then checked against its saves (core/lib/util_file_changed_since_read.c). Not
 * for a safe script: the journals are no business of its. */
static void note_other_instance(sm_app *app, const char *path)
{
    if (app->safe_depth > 0) return;
    char *real = realpath(path, NULL);
    if (!real) return;
    sm_journal_info *v;
    int n = sm_journal_list(NULL, &v);
    const char *mine = app->journal ? sm_journal_path(app->journal) : NULL;
    for (int i = 0; i < n; i++) {
        if (!v[i].live || strcmp(v[i].scenario, real) != 0) continue;
        if (mine && strcmp(v[i].path, mine) == 0) continue;
        sm_view_log(app->view, SM_LOG_NOTE,
                    "%s is open in another running workbench (its journal %s): a save here over "
                    "a save there is refused, or asked about", path, v[i].path);
        if (!app->screen)
            fprintf(stderr, "stencilmap: note: %s is open in another running workbench (its "
                    "journal %s)\n", path, v[i].path);
        break;
    }
    sm_journal_list_free(v, n);
    free(real);
}

static int scenario_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_scenario sc;
    sm_err e;
    if (sm_app_check_change(app, in, "scenario load")) return TCL_ERROR;
    /* A shipped sample by its name from anywhere: samples/x.json or x.json
     * below the installed data when not here. */
    char *shipped = sm_datadir_find(Tcl_GetString(objv[2]));
    const char *path = shipped ? shipped : Tcl_GetString(objv[2]);
    if (sm_scenario_load(path, &sc, &e)) {
        free(shipped);
        return load_err(in, &e);
    }
    if (sm_app_confirm_discard(app, in, "scenario load")) {
        sm_scenario_release(&sc);
        free(shipped);
        return TCL_ERROR;
    }
    sm_app_drop_solver(app);
    sm_session_replace(app->session, &sc);
    sm_app_release_recovered(app);
    /* Standard input is no file to journal against or save back to. */
    if (strcmp(path, "-") != 0) {
        sm_clean_stale_temps(path);
        char *tidy = sm_path_tidy(path); /* scripts/../x: as x */
        sm_app_set_scenario_path(app, tidy);
        free(tidy);
        note_other_instance(app, path);
    } else {
        sm_app_set_scenario_path(app, NULL);
    }
    free(shipped);
    return after_change(app, in);
}

static int scenario_save(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_session *s = app->session;
    sm_err e;
    sm_mapping_form form;
    if (sm_mapping_form_opt(in, "scenario save", objc, objv, 3, &form) != TCL_OK) return TCL_ERROR;
    if (sm_app_confirm_overwrite(app, in, Tcl_GetString(objv[2]))) return TCL_ERROR;
    if (sm_scenario_save(Tcl_GetString(objv[2]), s->grid, s->topo, &s->model,
                         sm_session_map(s), form, &e))
        return sm_tcl_err(in, "IO", &e);
    /* A copy on standard output is no save of the session's file. */
    if (strcmp(Tcl_GetString(objv[2]), "-") != 0) {
        sm_session_saved(s, SM_PART_ALL);
        char *tidy = sm_path_tidy(Tcl_GetString(objv[2]));
        sm_app_set_scenario_path(app, tidy);
        free(tidy);
        sm_app_after_save(app);
    }
    Tcl_SetObjResult(in, objv[2]);
    return TCL_OK;
}

static int scenario_info(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_session *s = app->session;
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("grid", -1), grid_info(s->grid));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("topology", -1), topo_info(s->topo));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("dirty", -1), Tcl_NewIntObj(s->dirty));
    /* What differs from disk, part by part. */
    static const char *const parts[] = {"grid", "topology", "model", "mapping"};
    Tcl_Obj *unsaved = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < 4; i++)
        if (s->dirty_parts & (1u << i))
            Tcl_ListObjAppendElement(NULL, unsaved, Tcl_NewStringObj(parts[i], -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("unsaved", -1), unsaved);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("undo", -1), Tcl_NewIntObj(s->pos));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("redo", -1), Tcl_NewIntObj(s->nhist - s->pos));
    /* The file loaded or saved last ("" for the built-in scenario). */
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("file", -1),
                   Tcl_NewStringObj(app->scenario_path ? app->scenario_path : "", -1));
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static const sm_subcmd scenario_subs[] = {
    {"load", scenario_load, 1, 1, "FILE"},
    {"save", scenario_save, 1, 3, "FILE ?-mapping plain|compact|auto?"},
    {"info", scenario_info, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL},
};

/* ---- grid ---- */

static int get_triple(Tcl_Interp *in, Tcl_Obj *o, const char *opt, long long lo,
                      long long hi, long long out[3])
{
    int len;
    Tcl_Obj **el;
    if (Tcl_ListObjGetElements(NULL, o, &len, &el) != TCL_OK || len < 2 || len > 3)
        return sm_tcl_error(in, "ARGS", "%s: expected a list of 2 or 3 whole numbers, got \"%s\"",
                            opt, Tcl_GetString(o));
    out[2] = 1;
    for (int a = 0; a < len; a++) {
        Tcl_WideInt v;
        if (Tcl_GetWideIntFromObj(NULL, el[a], &v) != TCL_OK || v < lo || v > hi)
            return sm_tcl_error(in, "ARGS", "%s: expected whole numbers in [%lld, %lld], got \"%s\"",
                                opt, lo, hi, Tcl_GetString(el[a]));
        out[a] = v;
    }
    return TCL_OK;
}

/* -periodic: one flag per axis, any Tcl boolean (0/1, true/false, yes/no). */
static int get_flags(Tcl_Interp *in, Tcl_Obj *o, const char *opt, int out[3])
{
    int len;
    Tcl_Obj **el;
    if (Tcl_ListObjGetElements(NULL, o, &len, &el) != TCL_OK || len < 2 || len > 3)
        return sm_tcl_error(in, "ARGS", "%s: expected a list of 2 or 3 flags, got \"%s\"",
                            opt, Tcl_GetString(o));
    out[2] = 0;
    for (int a = 0; a < len; a++)
        if (Tcl_GetBooleanFromObj(NULL, el[a], &out[a]) != TCL_OK)
            return sm_tcl_error(in, "ARGS", "%s: expected a flag (0/1, true/false), got \"%s\"",
                                opt, Tcl_GetString(el[a]));
    return TCL_OK;
}

static int grid_create(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const opts[] = {"-blocks", "-cells", "-periodic", "-stencil",
                                       "-halo", NULL};
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    int have_blocks = 0, have_cells = 0;
    long long v[3];
    if ((objc - 2) % 2)
        return sm_tcl_error(in, "ARGS", "grid create: options come in pairs: -option value");
    for (int i = 2; i < objc; i += 2) {
        int idx;
        if (sm_get_opt_index(in, objv[i], opts, &idx)) return TCL_ERROR;
        Tcl_Obj *val = objv[i + 1];
        switch (idx) {
        case 0:
            if (get_triple(in, val, "-blocks", 1, SM_MAX_TASKS, v)) return TCL_ERROR;
            for (int a = 0; a < 3; a++) s.blocks[a] = (int)v[a];
            have_blocks = 1;
            break;
        case 1:
            if (get_triple(in, val, "-cells", 1, SM_MAX_CELLS_AXIS, v)) return TCL_ERROR;
            for (int a = 0; a < 3; a++) s.cells[a] = v[a];
            have_cells = 1;
            break;
        case 2:
            if (get_flags(in, val, "-periodic", s.periodic)) return TCL_ERROR;
            break;
        case 3:
            if (sm_stencil_parse(Tcl_GetString(val), &s.stencil))
                return sm_tcl_error(in, "ARGS", "-stencil: expected 5pt, 9pt, 7pt or 27pt, got \"%s\"",
                                    Tcl_GetString(val));
            break;
        case 4: {
            int h;
            if (Tcl_GetIntFromObj(NULL, val, &h) != TCL_OK || h < 1)
                return sm_tcl_error(in, "ARGS", "-halo: expected a positive width, got \"%s\"",
                                    Tcl_GetString(val));
            s.halo = h;
            break;
        }
        }
    }
    if (!have_blocks) return sm_tcl_error(in, "ARGS", "grid create: -blocks is required");
    if (!have_cells)
        for (int a = 0; a < 3; a++)
            s.cells[a] = (a == 2 && s.blocks[2] == 1 &&
                          (s.stencil == SM_ST_5PT || s.stencil == SM_ST_9PT))
                             ? 1 : 64LL * s.blocks[a];
    sm_err e;
    if (sm_app_check_change(app, in, "grid create")) return TCL_ERROR;
    if (sm_grid_spec_check(&s, &e)) return sm_tcl_error(in, "ARGS", "grid create: %s", e.msg);
    if (sm_grid_memory_check(&s, &e)) {
        sm_err_prefix(&e, "grid create: ");
        return sm_tcl_err(in, "MEMORY", &e);
    }
    sm_grid *g = sm_grid_build(&s, &e);
    if (!g) return sm_tcl_error(in, "ARGS", "grid create: %s", e.msg);
    sm_app_detach_solver(app, "grid create");
    sm_session_set_grid(app->session, g);
    int rc = after_change(app, in);
    if (rc == TCL_OK) Tcl_SetObjResult(in, grid_info(app->session->grid));
    return rc;
}

static int grid_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_err e;
    if (sm_app_check_change(app, in, "grid load")) return TCL_ERROR;
    sm_grid *g = sm_grid_load(Tcl_GetString(objv[2]), &e);
    if (!g) return load_err(in, &e);
    sm_app_detach_solver(app, "grid load");
    sm_session_set_grid(app->session, g);
    return after_change(app, in);
}

static int grid_save(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_err e;
    if (sm_app_confirm_overwrite(app, in, Tcl_GetString(objv[2]))) return TCL_ERROR;
    if (sm_grid_save(app->session->grid, Tcl_GetString(objv[2]), &e))
        return sm_tcl_err(in, "IO", &e);
    if (strcmp(Tcl_GetString(objv[2]), "-") != 0) {
        sm_session_saved(app->session, SM_PART_GRID);
        sm_app_after_save(app);
    }
    Tcl_SetObjResult(in, objv[2]);
    return TCL_OK;
}

static int grid_info_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    Tcl_SetObjResult(in, grid_info(app->session->grid));
    return TCL_OK;
}

static const sm_subcmd grid_subs[] = {
    {"create", grid_create, 2, -1, "-blocks {BX BY BZ} ?-cells {X Y Z}? ?-periodic {0 0 0}? ?-stencil 7pt? ?-halo 1?"},
    {"load", grid_load, 1, 1, "FILE"},
    {"save", grid_save, 1, 1, "FILE"},
    {"info", grid_info_cmd, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL},
};

/* ---- topo ---- */

static int topo_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_err e;
    if (sm_app_check_change(app, in, "topo load")) return TCL_ERROR;
    sm_topo *t = sm_topo_load(Tcl_GetString(objv[2]), &e);
    if (!t) return load_err(in, &e);
    sm_app_detach_solver(app, "topo load");
    sm_session_set_topo(app->session, t);
    return after_change(app, in);
}

static int topo_save(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_err e;
    if (sm_app_confirm_overwrite(app, in, Tcl_GetString(objv[2]))) return TCL_ERROR;
    if (sm_topo_save(app->session->topo, Tcl_GetString(objv[2]), &e))
        return sm_tcl_err(in, "IO", &e);
    if (strcmp(Tcl_GetString(objv[2]), "-") != 0) {
        sm_session_saved(app->session, SM_PART_TOPO);
        sm_app_after_save(app);
    }
    Tcl_SetObjResult(in, objv[2]);
    return TCL_OK;
}

static int topo_info_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    Tcl_SetObjResult(in, topo_info(app->session->topo));
    return TCL_OK;
}

static int topo_procs(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    const sm_topo *t = app->session->topo;
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int p = 0; p < t->nprocs; p++) {
        Tcl_Obj *d = Tcl_NewDictObj();
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("name", -1), Tcl_NewStringObj(t->procs[p].name, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("type", -1),
                       Tcl_NewStringObj(t->types[t->procs[p].type].name, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("node", -1), Tcl_NewIntObj(t->procs[p].node));
        /* The DVFS state it runs in: its own (a solver chose it), else its
         * type's, "base" when none is selected. */
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("state", -1),
                       Tcl_NewStringObj(sm_topo_proc_state_name(t, p), -1));
        /* Where it sits in its node (hwloc's logical indexes), {} if unknown. */
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("place", -1), sm_place_obj(t->procs[p].place));
        Tcl_ListObjAppendElement(NULL, l, d);
    }
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

/* Same processors, other figures (a type's state or profile): keep the
 * mapping, rebuild the cost model, one undoable edit named label. */
static int replace_topo_keep_map(sm_app *app, Tcl_Interp *in, sm_topo *t, const char *label)
{
    sm_app_detach_solver(app, label);
    sm_session_set_topo_keep_map(app->session, t);
    return after_change(app, in);
}

/* topo state TYPE ?STATE|base?: query or select a DVFS state. */
static int topo_state(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_session *s = app->session;
    int ty = sm_topo_find_type(s->topo, Tcl_GetString(objv[2]));
    if (ty < 0) return sm_tcl_error(in, "ARGS", "topo state: unknown type \"%s\"", Tcl_GetString(objv[2]));
    if (objc == 4) {
        const char *st = Tcl_GetString(objv[3]);
        if (sm_app_check_change(app, in, "topo state")) return TCL_ERROR;
        /* One undoable edit, the machine kept: the type's state, its
         * processors following it again (as sm_topo_set_state does). */
        const sm_type *T = &s->topo->types[ty];
        int k = -1;
        if (strcmp(st, "base") != 0) {
            for (k = 0; k < T->nstates && strcmp(T->state_names[k], st) != 0; k++) {}
            if (k == T->nstates)
                return sm_tcl_error(in, "ARGS", "topo state: type \"%s\" has no state \"%s\"",
                                    Tcl_GetString(objv[2]), st);
        }
        sm_state_change *ch = sm_xmalloc(sizeof *ch * (size_t)(s->topo->nprocs + 1));
        int nch = 0;
        for (int p = 0; p < s->topo->nprocs; p++)
            if (s->topo->procs[p].type == ty) ch[nch++] = (sm_state_change){SM_STATE_OF_PROC, p, 0, -1};
        ch[nch++] = (sm_state_change){SM_STATE_OF_TYPE, ty, 0, k};
        sm_app_detach_solver(app, "topo state");
        int n = sm_session_apply_states(s, ch, nch, NULL, "topo state");
        free(ch);
        if (n > 0 && after_change(app, in) != TCL_OK) return TCL_ERROR;
    }
    const sm_type *T = &s->topo->types[ty];
    Tcl_SetObjResult(in, Tcl_NewStringObj(T->state >= 0 ? T->state_names[T->state] : "base", -1));
    return TCL_OK;
}

/* topo profile TYPE ?FILE|none?: the type's measured profile as a list of
 * {blocks time energy}; with FILE, import it from CSV first (none removes
 * it). The mapping is kept; the model is rebuilt. */
static int topo_profile(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_session *s = app->session;
    int ty = sm_topo_find_type(s->topo, Tcl_GetString(objv[2]));
    if (ty < 0 && strcmp(Tcl_GetString(objv[2]), "plot") == 0) return sm_topo_profile_plot_cmd(app, in, objc, objv);
    if (ty < 0) return sm_tcl_error(in, "ARGS", "topo profile: unknown type \"%s\"", Tcl_GetString(objv[2]));
    if (objc > 4) return sm_tcl_error(in, "ARGS", "topo profile: expected TYPE ?FILE|none?");
    if (objc == 4) {
        const char *file = Tcl_GetString(objv[3]);
        if (sm_app_check_change(app, in, "topo profile")) return TCL_ERROR;
        sm_profile_pt *pts = NULL;
        int n = 0, no_energy = 0;
        sm_err e;
        if (strcmp(file, "none") != 0) {
            size_t len;
            char *text = sm_read_file(file, SM_READ_ANY_SIZE, &len, &e);
            if (!text) return load_err(in, &e);
            int bad = sm_profile_parse_csv_opt(text, len, file, &pts, &n, &no_energy, &e);
            free(text);
            if (bad) return load_err(in, &e);
        }
        const sm_params *pa = sm_type_params(&s->topo->types[ty]);
        if (n == 0 && !(pa->time_per_cell > 0))
            return sm_tcl_error(in, "ARGS", "topo profile: type \"%s\" has no per-cell figures to fall back on",
                                Tcl_GetString(objv[2]));
        /* Measured without an energy counter: the energy is the type's
         * per-cell figure over the grid's average block, and its source
         * says it is an estimate. */
        double avg = (double)s->grid->spec.cells[0] * (double)s->grid->spec.cells[1] *
                     (double)s->grid->spec.cells[2] / (double)s->grid->ntasks;
        for (int k = 0; no_energy && k < n; k++) pts[k].energy = pa->energy_per_cell * avg * pts[k].blocks;
        sm_topo *t = sm_topo_clone(s->topo);
        sm_topo_set_profile(t, ty, pts, n);
        if (!n) sm_type_set_source(&t->types[ty], "profile", NULL);
        sm_type_set_source(&t->types[ty], "profile_energy", no_energy ? "estimated" : NULL);
        free(pts);
        if (replace_topo_keep_map(app, in, t, "topo profile") != TCL_OK) return TCL_ERROR;
    }
    const sm_type *T = &s->topo->types[ty];
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int k = 0; k < T->nprofile; k++) {
        Tcl_Obj *pt[3] = {Tcl_NewIntObj(T->profile[k].blocks), Tcl_NewDoubleObj(T->profile[k].time),
                          Tcl_NewDoubleObj(T->profile[k].energy)};
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewListObj(3, pt));
    }
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

static const sm_subcmd topo_subs[] = {
    {"load", topo_load, 1, 1, "FILE"},
    {"save", topo_save, 1, 1, "FILE"},
    {"info", topo_info_cmd, 0, 0, ""},
    {"procs", topo_procs, 0, 0, ""},
    {"state", topo_state, 1, 2, "TYPE ?STATE|base?"},
    {"detect", sm_topo_detect_cmd, 0, 4, "?-per package|numa|core? ?-nodes N?"},
    {"import", sm_topo_import_cmd, 3, -1, "-format hwloc ?-per package|numa|core? ?-nodes N? FILE|- ?FILE ...?"},
    {"profile", topo_profile, 1, 4, "TYPE ?FILE|none? | plot TYPE|FILE ?-o FILE.svg|png?"},
    {"measure", sm_topo_measure_cmd, 0, -1,
     "?-processors LIST? ?-kernel 5pt|7pt|9pt|27pt? ?-sizes LIST? ?-cl C? ?-eps E? ?-reps MIN MAX? "
     "?-simultaneous on|off? ?-mintime S? ?-apply? ?-o FILE?"},
    {NULL, NULL, 0, 0, NULL},
};

static int scenario_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, scenario_subs);
}
static int grid_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, grid_subs);
}
static int topo_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, topo_subs);
}

void sm_register_scenario_cmds(sm_app *app)
{
    sm_create_ensemble(app, "scenario", scenario_cmd, scenario_subs);
    sm_create_ensemble(app, "grid", grid_cmd, grid_subs);
    sm_create_ensemble(app, "topo", topo_cmd, topo_subs);
}
