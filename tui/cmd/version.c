/* version.c - versions for --version and study provenance. */
#include "version.h"
#include <cjson/cJSON.h>
#include <lpsolve/lp_lib.h>
#include <tcl.h>
#ifdef SM_HAVE_HWLOC
#include <hwloc.h>
#endif
#include "tui/workbench/workbench.h"

const char *sm_version_program(void) { return "stencilmap " SM_VERSION; }

const char *sm_version_libraries(char *buf, size_t n)
{
    int tmaj, tmin, tpatch, ttype;
    Tcl_GetVersion(&tmaj, &tmin, &tpatch, &ttype);
    int lmaj, lmin, lrel, lbuild;
    lp_solve_version(&lmaj, &lmin, &lrel, &lbuild);
    int k = snprintf(buf, n, "Tcl %d.%d.%d, %s, cJSON %s, lp_solve %d.%d.%d.%d", tmaj, tmin, tpatch,
                     sm_tui_curses_version(), cJSON_Version(), lmaj, lmin, lrel, lbuild);
#ifdef SM_HAVE_HWLOC
    unsigned h = hwloc_get_api_version();
    if (k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ", hwloc API %u.%u.%u", h >> 16, (h >> 8) & 0xff, h & 0xff);
#else
    if (k > 0 && (size_t)k < n) snprintf(buf + k, n - (size_t)k, ", without hwloc");
#endif
    return buf;
}
