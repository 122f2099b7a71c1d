/* grid_file.c - load and save grids. */
#include "grid_file.h"
#include "core/lib/atomic_file_write.h"

#include <stdlib.h>
#include <string.h>
#include "core/lib/jsonutil.h"
#include "core/model/grid_memory.h"

int sm_grid_spec_from_json(const cJSON *j, const char *path, int inline_ok,
                           sm_grid_spec *s, sm_err *e)
{
    static const char *const keys[] = {"format", "version", "name", "comment",
                                       "cells", "blocks", "periodic",
                                       "stencil", "halo", NULL};
    if (sm_json_expect_object(j, path, e)) return -1;
    if (!inline_ok || cJSON_GetObjectItemCaseSensitive(j, "format"))
        if (sm_json_check_format(j, "stencilmap/grid", e)) return -1;
    if (sm_json_only_keys(j, path, keys, e)) return -1;
    sm_grid_spec_default(s);
    int64_t v[3];
    int len;
    if (sm_json_int_array(j, path, "blocks", 1, 3, 3, 1, SM_MAX_TASKS, v, &len,
                          e) < 0)
        return -1;
    for (int a = 0; a < 3; a++) s->blocks[a] = (int)v[a];
    const char *st = "7pt";
    if (sm_json_string(j, path, "stencil", 0, &st, e) < 0) return -1;
    char p[512];
    if (sm_stencil_parse(st, &s->stencil)) {
        sm_err_set(e, "%s: unknown stencil \"%s\" (expected 5pt, 9pt, 7pt or "
                      "27pt)",
                   sm_jpath_key(p, sizeof p, path, "stencil"), st);
        return -1;
    }
    int rc = sm_json_int_array(j, path, "cells", 0, 3, 3, 1, SM_MAX_CELLS_AXIS,
                               v, &len, e);
    if (rc < 0) return -1;
    for (int a = 0; a < 3; a++)
        s->cells[a] = rc ? v[a] : (s->blocks[a] == 1 && a == 2 && (s->stencil == SM_ST_5PT || s->stencil == SM_ST_9PT) ? 1 : 64 * (int64_t)s->blocks[a]);
    int per[3];
    rc = sm_json_flag_array(j, path, "periodic", 0, 3, per, e);
    if (rc < 0) return -1;
    for (int a = 0; a < 3; a++) s->periodic[a] = rc ? per[a] : 0;
    int64_t halo = 1;
    if (sm_json_integer(j, path, "halo", 0, 1, 1 << 20, &halo, e) < 0) return -1;
    s->halo = (int)halo;
    if (sm_grid_spec_check(s, e)) {
        sm_err_prefix(e, "%s%s", path, path[0] ? "." : "");
        return -1;
    }
    return 0;
}

cJSON *sm_grid_spec_to_json(const sm_grid_spec *s, int with_format)
{
    cJSON *j = cJSON_CreateObject();
    if (with_format) {
        cJSON_AddStringToObject(j, "format", "stencilmap/grid");
        cJSON_AddNumberToObject(j, "version", 1);
    }
    double c[3] = {(double)s->cells[0], (double)s->cells[1], (double)s->cells[2]};
    cJSON_AddItemToObject(j, "cells", cJSON_CreateDoubleArray(c, 3));
    cJSON_AddItemToObject(j, "blocks", cJSON_CreateIntArray(s->blocks, 3));
    cJSON_AddItemToObject(j, "periodic", cJSON_CreateIntArray(s->periodic, 3));
    cJSON_AddStringToObject(j, "stencil", sm_stencil_name(s->stencil));
    cJSON_AddNumberToObject(j, "halo", s->halo);
    return j;
}

sm_grid *sm_grid_parse_text(const char *text, size_t len, const char *name,
                            sm_err *e)
{
    cJSON *j = sm_json_parse(text, len, e);
    sm_grid_spec s;
    sm_grid *g = NULL;
    if (j && sm_grid_spec_from_json(j, "", 0, &s, e) == 0 && sm_grid_memory_check(&s, e) == 0)
        g = sm_grid_build(&s, e);
    cJSON_Delete(j);
    if (!g) sm_err_prefix(e, "%s: ", name);
    return g;
}

sm_grid *sm_grid_load(const char *file, sm_err *e)
{
    size_t len;
    char *text = sm_read_file(file, SM_MAX_FILE_BYTES, &len, e);
    if (!text) return NULL;
    sm_grid *g = sm_grid_parse_text(text, len, file, e);
    free(text);
    return g;
}

int sm_grid_save(const sm_grid *g, const char *file, sm_err *e)
{
    cJSON *j = sm_grid_spec_to_json(&g->spec, 1);
    char *s = sm_json_print(j);
    cJSON_Delete(j);
    int rc = sm_write_file_atomic(file, s, strlen(s), e);
    free(s);
    return rc;
}
