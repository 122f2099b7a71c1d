/* nvml.h - GPU energy from NVIDIA's NVML, loaded at run time (dlopen of
 * libnvidia-ml.so.1) so the program neither needs nor links the driver:
 * where the library is absent the caller is told so in words. Energy is
 * nvmlDeviceGetTotalEnergyConsumption (millijoules since the driver
 * loaded; Volta and later). Includes libc and dlfcn only. */
#ifndef SM_NVML_H
#define SM_NVML_H

#include <stddef.h>
#include <stdint.h>

typedef struct sm_nvml sm_nvml;

/* NULL with why when the library or the driver is not there. The
 * library's name may be overridden by $STENCILMAP_NVML (a path). */
sm_nvml *sm_nvml_open(char *why, size_t len);
void sm_nvml_close(sm_nvml *nv);
int sm_nvml_count(const sm_nvml *nv);
/* Millijoules device `index` consumed since the driver loaded; 0, or -1
 * with why (e.g. a GPU older than Volta). */
int sm_nvml_energy_mj(sm_nvml *nv, int index, uint64_t *mj, char *why, size_t len);

#endif
