/* fuzz_study.c - the study SPEC loader on arbitrary bytes; what loads must
 * enumerate its jobs (first, last, a few between) without faulting. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/study/study_jobs_enumeration.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sm_study st;
    sm_err e;
    sm_study_init(&st);
    if (sm_study_from_json(&st, (const char *)data, size, "fuzz.json", &e) == 0 &&
        sm_study_check(&st, &e) == 0) {
        long n = sm_study_njobs(&st);
        for (long k = 0; k < n && k < 64; k++) {
            sm_study_job j;
            sm_study_job_at(&st, k * (n / 64 + 1) < n ? k * (n / 64 + 1) : n - 1, &j);
        }
    }
    sm_study_free(&st);
    return 0;
}
