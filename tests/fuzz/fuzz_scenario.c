/* fuzz_scenario.c - the scenario loader (inline topology) on arbitrary
 * bytes; a scenario that loads is evaluated, as a session would. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/model/cost_incremental.h"
#include "core/model/speed_proportional_quota.h"
#include "core/io/scenario_file_load_save_and_its_errors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sm_err e;
    sm_scenario sc;
    if (sm_scenario_parse_text((const char *)data, size, "fuzz.json", "/nonexistent", &sc, &e))
        return 0;
    if (sc.grid->ntasks <= 4096 && sc.grid->nedges <= 100000) {
        int *map = sc.map;
        if (!map) {
            map = malloc(sizeof(int) * (size_t)sc.grid->ntasks);
            sm_fill(sc.grid, sc.topo, SM_SPEEDS_EXACT, SM_ORDER_IJK, 0, map);
        }
        sm_cost *c = sm_cost_new(sc.grid, sc.topo, &sc.model, map);
        sm_eval ev;
        sm_cost_eval(c, &ev);
        sm_cost_free(c);
        if (map != sc.map) free(map);
    }
    sm_scenario_release(&sc);
    return 0;
}
