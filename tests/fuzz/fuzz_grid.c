/* fuzz_grid.c - the grid loader on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include "core/io/grid_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sm_err e;
    sm_grid *g = sm_grid_parse_text((const char *)data, size, "fuzz.json", &e);
    sm_grid_free(g);
    return 0;
}
