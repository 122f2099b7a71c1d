/* fuzz_topology.c - the topology loader on arbitrary bytes; what loads
 * must also evaluate links between every pair without faulting. */
#include <stddef.h>
#include <stdint.h>
#include "core/model/topology.h"
#include "core/io/topology_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sm_err e;
    sm_topo *t = sm_topo_parse_text((const char *)data, size, "fuzz.json", &e);
    if (t) {
        double a, b;
        for (int p = 0; p < t->nprocs && p < 64; p++)
            for (int q = 0; q < t->nprocs && q < 64; q++) sm_topo_link(t, p, q, &a, &b);
    }
    sm_topo_free(t);
    return 0;
}
