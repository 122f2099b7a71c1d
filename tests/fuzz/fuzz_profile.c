/* fuzz_profile.c - the profile CSV reader on arbitrary bytes; a profile
 * that loads must hold only figures in range, sizes ascending. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/model/processor_time_energy.h"
#include "core/io/processor_profile_csv_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sm_err e;
    sm_profile_pt *pts;
    int n;
    if (sm_profile_parse_csv((const char *)data, size, "fuzz.csv", &pts, &n, &e) == 0) {
        for (int i = 0; i < n; i++)
            if (pts[i].time < 0 || pts[i].time > SM_PROFILE_MAX_TIME || pts[i].energy < 0 ||
                pts[i].energy > SM_PROFILE_MAX_ENERGY || (i > 0 && pts[i].blocks <= pts[i - 1].blocks))
                abort();
        free(pts);
    }
    return 0;
}
