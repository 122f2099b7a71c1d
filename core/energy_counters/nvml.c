/* nvml.c - NVML through dlopen (nvml.h). The few entry points used are
 * declared here with NVML's documented signatures, so no NVIDIA header
 * is needed to build. */
#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int nvml_ret;       /* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef void *nvml_device;  /* nvmlDevice_t */

struct sm_nvml {
    void *lib;
    nvml_ret (*shutdown)(void);
    nvml_ret (*handle)(unsigned, nvml_device *);
    nvml_ret (*energy)(nvml_device, unsigned long long *);
    const char *(*error)(nvml_ret);
    unsigned count;
};

static const char *err_text(const sm_nvml *nv, nvml_ret r)
{
    const char *s = nv->error ? nv->error(r) : NULL;
    return s ? s : "NVML error";
}

sm_nvml *sm_nvml_open(char *why, size_t len)
{
    const char *name = getenv("STENCILMAP_NVML");
    if (!name || !*name) name = "libnvidia-ml.so.1";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, len, "%s cannot be loaded (no NVIDIA driver here): %s", name, dlerror());
        return NULL;
    }
    sm_nvml *nv = calloc(1, sizeof *nv);
    if (!nv) {
        dlclose(lib);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    nv->lib = lib;
    nvml_ret (*init)(void) = NULL;
    nvml_ret (*count)(unsigned *) = NULL;
    /* POSIX: a function pointer through a void * object pointer. */
    *(void **)&init = dlsym(lib, "nvmlInit_v2");
    *(void **)&count = dlsym(lib, "nvmlDeviceGetCount_v2");
    *(void **)&nv->shutdown = dlsym(lib, "nvmlShutdown");
    *(void **)&nv->handle = dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    *(void **)&nv->energy = dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption");
    *(void **)&nv->error = dlsym(lib, "nvmlErrorString");
    if (!init || !count || !nv->shutdown || !nv->handle || !nv->energy) {
        snprintf(why, len, "%s lacks the NVML entry points used (nvmlInit_v2, "
                 "nvmlDeviceGetTotalEnergyConsumption...)", name);
        dlclose(lib);
        free(nv);
        return NULL;
    }
    nvml_ret r = init();
    if (r == 0) r = count(&nv->count);
    if (r != 0) {
        snprintf(why, len, "NVML: %s", err_text(nv, r));
        dlclose(lib);
        free(nv);
        return NULL;
    }
    return nv;
}

void sm_nvml_close(sm_nvml *nv)
{
    if (!nv) return;
    nv->shutdown();
    dlclose(nv->lib);
    free(nv);
}

int sm_nvml_count(const sm_nvml *nv) { return (int)nv->count; }

int sm_nvml_energy_mj(sm_nvml *nv, int index, uint64_t *mj, char *why, size_t len)
{
    nvml_device dev;
    unsigned long long e;
    if (index < 0 || (unsigned)index >= nv->count) {
        snprintf(why, len, "NVML has no device %d (it sees %u)", index, nv->count);
        return -1;
    }
    nvml_ret r = nv->handle((unsigned)index, &dev);
    if (r == 0) r = nv->energy(dev, &e);
    if (r != 0) {
        snprintf(why, len, "NVML device %d energy: %s", index, err_text(nv, r));
        return -1;
    }
    *mj = e;
    return 0;
}
