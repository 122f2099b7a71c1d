/* package_energy_shares.c - one reader per package, shares by cores (package_energy_shares.h). */
#include "package_energy_shares.h"
#include <string.h>

void smr_energy_plan(int n, const smr_energy_where *w, int *reader, double *share)
{
    /* Quadratic in the ranks of one run: a few thousand at most, once. */
    for (int r = 0; r < n; r++) {
        reader[r] = -1;
        share[r] = 0;
        if (w[r].package < 0) continue;
        double total = 0;
        for (int k = 0; k < n; k++) {
            if (w[k].package != w[r].package || strcmp(w[k].host, w[r].host) != 0) continue;
            if (reader[r] < 0) reader[r] = k;
            total += w[k].weight > 0 ? w[k].weight : 1;
        }
        share[r] = (w[r].weight > 0 ? w[r].weight : 1) / total;
    }
}
