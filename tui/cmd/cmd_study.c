/* cmd_study.c - the study command (SPEC §5): its subcommands and where each
 * lives. Reading and checking a SPEC: cmd_study_spec.c; study run:
 * cmd_study_run.c; study merge and status: cmd_study_merge.c; study plot:
 * cmd_study_plot.c. The cross product, shards and file names are
 * core/study/study_jobs_enumeration.c. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd_common.h"
#include "cmd_study.h"
#include "version.h"
#include "core/lib/jsonutil.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "core/lib/sha256.h"
#include "core/study/study_jobs_enumeration.h"
#include "core/lib/braille_plot.h"
#include "solvers/solver_registry.h"

static const sm_subcmd study_subs[] = {
    {"run", sm_study_run_cmd, 1, 5, "SPEC ?-shard I/N? -out DIR"},
    {"merge", sm_study_merge_cmd, 1, 4, "DIR ?-format list|csv|json? ?-partial?"},
    {"status", sm_study_status_cmd, 1, 1, "DIR"},
    {"plot", sm_study_plot_cmd, 1, -1, "DIR -x KEY -y KEY ?-by KEY? ?-o FILE? ?-width W? ?-height H? ?-published BOOL?"},
    {NULL, NULL, 0, 0, NULL},
};

static int study_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, study_subs);
}

void sm_register_study_cmds(sm_app *app)
{
    sm_create_ensemble(app, "study", study_cmd, study_subs);
}
