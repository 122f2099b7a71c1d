/* fuzz_mapping.c - the mapping (JSON) and partition (part) loaders. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "core/io/mapping_file.h"
#include "core/io/topology_file.h"

static const char topo[] =
    "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{\"c\":{\"time_per_cell\":1e-9,"
    "\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},\"processors\":[{\"name\":\"c0\",\"type\":\"c\","
    "\"node\":0},{\"name\":\"c1\",\"type\":\"c\",\"node\":0},{\"name\":\"c2\",\"type\":\"c\",\"node\":1}],"
    "\"network\":{\"kind\":\"tree\",\"group_sizes\":[2]},\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,"
    "\"energy_per_cell\":1e-9}},\"inter\":[{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}]}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sm_topo *t;
    sm_err e;
    if (!t) t = sm_topo_parse_text(topo, strlen(topo), "t.json", &e);
    int map[8];
    sm_mapping_parse_text((const char *)data, size, "fuzz.json", t, 8, map, &e);
    sm_part_parse_text((const char *)data, size, "fuzz.part", 3, 8, map, &e);
    return 0;
}
