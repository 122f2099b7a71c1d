/* fuzz_journal.c - the journal reader (session recover) on arbitrary
 * bytes: a torn or hostile journal is refused or read up to its last
 * whole group; what it gives is a session that evaluates. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/cost_incremental.h"
#include "core/session/crash_recovery_journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    sm_err e;
    sm_scenario sc;
    char *scenario = NULL;
    unsigned unsaved = 0;
    if (sm_journal_parse(text, size, "fuzz.journal", &sc, &scenario, &unsaved, &e) == 0) {
        if (unsaved & ~15u) abort();
        for (int b = 0; b < sc.grid->ntasks; b++)
            if (sc.map[b] < 0 || sc.map[b] >= sc.topo->nprocs) abort();
        if (sc.grid->ntasks <= 4096 && sc.grid->nedges <= 100000) {
            sm_cost *c = sm_cost_new(sc.grid, sc.topo, &sc.model, sc.map);
            sm_eval ev;
            sm_cost_eval(c, &ev);
            sm_cost_free(c);
        }
        free(scenario);
        sm_scenario_release(&sc);
    }
    free(text);
    return 0;
}
