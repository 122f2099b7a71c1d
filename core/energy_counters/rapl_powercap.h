/* rapl_powercap.h - energy from Linux powercap RAPL counters (SPEC 8):
 * /sys/class/powercap/intel-rapl:P (a package, "package-N") and its
 * subzones intel-rapl:P:S ("dram", "core", "uncore"). energy_uj counts
 * microjoules and wraps to 0 past max_energy_range_uj. Only the package
 * zones and their dram subzones are summed (core and uncore are parts of
 * the package; psys and the intel-rapl-mmio duplicates are left out).
 * STENCILMAP_POWERCAP names another root (fixture trees in the tests).
 * Recent kernels let only root read energy_uj: such a zone is kept with
 * the reason, never guessed. Includes libc only. */
#ifndef SM_RAPL_POWERCAP_H
#define SM_RAPL_POWERCAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct sm_rapl_zone {
    char id[64];        /* "intel-rapl:0", "intel-rapl:0:1" */
    char name[64];      /* the zone's own name file: "package-0", "dram" */
    int package;        /* N of package-N (a subzone: its package's) */
    int dram;           /* a dram subzone */
    char *energy_path;  /* .../energy_uj */
    uint64_t max_range; /* max_energy_range_uj */
    uint64_t last;      /* the last reading */
    double joules;      /* summed since open or the last reset */
    char why[256];      /* empty when readable; else why not, in words */
} sm_rapl_zone;

typedef struct sm_powercap {
    char *root;
    int nzones;
    sm_rapl_zone *zones;
} sm_powercap;

/* The root: $STENCILMAP_POWERCAP, else /sys/class/powercap. */
const char *sm_powercap_root(void);
/* Every package zone and dram subzone under root (NULL: the default
 * root). NULL with why when there is no RAPL zone at all. Zones that
 * cannot be read are kept with their why. */
sm_powercap *sm_powercap_open(const char *root, char *why, size_t len);
void sm_powercap_close(sm_powercap *pc);
/* The zone index of package P's package zone, or -1. */
int sm_powercap_package(const sm_powercap *pc, int package);
/* 1 when package P and its dram subzones can be read; else 0 with why. */
int sm_powercap_readable(const sm_powercap *pc, int package, char *why, size_t len);
/* Reads every readable counter and adds what it counted since the last
 * reading, wrap included. Must run more often than a counter wraps
 * (minutes at full power). 0, or -1 with why when a read fails. */
int sm_powercap_sample(sm_powercap *pc, char *why, size_t len);
/* Restarts the sums at 0 (after a reading). */
void sm_powercap_reset(sm_powercap *pc);
/* Joules summed for package P: its package zone, plus its dram
 * subzones when with_dram. */
double sm_powercap_joules(const sm_powercap *pc, int package, int with_dram);
/* Microjoules counted from before to after by a counter that wraps past
 * max_range. */
uint64_t sm_rapl_delta(uint64_t before, uint64_t after, uint64_t max_range);

#endif
