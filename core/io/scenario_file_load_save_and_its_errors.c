/* scenario_file_load_save_and_its_errors.c - scenario files: loading one (its errors
 * name the file and the JSON path; the grid part is read by grid_file.c,
 * the machine part, inline or a path, by topology_file.c, the mapping by
 * mapping_file.c) and saving it atomically. */
#include "scenario_file_load_save_and_its_errors.h"
#include "core/lib/atomic_file_write.h"

#include <stdlib.h>
#include <string.h>
#include "grid_file.h"
#include "core/lib/jsonutil.h"
#include "core/model/grid_memory.h"
#include "mapping_file.h"
#include "topology_file.h"

int sm_model_from_json(const cJSON *j, const char *path, sm_model *m,
                       sm_err *e)
{
    static const char *const keys[] = {"rounds", "overlap", "round_time",
                                       "deadline", "unused", NULL};
    char p[512];
    if (sm_json_expect_object(j, path, e) || sm_json_only_keys(j, path, keys, e))
        return -1;
    const char *s;
    int rc = sm_json_string(j, path, "rounds", 0, &s, e);
    if (rc < 0) return -1;
    if (rc == 1 && sm_rounds_parse(s, &m->rounds)) {
        sm_err_set(e, "%s: expected maxdeg, vizing or colouring, got \"%s\"",
                   sm_jpath_key(p, sizeof p, path, "rounds"), s);
        return -1;
    }
    if (sm_json_flag(j, path, "overlap", 0, &m->overlap, e) < 0) return -1;
    if (sm_json_number(j, path, "round_time", 0, SM_ROUND_TIME_MIN,
                       SM_ROUND_TIME_MAX, &m->round_time, e) < 0)
        return -1;
    const cJSON *dl = cJSON_GetObjectItemCaseSensitive(j, "deadline");
    if (dl) {
        if (cJSON_IsNull(dl) || (cJSON_IsString(dl) && strcmp(dl->valuestring, "none") == 0))
            m->has_deadline = 0;
        else {
            if (sm_json_number(j, path, "deadline", 1, SM_DEADLINE_MIN,
                               SM_DEADLINE_MAX, &m->deadline, e) < 0)
                return -1;
            m->has_deadline = 1;
        }
    }
    rc = sm_json_string(j, path, "unused", 0, &s, e);
    if (rc < 0) return -1;
    if (rc == 1) {
        if (strcmp(s, "idle") == 0) m->unused_idle = 1;
        else if (strcmp(s, "off") == 0) m->unused_idle = 0;
        else {
            sm_err_set(e, "%s: expected idle or off, got \"%s\"",
                       sm_jpath_key(p, sizeof p, path, "unused"), s);
            return -1;
        }
    }
    return 0;
}

cJSON *sm_model_to_json(const sm_model *m)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "rounds", sm_rounds_name(m->rounds));
    cJSON_AddNumberToObject(j, "overlap", m->overlap);
    cJSON_AddNumberToObject(j, "round_time", m->round_time);
    if (m->has_deadline) cJSON_AddNumberToObject(j, "deadline", m->deadline);
    else cJSON_AddStringToObject(j, "deadline", "none");
    cJSON_AddStringToObject(j, "unused", m->unused_idle ? "idle" : "off");
    return j;
}

void sm_scenario_release(sm_scenario *s)
{
    sm_grid_free(s->grid);
    sm_topo_free(s->topo);
    free(s->map);
    memset(s, 0, sizeof *s);
}

int sm_scenario_parse_text(const char *text, size_t len, const char *name,
                           const char *dir, sm_scenario *out, sm_err *e)
{
    static const char *const keys[] = {"format", "version", "name", "comment",
                                       "grid", "topology", "model", "mapping",
                                       NULL};
    memset(out, 0, sizeof *out);
    sm_model_default(&out->model);
    const char *mtext;
    size_t mlen;
    cJSON *j = sm_json_parse_lift(text, len, "mapping", &mtext, &mlen, e);
    if (!j) goto fail;
    if (sm_json_check_format(j, "stencilmap/scenario", e) ||
        sm_json_only_keys(j, "", keys, e))
        goto fail;
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(j, "grid");
    if (!g) {
        sm_err_set(e, "grid: missing (required)");
        goto fail;
    }
    sm_grid_spec spec;
    if (sm_grid_spec_from_json(g, "grid", 1, &spec, e)) goto fail;
    /* Refused before anything is read or built when it cannot fit. */
    if (sm_grid_memory_check(&spec, e)) {
        sm_err_prefix(e, "grid: ");
        goto fail;
    }
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "topology");
    if (!t) {
        sm_err_set(e, "topology: missing (required)");
        goto fail;
    }
    if (cJSON_IsString(t)) {
        char *path = sm_path_join(dir, t->valuestring);
        out->topo = sm_topo_load(path, e);
        free(path);
        if (!out->topo) {
            sm_err_prefix(e, "topology: ");
            goto fail;
        }
    } else {
        out->topo = sm_topo_from_json(t, "topology", e);
        if (!out->topo) {
            /* Paths inside the inline topology are relative to it. */
            sm_err_prefix(e, "topology.");
            goto fail;
        }
    }
    /* The grid is built only once the machine is known good: a bad
     * topology costs no allocation of a large grid. */
    out->grid = sm_grid_build(&spec, e);
    if (!out->grid) goto fail;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "model");
    if (m && sm_model_from_json(m, "model", &out->model, e)) goto fail;
    const cJSON *mp = cJSON_GetObjectItemCaseSensitive(j, "mapping");
    if (mp) {
        out->map = sm_xmalloc(sizeof(int) * (size_t)out->grid->ntasks);
        if (sm_mapping_read_member(mp, mtext, mlen, "mapping", out->topo, out->grid->ntasks,
                                   out->map, e))
            goto fail;
    }
    cJSON_Delete(j);
    return 0;
fail:
    cJSON_Delete(j);
    sm_scenario_release(out);
    sm_err_prefix(e, "%s: ", name);
    return -1;
}

int sm_scenario_load(const char *file, sm_scenario *out, sm_err *e)
{
    size_t len;
    char *text = sm_read_file(file, SM_READ_ANY_SIZE, &len, e);
    if (!text) return -1;
    char *dir = sm_dirname(file);
    int rc = sm_scenario_parse_text(text, len, file, dir, out, e);
    free(dir);
    free(text);
    return rc;
}

cJSON *sm_scenario_to_json(const sm_grid *g, const sm_topo *t, const sm_model *m)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "stencilmap/scenario");
    cJSON_AddNumberToObject(j, "version", 1);
    cJSON_AddItemToObject(j, "grid", sm_grid_spec_to_json(&g->spec, 0));
    cJSON_AddItemToObject(j, "topology", sm_topo_to_json(t));
    cJSON_AddItemToObject(j, "model", sm_model_to_json(m));
    return j;
}

char *sm_scenario_print(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                        sm_mapping_form form, int formatted, size_t *len)
{
    cJSON *j = sm_scenario_to_json(g, t, m);
    char *s;
    if (map) {
        /* The mapping's text is written straight, never as a tree. */
        size_t vn;
        char *v = sm_mapping_value_text(t, map, g->ntasks, form, formatted, &vn);
        s = sm_json_print_with(j, formatted, "mapping", v, vn, len);
        free(v);
    } else {
        s = formatted ? sm_json_print(j) : cJSON_PrintUnformatted(j);
        if (s && len) *len = strlen(s);
    }
    cJSON_Delete(j);
    return s;
}

int sm_scenario_save(const char *file, const sm_grid *g, const sm_topo *t,
                     const sm_model *m, const int *map, sm_mapping_form form, sm_err *e)
{
    size_t n;
    char *s = sm_scenario_print(g, t, m, map, form, 1, &n);
    if (!s) {
        sm_err_set(e, "%s: out of memory", file);
        return -1;
    }
    int rc = sm_write_file_atomic(file, s, n, e);
    free(s);
    return rc;
}
