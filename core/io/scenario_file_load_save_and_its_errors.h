/* scenario_file_load_save_and_its_errors.h - the stencilmap/scenario format: grid, topology (inline or a
 * path relative to the scenario), model options and an optional mapping. */
#ifndef SM_SCENARIO_FILE_LOAD_SAVE_AND_ITS_ERRORS_H
#define SM_SCENARIO_FILE_LOAD_SAVE_AND_ITS_ERRORS_H

#include <cjson/cJSON.h>
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"
#include "core/io/mapping_value_text.h"

typedef struct sm_scenario {
    sm_grid *grid;
    sm_topo *topo;
    sm_model model;
    int *map;          /* NULL when the file has none */
} sm_scenario;

/* dir: where relative topology paths are resolved. */
int sm_scenario_parse_text(const char *text, size_t len, const char *name,
                           const char *dir, sm_scenario *out, sm_err *e);
int sm_scenario_load(const char *file, sm_scenario *out, sm_err *e);
/* The scenario without its mapping. */
cJSON *sm_scenario_to_json(const sm_grid *g, const sm_topo *t,
                           const sm_model *m);
/* The scenario's text with map (may be NULL) in the form asked for
 * (SM_MAPPING_AUTO: compact above SM_MAPPING_PLAIN_MAX blocks); *len its
 * length; NULL when out of memory. Caller frees. */
char *sm_scenario_print(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                        sm_mapping_form form, int formatted, size_t *len);
int sm_scenario_save(const char *file, const sm_grid *g, const sm_topo *t,
                     const sm_model *m, const int *map, sm_mapping_form form, sm_err *e);
void sm_scenario_release(sm_scenario *s);

int sm_model_from_json(const cJSON *j, const char *path, sm_model *m,
                       sm_err *e);
cJSON *sm_model_to_json(const sm_model *m);

#endif
