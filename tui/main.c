/* main.c - stencilmap: batch mode (-b FILE), one-shot evaluation (-e),
 * or the interactive workbench on a scenario. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcl.h>
#include "core/io/scenario_file_load_save.h"
#include "core/lib/util.h"
#include "tui/app/app.h"
#include "tui/cmd/cmd_common.h"
#include "tui/cmd/version.h"
#include "tui/workbench/workbench.h"
#include "core/lib/atomic_file_write.h"


extern const char sm_tcl_library[];

static void usage(FILE *f)
{
    fputs("usage: stencilmap [OPTION ...] [--] [SCENARIO]\n"
          "       stencilmap [-safe [-allow DIR]... [-limit-time S] [-limit-memory B]]\n"
          "                  -b FILE|- [ARG ...]\n"
          "       stencilmap [-safe [-allow DIR]... [-limit-...]] -e SCRIPT [SCENARIO]\n"
          "\n"
          "With no -b or -e, open the interactive workbench on SCENARIO (a\n"
          "stencilmap/scenario JSON file), or on the built-in default scenario.\n"
          "\n"
          "  -b, --batch FILE    run the Tcl script FILE (- reads it from standard\n"
          "                      input) with no terminal; the ARGs after it are its\n"
          "                      argv, as tclsh sets them (options included)\n"
          "  -e, --eval SCRIPT   load SCENARIO when given, evaluate SCRIPT and print\n"
          "                      its result\n"
          "  -safe, --safe       with -b or -e: run the script in a safe Tcl\n"
          "                      interpreter (no exec, open, file, socket, cd, load,\n"
          "                      source or glob); the stencilmap commands keep working,\n"
          "                      reading files only below the current directory, the\n"
          "                      script's directory, the program's data and each -allow\n"
          "                      DIR, writing only below each -allow DIR\n"
          "  -allow, --allow DIR with -safe: one more directory to read and write\n"
          "  -limit-time SECONDS time a safe script (-safe, session replay -safe, or a\n"
          "                      hook or binding one left) may run before STENCILMAP\n"
          "                      SAFE LIMIT, inside long commands too (600)\n"
          "  -limit-memory BYTES how much the program may grow for a safe script\n"
          "                      (K, M, G suffixes; default half of what is available)\n"
          "  -h, --help          print this help and exit\n"
          "  -V, --version       print the version and the libraries' versions and exit\n"
          "  --                  end of options: what follows is a file name even if it\n"
          "                      starts with '-'\n"
          "\n"
          "Every file a command names may be - for standard input (loads) or standard\n"
          "output (saves and exports), in batch and -e; e.g.\n"
          "  stencilmap -e 'graph export -format metis -' SCENARIO > grid.graph\n"
          "\n"
          "Exit status: 0 success; 1 a script or scenario failed (the Tcl error and\n"
          "errorInfo on stderr), or `exit 1`; 2 a usage error; a script's `exit N`\n"
          "exits with N.\n"
          "\n"
          "Environment: XDG_STATE_HOME (journals), STENCILMAP_DATADIR (installed data),\n"
          "STENCILMAP_THEMES (themes), TERM, NO_COLOR, STENCILMAP_STUDY_SHARDS.\n"
          "See stencilmap(1), stencilmap-script(7), stencilmap-model(7) and\n"
          "stencilmap-formats(5).\n",
          f);
}

static int usage_error(const char *fmt, const char *what)
{
    fputs("stencilmap: ", stderr);
    fprintf(stderr, fmt, what);
    fputs("\nTry 'stencilmap --help'.\n", stderr);
    return 2;
}

static void print_version(void)
{
    char libs[512];
    printf("%s\n%s\n", sm_version_program(), sm_version_libraries(libs, sizeof libs));
}

static void set_argv(Tcl_Interp *in, const char *argv0, int argc, char **argv)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < argc; i++) Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(argv[i], -1));
    Tcl_SetVar2Ex(in, "argv", NULL, l, TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in, "argc", NULL, Tcl_NewIntObj(argc), TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in, "argv0", NULL, Tcl_NewStringObj(argv0, -1), TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in, "tcl_interactive", NULL, Tcl_NewIntObj(0), TCL_GLOBAL_ONLY);
}

static sm_app *the_app;

/* `exit N` inside a script ends the process through Tcl_Exit: free the
 * session on the way out so batch runs are leak-free. */
static void exit_handler(ClientData cd)
{
    (void)cd;
    /* Not with a safe interpreter a Tcl panic abandoned mid-evaluation:
     * deleting it (with its parent) would be Tcl's next panic. */
    if (the_app && the_app->interp && !the_app->safe_dead) {
        Tcl_DeleteInterp(the_app->interp);
        the_app->interp = NULL;
    }
    sm_app_free(the_app);
    the_app = NULL;
    sm_filestate_forget_all();
}

/* "-" as a file to write: through Tcl's stdout channel, so it lands in
 * order with `puts`; the workbench's screen is no place for it. */
static int stdout_used;   /* a file went to standard output */

static int stdout_write(const char *data, size_t len, sm_err *e)
{
    stdout_used = 1;
    if (the_app && the_app->screen) {
        sm_err_set(e, "- (standard output): the workbench's terminal is the screen; name a file");
        return -1;
    }
    Tcl_Channel ch = Tcl_GetStdChannel(TCL_STDOUT);
    if (!ch) {
        sm_err_set(e, "- (standard output): closed");
        return -1;
    }
    if (Tcl_WriteRaw(ch, data, (int)len) < 0 || Tcl_Flush(ch) != TCL_OK) {
        sm_err_set(e, "- (standard output): write failed: %s", Tcl_ErrnoMsg(Tcl_GetErrno()));
        return -1;
    }
    return 0;
}

/* exit: Tcl's, except while the workbench runs (the console, a key
 * binding, screen keys): then it ends the workbench the way q does (SPEC
 * 5), never over unsaved work and never with the terminal left raw. */
static Tcl_ObjCmdProc *tcl_exit;
static ClientData tcl_exit_cd;

static int exit_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    if (app->screen) return sm_workbench_exit(app, in, objc, objv);
    return tcl_exit(tcl_exit_cd, in, objc, objv);
}

static void wrap_exit(sm_app *app, Tcl_Interp *in)
{
    Tcl_CmdInfo info;
    if (!Tcl_GetCommandInfo(in, "exit", &info) || !info.objProc) return;
    tcl_exit = info.objProc;
    tcl_exit_cd = info.objClientData;
    Tcl_CreateObjCommand(in, "exit", exit_cmd, app, NULL);
}

/* A save over a file changed on disk since this session read it (another
 * instance saved it): the workbench asks; batch refuses (FILE CHANGED). */
static int ask_file_changed(const char *path)
{
    if (!the_app || !the_app->screen || !the_app->screen->confirm) return 0;
    char q[600];
    snprintf(q, sizeof q, "%.400s changed on disk since this session read it (another instance?). "
             "Overwrite it? (y/n)", path);
    return the_app->screen->confirm(the_app, q);
}

/* A -safe batch script, evaluated under the net for Tcl panics. */
typedef struct batch_file {
    Tcl_Interp *in;
    const char *file;
} batch_file;

static int eval_file_in(Tcl_Interp *in, const char *file);

static int batch_file_eval(void *ctx)
{
    batch_file *f = ctx;
    return eval_file_in(f->in, f->file);
}

static int report_error(Tcl_Interp *in)
{
    const char *info = Tcl_GetVar2(in, "errorInfo", NULL, TCL_GLOBAL_ONLY);
    fprintf(stderr, "%s\n", info ? info : Tcl_GetStringResult(in));
    return 1;
}

/* Load a scenario named on the command line: the path is one word of a
 * list, never pasted into a script. */
static int load_scenario(Tcl_Interp *in, const char *path)
{
    Tcl_Obj *w[3] = {Tcl_NewStringObj("scenario", -1), Tcl_NewStringObj("load", -1),
                     Tcl_NewStringObj(path, -1)};
    Tcl_Obj *cmd = Tcl_NewListObj(3, w);
    Tcl_IncrRefCount(cmd);
    int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(cmd);
    if (rc != TCL_OK) fprintf(stderr, "stencilmap: %s\n", Tcl_GetStringResult(in));
    return rc;
}

/* A script file for -safe -b: read by us, evaluated there (the safe
 * interpreter cannot open files itself). */
static int eval_file_in(Tcl_Interp *in, const char *path)
{
    sm_err e;
    size_t len;
    char *text = sm_read_file(path, SM_READ_ANY_SIZE, &len, &e);
    if (!text) {
        Tcl_SetObjResult(in, Tcl_NewStringObj(e.msg, -1));
        Tcl_SetVar2(in, "errorInfo", NULL, e.msg, TCL_GLOBAL_ONLY);
        return TCL_ERROR;
    }
    /* [info script] as source would set it. */
    Tcl_Obj *w[3] = {Tcl_NewStringObj("info", -1), Tcl_NewStringObj("script", -1),
                     Tcl_NewStringObj(path, -1)};
    Tcl_EvalObjEx(in, Tcl_NewListObj(3, w), TCL_EVAL_GLOBAL);
    Tcl_ResetResult(in);
    int rc = Tcl_EvalEx(in, text, (int)len, TCL_EVAL_GLOBAL);
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"batch", required_argument, NULL, 'b'},
        {"eval", required_argument, NULL, 'e'},
        {"safe", no_argument, NULL, 's'},
        {"allow", required_argument, NULL, 'a'},
        {"limit-time", required_argument, NULL, 'T'},
        {"limit-memory", required_argument, NULL, 'M'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int safe = 0, batch = 0, oneshot = 0;
    const char *arg = NULL;   /* the script file (-b) or text (-e) */
    /* -allow DIR...: where a safe script may also read and write. */
    enum { MAX_ALLOW = 64 };
    const char *allow[MAX_ALLOW];
    int nallow = 0;
    double limit_time = 0;
    long long limit_memory = 0;
    opterr = 0;
    /* '+': options stop at the first operand, and -b FILE stops them too,
     * so a script's own arguments are never taken for ours. getopt_long_only
     * keeps the single-dash -safe of earlier versions. */
    for (;;) {
        int c = getopt_long_only(argc, argv, "+:b:e:hV", longopts, NULL);
        if (c == -1) break;
        switch (c) {
        case 'b':
        case 'e':
            if (batch || oneshot) return usage_error("%s: only one of -b and -e", argv[optind - 1]);
            *(c == 'b' ? &batch : &oneshot) = 1;
            arg = optarg;
            break;
        case 's': safe = 1; break;
        case 'a':
            if (nallow == MAX_ALLOW) return usage_error("%s: too many -allow directories", optarg);
            allow[nallow++] = optarg;
            break;
        case 'T':
        case 'M': {
            char *end;
            double v = strtod(optarg, &end);
            double mul = 1;
            if (c == 'M' && *end && strchr("kKmMgGtT", *end)) {
                mul = *end == 'k' || *end == 'K' ? 1024.0 : *end == 'm' || *end == 'M' ? 1048576.0
                      : *end == 'g' || *end == 'G' ? 1073741824.0 : 1099511627776.0;
                end++;
            }
            if (end == optarg || *end || !(v > 0) || v * mul > 9e18)
                return usage_error(c == 'T' ? "-limit-time %s: expected seconds above 0"
                                            : "-limit-memory %s: expected bytes above 0 (a K, M, G or T "
                                              "suffix allowed)", optarg);
            if (c == 'T') limit_time = v;
            else limit_memory = (long long)(v * mul);
            break;
        }
        case 'h':
            usage(stdout);
            return 0;
        case 'V':
            print_version();
            return 0;
        case ':': return usage_error("%s needs an argument", argv[optind - 1]);
        default: return usage_error("unknown option %s", argv[optind - 1]);
        }
        if (batch) break;
    }
    if (safe && !batch && !oneshot) return usage_error("%s", "-safe goes with -b or -e");
    if (nallow && !safe) return usage_error("%s", "-allow goes after -safe");
    /* Without -safe the limits are those of the safe scripts the run
     * meets (session replay -safe, what such a script left behind). */
    int nrest = argc - optind;
    char **rest = argv + optind;
    if (!batch && nrest > 1) return usage_error("%s: one scenario at most", rest[1]);

    Tcl_FindExecutable(argv[0]);
    Tcl_Interp *in = Tcl_CreateInterp();
    if (Tcl_Init(in) != TCL_OK) {
        /* Without init.tcl, packages such as tcltest are unavailable, but
         * every stencilmap command still works. */
        Tcl_ResetResult(in);
    }

    sm_err e;
    sm_app *app = sm_app_new(in, &e);
    if (!app) {
        fprintf(stderr, "stencilmap: %s\n", e.msg);
        Tcl_DeleteInterp(in);
        return 1;
    }
    the_app = app;
    sm_stdout_hook = stdout_write;
    sm_file_changed_hook = ask_file_changed;
    Tcl_CreateExitHandler(exit_handler, NULL);
    sm_safe_init(app);
    for (int k = 0; k < nallow; k++)
        if (sm_safe_allow(app, allow[k], &e)) {
            fprintf(stderr, "stencilmap: %s\n", e.msg);
            Tcl_Exit(2);
        }
    app->confined = safe;
    app->limit_time = limit_time;
    app->limit_memory = limit_memory;
    sm_safe_limits_default(app);
    sm_cmd_register_all(app);
    wrap_exit(app, in);
    if (Tcl_Eval(in, sm_tcl_library) != TCL_OK) {
        report_error(in);
        Tcl_Exit(1);
    }
    /* The script's interpreter: this one, or the safe child. */
    Tcl_Interp *run = in;
    if (safe && !(run = sm_safe_interp(app))) {
        report_error(in);
        Tcl_Exit(1);
    }
    if (batch) set_argv(run, arg, nrest, rest);
    else set_argv(run, argv[0], 0, NULL);

    int status = 0;
    if (batch) {
        /* "-" is standard input; a safe script is read by us too, and its
         * own directory is one it may read. */
        if (safe && strcmp(arg, "-") != 0) sm_safe_push_script(app, arg);
        int armed = safe ? sm_safe_enter(app) : 0;
        int rc, fell = 0;
        if (safe) {
            batch_file f = {run, arg};
            rc = sm_safe_net_run(app, in, batch_file_eval, &f, &fell);
            if (fell) run = in;
        } else {
            rc = strcmp(arg, "-") == 0 ? eval_file_in(run, arg) : Tcl_EvalFile(run, arg);
        }
        rc = sm_safe_leave(app, run, armed, rc);
        if (rc != TCL_OK) status = report_error(run);
    } else if (oneshot) {
        if (nrest == 1 && load_scenario(in, rest[0]) != TCL_OK) Tcl_Exit(1);
        int armed = safe ? sm_safe_enter(app) : 0;
        int rc, fell = 0;
        if (safe) {
            rc = sm_safe_net_eval(app, run, arg, NULL, in, &fell);
            if (fell) run = in;
        } else {
            rc = Tcl_EvalEx(run, arg, -1, TCL_EVAL_GLOBAL);
        }
        if (sm_safe_leave(app, run, armed, rc) != TCL_OK)
            status = report_error(run);
        else {
            /* A script that wrote a file to standard output made that its
             * output: the result would only be appended to it. */
            const char *r = Tcl_GetStringResult(run);
            if (*r && !stdout_used) printf("%s\n", r);
        }
    } else {
        if (nrest == 1 && load_scenario(in, rest[0]) != TCL_OK) Tcl_Exit(1);
        sm_console_capture(app);
        status = sm_tui_run(app);
        if (!status) status = app->exit_status;
        sm_console_release(app);
    }
    fflush(stdout);
    Tcl_Exit(status);
    return status;
}
