/* grid_file.h - the stencilmap/grid format. */
#ifndef SM_GRID_FILE_H
#define SM_GRID_FILE_H

#include <cjson/cJSON.h>
#include "core/model/grid.h"

/* inline_ok: a grid object inside a scenario may omit format/version. */
int sm_grid_spec_from_json(const cJSON *j, const char *path, int inline_ok,
                           sm_grid_spec *s, sm_err *e);
cJSON *sm_grid_spec_to_json(const sm_grid_spec *s, int with_format);
sm_grid *sm_grid_parse_text(const char *text, size_t len, const char *name,
                            sm_err *e);
sm_grid *sm_grid_load(const char *file, sm_err *e);
int sm_grid_save(const sm_grid *g, const char *file, sm_err *e);

#endif
