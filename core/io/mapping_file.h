/* mapping_file.h - the stencilmap/mapping format and the part format of
 * METIS/Scotch (one processor index per line, block order). */
#ifndef SM_MAPPING_FILE_H
#define SM_MAPPING_FILE_H

#include <cjson/cJSON.h>
#include "core/model/grid.h"
#include "core/model/topology.h"
#include "mapping_value_text.h"

int sm_mapping_parse_text(const char *text, size_t len, const char *name,
                          const sm_topo *t, int nblocks, int *map, sm_err *e);
int sm_mapping_load(const char *file, const sm_topo *t, int nblocks, int *map,
                    sm_err *e);
/* form: SM_MAPPING_AUTO for the plain array up to SM_MAPPING_PLAIN_MAX
 * blocks and the compact form above (mapping_value_text.h). */
int sm_mapping_save(const char *file, const sm_topo *t, const int *map,
                    int nblocks, sm_mapping_form form, sm_err *e);
/* A partition in either form: METIS's (one processor index a line, block
 * order; '%' comments) or Scotch's gmap .map output (a count line, then
 * "vertex part" lines in any order, vertices numbered from 0 or 1, each
 * block exactly once). */
int sm_part_parse_text(const char *text, size_t len, const char *name,
                       int nprocs, int nblocks, int *map, sm_err *e);
int sm_part_load(const char *file, int nprocs, int nblocks, int *map,
                 sm_err *e);
int sm_part_save(const char *file, const int *map, int nblocks, sm_err *e);

#endif
