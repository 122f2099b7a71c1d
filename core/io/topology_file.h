/* topology_file.h - the machine description as a file (topology JSON,
 * SPEC 2.2 and 6): read strictly, errors naming the file and the JSON
 * path; written back the same way; copied through the same JSON. */
#ifndef SM_TOPOLOGY_FILE_H
#define SM_TOPOLOGY_FILE_H

#include <cjson/cJSON.h>
#include "core/model/topology.h"
#include "core/lib/util.h"

sm_topo *sm_topo_from_json(const cJSON *root, const char *path, sm_err *e);
cJSON *sm_topo_to_json(const sm_topo *t);
sm_topo *sm_topo_load(const char *file, sm_err *e);
sm_topo *sm_topo_parse_text(const char *text, size_t len, const char *name,
                            sm_err *e);
int sm_topo_save(const sm_topo *t, const char *file, sm_err *e);
sm_topo *sm_topo_clone(const sm_topo *t);

#endif
