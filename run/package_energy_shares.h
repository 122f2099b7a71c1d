/* package_energy_shares.h - who reads which energy counter in a run, so that no
 * joule is counted twice (no MPI here: tested like the rest).
 *
 * A RAPL counter measures a whole package. Ranks that share a package
 * (processors per core, or a CPU rank and another CPU rank on one socket)
 * must not each report it: the first rank of every (host, package) reads
 * it around the iteration loop, and the package's joules are shared out
 * among the ranks on it in proportion to their cores (the shares of a
 * package sum to 1, so the ranks' energies sum to what the counters
 * counted). A GPU rank reads its own device through NVML, and takes the
 * share of its host core in that core's package (its process runs there:
 * stencilmap-run's kernel is the CPU kernel topo measure times). */
#ifndef SMR_PACKAGE_ENERGY_SHARES_H
#define SMR_PACKAGE_ENERGY_SHARES_H

#define SMR_HOST_LEN 256

typedef struct smr_energy_where {
    char host[SMR_HOST_LEN];
    int package;          /* the RAPL package the rank runs on, or -1 */
    int device;           /* a GPU rank's NVML device index, or -1 */
    int weight;           /* the rank's cores on its package (>= 1) */
} smr_energy_where;

/* For n ranks: reader[r], the rank that reads r's package (r itself for
 * the first rank of each (host, package); -1 without a package), and
 * share[r], r's part of that package's joules (0 without a package). */
void smr_energy_plan(int n, const smr_energy_where *w, int *reader, double *share);

#endif
