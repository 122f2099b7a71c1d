/* safe_interpreter_tcl_commands.c - the safe interpreter for scripts from elsewhere (SPEC 5:
 * -safe, session replay -safe). Tcl's own safe interpreter hides exec,
 * open, file, socket, cd, load, source, glob and the rest; we add back the
 * stencilmap commands, the pure path subcommands of `file`, puts to stdout
 * and stderr, and exit. Every stencilmap command called from there runs
 * with app->safe_depth raised, and while it is the path guard (core/lib/
 * path_guard_enforces_allowed_dirs.h) confines the files it names: reads below the current
 * directory, the script's directory, the program's data and each -allow
 * DIR; writes below each -allow DIR only (run from a home directory, a
 * script must not reach its dotfiles). Anything
 * such a script leaves to run later (a hook, a key binding) runs in the
 * safe interpreter too. */
#define _GNU_SOURCE   /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd_common.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "core/model/grid_memory.h"

#include "tui/app/installed_data_directory.h"

#ifndef SM_DATADIR
#define SM_DATADIR "/usr/local/share/stencilmap"
#endif

extern const char sm_tcl_library[];

/* ---- where a safe script may read and write ---- */

/* The program's own data: the installed data directory and, for a
 * program run from its source tree (the binary in it or in build/...),
 * that tree's samples, scripts and themes. Resolved once. */
static char *data_dirs[4];
static int data_fd[4];
static int ndata_dirs = -1;

/* A directory the guard lets accesses below: held open from now on, so
 * what is allowed is that directory, whatever its name leads to later. */
static int hold_dir(const char *r)
{
    return open(r, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static void add_data_dir(const char *d)
{
    char *r = realpath(d, NULL);
    int fd = r && ndata_dirs < 4 ? hold_dir(r) : -1;
    if (fd >= 0) {
        data_fd[ndata_dirs] = fd;
        data_dirs[ndata_dirs++] = r;
    } else {
        free(r);
    }
}

static void find_data_dirs(void)
{
    if (ndata_dirs >= 0) return;
    ndata_dirs = 0;
    add_data_dir(SM_DATADIR);
    char *exe = realpath("/proc/self/exe", NULL);
    if (!exe) return;
    /* The data found at run time (STENCILMAP_DATADIR, or the share/
     * directory beside an installed binary whatever its prefix); not the
     * source tree itself, whose parts are added below. */
    {
        const char *d = sm_datadir();
        size_t n = strlen(d);
        int tree = strncmp(exe, d, n) == 0 && exe[n] == '/';   /* the source tree holds the binary */
        if (!tree && strcmp(d, SM_DATADIR) != 0) add_data_dir(d);
    }
    for (int up = 0; up < 3; up++) {
        char *s = strrchr(exe, '/');
        if (!s || s == exe) break;
        *s = '\0';
        char probe[PATH_MAX + 32];
        snprintf(probe, sizeof probe, "%s/scripts/builtin-library.tcl", exe);
        struct stat st;
        if (stat(probe, &st) != 0) continue;
        snprintf(probe, sizeof probe, "%s/samples/default.json", exe);
        if (stat(probe, &st) != 0) continue;
        static const char *const sub[] = {"samples", "scripts", "themes"};
        for (int i = 0; i < 3 && ndata_dirs < 4; i++) {
            snprintf(probe, sizeof probe, "%s/%s", exe, sub[i]);
            add_data_dir(probe);
        }
        break;
    }
    free(exe);
}

/* The first of dirs that r is below, or -1. */
static int below_which(const char *r, char *const *dirs, int n)
{
    for (int i = 0; i < n; i++)
        if (sm_path_below(r, dirs[i])) return i;
    return -1;
}

/* The grant: directory fd (a copy of the one held) and r's path below
 * dir. The opens happen beneath it (core/lib/openat2_open_beneath_dir.h). */
static int grant_below(sm_path_grant *g, int fd, const char *r, const char *dir, sm_err *e)
{
    g->dirfd = fd;
    if (g->dirfd < 0) {
        sm_err_set(e, "%.400s: cannot open the directory that allows it: %s", dir, strerror(errno));
        return -1;
    }
    size_t n = strlen(dir);
    const char *rel = r + (n == 1 ? 1 : n);
    while (*rel == '/') rel++;
    g->rel = sm_xstrdup(rel);
    return 0;
}

/* path made absolute and `.`/`..` taken as written, no link followed:
 * pure string work, so asking it tells nothing of the file system. */
static char *lexical(const char *path)
{
    char *cwd = path[0] == '/' ? NULL : realpath(".", NULL);
    size_t n = strlen(path) + (cwd ? strlen(cwd) : 0) + 3;
    char *out = sm_xmalloc(n), *in = sm_xmalloc(n);
    snprintf(in, n, "%s/%s", cwd ? cwd : "", path);
    free(cwd);
    size_t o = 0;
    out[0] = '\0';
    for (char *c = strtok(in, "/"); c; c = strtok(NULL, "/")) {
        if (strcmp(c, ".") == 0) continue;
        if (strcmp(c, "..") == 0) {
            while (o > 0 && out[o - 1] != '/') o--;
            if (o > 0) o--;
            out[o] = '\0';
            continue;
        }
        o += (size_t)sprintf(out + o, "/%s", c);
    }
    if (o == 0) strcpy(out, "/");
    free(in);
    return out;
}

/* 1 when r is below a directory a safe script may read. */
static int readable(sm_app *app, const char *r)
{
    char *cwd = realpath(".", NULL);
    int yes = (cwd && sm_path_below(r, cwd)) || below_which(r, app->allow, app->nallow) >= 0 ||
              below_which(r, app->script_dirs, app->nscript_dirs) >= 0 ||
              (find_data_dirs(), below_which(r, data_dirs, ndata_dirs) >= 0);
    free(cwd);
    return yes;
}

/* A byte below space or DEL: no name a safe script creates holds one (a
 * newline in a file name is a line in whatever lists it). */
static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return 1;
    return 0;
}

static const char *const read_grants =
    "it reads below the current directory, the script's directory, the program's data and "
    "each -allow DIR";
static const char *const write_grants = "it writes only below each -allow DIR";

/* The refusal, the same whether the path exists or not: outside the
 * grants nothing found on the way (a link's target, a loop, a missing
 * directory) shows in it. */
static void refuse(sm_err *e, const char *path, const char *r, int mode)
{
    int same = !r || strcmp(r, path) == 0;
    sm_err_set(e, "%.400s%s%.400s%s: a safe script may not %s there (%s)", path,
               same ? "" : " (that is ", same ? "" : r, same ? "" : ")",
               mode == SM_PATH_WRITE ? "write" : "read",
               mode == SM_PATH_WRITE ? write_grants : read_grants);
}

static int guard(void *ctx, const char *path, int mode, sm_path_grant *g, sm_err *e)
{
    sm_app *app = ctx;
    if (app->safe_depth == 0) return 0;
    /* Where the name leads may be told only when the name itself lies
     * where the script may read (its links are the script's to see). */
    char *lex = lexical(path);
    int visible = readable(app, lex);
    free(lex);
    if (mode == SM_PATH_WRITE && has_control(path)) {
        sm_err_set(e, "%.400s: a safe script may not create a name holding a control character",
                   path);
        app->safe_denied = 1;
        return -1;
    }
    sm_err re;
    char *r = sm_path_resolve(path, &re);
    if (!r) {
        if (visible) *e = re;
        else refuse(e, path, NULL, mode);
        app->safe_denied = 1;
        return -1;
    }
    int rc = 1, k;
    /* Writes: each -allow DIR, and nothing else; the current directory
     * (a home, perhaps) is not a write grant. */
    if ((k = below_which(r, app->allow, app->nallow)) >= 0) {
        rc = grant_below(g, fcntl(app->allow_fd[k], F_DUPFD_CLOEXEC, 0), r, app->allow[k], e);
    } else if (mode == SM_PATH_READ) {
        /* The current directory as it is now (a safe script cannot cd),
         * held by its inode: "." opened, not its name. */
        char *cwd = realpath(".", NULL);
        find_data_dirs();
        if (cwd && sm_path_below(r, cwd))
            rc = grant_below(g, open(".", O_PATH | O_DIRECTORY | O_CLOEXEC), r, cwd, e);
        else if ((k = below_which(r, app->script_dirs, app->nscript_dirs)) >= 0)
            rc = grant_below(g, fcntl(app->script_fd[k], F_DUPFD_CLOEXEC, 0), r,
                             app->script_dirs[k], e);
        else if ((k = below_which(r, data_dirs, ndata_dirs)) >= 0)
            rc = grant_below(g, fcntl(data_fd[k], F_DUPFD_CLOEXEC, 0), r, data_dirs[k], e);
        free(cwd);
    }
    if (rc == 1) refuse(e, path, visible ? r : NULL, mode);
    if (rc) app->safe_denied = 1;
    free(r);
    return rc ? -1 : 0;
}

/* An open found a granted path leading outside (a link swapped in since
 * the check): the policy's refusal all the same. */
static void refused(void *ctx)
{
    sm_app *app = ctx;
    app->safe_denied = 1;
}

/* ::stencilmap::confined CMD: CMD (a list) run in the safe interpreter;
 * how a recording writes what a safe script did. From the safe
 * interpreter itself, just CMD. */
static int confined_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    if (objc != 2) {
        Tcl_WrongNumArgs(in, 1, objv, "CMD");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    Tcl_Interp *safe = in == app->interp ? sm_safe_interp(app) : in;
    if (!safe) return TCL_ERROR;
    int armed = sm_safe_enter(app);
    int rc, fell = 0;
    /* Armed: called from the main interpreter, the safe one idle. */
    if (armed) rc = sm_safe_net_eval(app, safe, NULL, objv[1], in, &fell);
    else rc = Tcl_EvalObjEx(safe, objv[1], TCL_EVAL_GLOBAL);
    if (fell) return sm_safe_leave(app, in, armed, rc);
    rc = sm_safe_leave(app, safe, armed, rc);
    if (safe != in) Tcl_TransferResult(safe, rc, in);
    return rc;
}

static void create_confined(sm_app *app, Tcl_Interp *in)
{
    Tcl_Eval(in, "namespace eval ::stencilmap {}");
    Tcl_ResetResult(in);
    Tcl_CreateObjCommand(in, "::stencilmap::confined", confined_cmd, app, NULL);
}

void sm_safe_init(sm_app *app)
{
    sm_path_guard_set(guard, refused, app);
    create_confined(app, app->interp);
}

int sm_safe_allow(sm_app *app, const char *dir, sm_err *e)
{
    struct stat st;
    char *r = realpath(dir, NULL);
    int fd = r ? hold_dir(r) : -1;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(r);
        if (fd >= 0) close(fd);
        sm_err_set(e, "-allow %s: not a directory", dir);
        return -1;
    }
    app->allow = sm_xrealloc(app->allow, sizeof(char *) * (size_t)(app->nallow + 1));
    app->allow_fd = sm_xrealloc(app->allow_fd, sizeof(int) * (size_t)(app->nallow + 1));
    app->allow_fd[app->nallow] = fd;
    app->allow[app->nallow++] = r;
    return 0;
}

int sm_safe_push_script(sm_app *app, const char *file)
{
    sm_err e;
    char *r = sm_path_resolve(file, &e);
    if (!r) return 0;
    char *dir = sm_dirname(r);
    free(r);
    app->script_dirs = sm_xrealloc(app->script_dirs, sizeof(char *) * (size_t)(app->nscript_dirs + 1));
    app->script_fd = sm_xrealloc(app->script_fd, sizeof(int) * (size_t)(app->nscript_dirs + 1));
    /* -1 when it cannot be opened: then nothing is granted below it. */
    app->script_fd[app->nscript_dirs] = hold_dir(dir);
    app->script_dirs[app->nscript_dirs++] = dir;
    return 1;
}

void sm_safe_pop_script(sm_app *app)
{
    if (app->nscript_dirs > 0) {
        app->nscript_dirs--;
        free(app->script_dirs[app->nscript_dirs]);
        if (app->script_fd[app->nscript_dirs] >= 0) close(app->script_fd[app->nscript_dirs]);
    }
}

void sm_safe_free(sm_app *app)
{
    for (int i = 0; i < app->nallow; i++) {
        free(app->allow[i]);
        close(app->allow_fd[i]);
    }
    free(app->allow);
    free(app->allow_fd);
    for (int i = 0; i < app->nscript_dirs; i++) {
        free(app->script_dirs[i]);
        if (app->script_fd[i] >= 0) close(app->script_fd[i]);
    }
    free(app->script_dirs);
    free(app->script_fd);
    app->allow = app->script_dirs = NULL;
    app->allow_fd = app->script_fd = NULL;
    app->nallow = app->nscript_dirs = 0;
}

int sm_safe_check_path(sm_app *app, Tcl_Interp *in, const char *path, int mode)
{
    sm_err e;
    if (sm_path_check(path, mode, &e) == 0) return TCL_OK;
    Tcl_SetObjResult(in, Tcl_NewStringObj(e.msg, -1));
    Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", "PATH", NULL);
    (void)app;
    return TCL_ERROR;
}

Tcl_Interp *sm_app_script_interp(sm_app *app)
{
    if ((app->confined || app->safe_depth > 0) && sm_safe_interp(app)) return app->safe;
    return app->interp;
}

/* ---- the commands seen from the safe interpreter ---- */

/* A stencilmap command called from the safe interpreter: the same
 * command, with the path guard on while it runs. A refusal anywhere inside
 * (a scenario's topology file, a study's scenarios) makes the error
 * {STENCILMAP SAFE PATH}. */
typedef struct safe_cmd {
    sm_app *app;
    Tcl_ObjCmdProc *proc;
} safe_cmd;

static int safe_call(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    safe_cmd *w = cd;
    sm_app *app = w->app;
    int denied_before = app->safe_denied;
    /* The time limit passed in C work (a command before this one): no
     * more commands; one it passes inside ends with the limit's error. */
    if (app->limit_tripped) return sm_safe_limit_raise(app, in);
    app->safe_denied = 0;
    /* A grid this command builds (grid create, a scenario or grid
     * loaded) is held to what is left of -limit-memory, before it is
     * built: one C command could take the process past it. */
    if (app->safe_depth == 0) sm_memory_set_cap(sm_safe_memory_left(app), "what is left of the safe script's -limit-memory");
    app->safe_depth++;
    int rc = w->proc(app, in, objc, objv);
    app->safe_depth--;
    if (app->safe_depth == 0) sm_memory_set_cap(-1, NULL);
    if (app->limit_tripped) rc = sm_safe_limit_raise(app, in);
    if (rc == TCL_ERROR && app->safe_denied) Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", "PATH", NULL);
    app->safe_denied = denied_before || (rc == TCL_ERROR && app->safe_denied);
    return rc;
}

static void safe_cmd_free(ClientData cd) { free(cd); }

void sm_safe_create_command(sm_app *app, Tcl_Interp *child, const char *name, Tcl_ObjCmdProc *proc)
{
    safe_cmd *w = sm_xmalloc(sizeof *w);
    w->app = app;
    w->proc = proc;
    Tcl_CreateObjCommand(child, name, safe_call, w, safe_cmd_free);
}

/* file dirname|join|tail|rootname|extension|split|pathtype|
 * separator: the subcommands that only take names apart and put them
 * together (what Tcl's safe base offers too); everything that touches the
 * file system stays hidden. Run by the main interpreter's own
 * ::tcl::file commands, which a script there may not have renamed. */
static int safe_file(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    static const char *const subs[] = {"dirname", "extension", "join", "pathtype",
                                       "rootname", "separator", "split", "tail", NULL};
    int idx;
    if (objc < 2) {
        Tcl_WrongNumArgs(in, 1, objv, "subcommand ?arg ...?");
        return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObj(NULL, objv[1], subs, "", 0, &idx) != TCL_OK) {
        Tcl_SetObjResult(in, Tcl_ObjPrintf("file %s: not available to a safe script (it may use "
                                           "file dirname, extension, join, pathtype, "
                                           "rootname, separator, split and tail)",
                                           Tcl_GetString(objv[1])));
        Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", NULL);
        return TCL_ERROR;
    }
    /* ~ and ~user are names like any other here: Tcl would expand them
     * (file dirname ~www-data is /var), telling who has an account and
     * where their home is. "./~x" is the same name, not expanded. */
    int tilde = 0, split = strcmp(subs[idx], "split") == 0 || strcmp(subs[idx], "join") == 0;
    Tcl_Obj **w = sm_xmalloc(sizeof(Tcl_Obj *) * (size_t)objc);
    w[0] = Tcl_ObjPrintf("::tcl::file::%s", subs[idx]);
    for (int i = 2; i < objc; i++) {
        const char *a = Tcl_GetString(objv[i]);
        w[i - 1] = objv[i];
        if (a[0] == '~' && !split) {
            w[i - 1] = Tcl_ObjPrintf("./%s", a);
            tilde = 1;
        }
    }
    Tcl_Obj *cmd = Tcl_NewListObj(objc - 1, w);
    free(w);
    Tcl_IncrRefCount(cmd);
    int rc = Tcl_EvalObjEx(app->interp, cmd, TCL_EVAL_GLOBAL | TCL_EVAL_DIRECT);
    Tcl_DecrRefCount(cmd);
    const char *r = Tcl_GetStringResult(app->interp);
    if (rc == TCL_OK && tilde && strncmp(r, "./~", 3) == 0)
        Tcl_SetObjResult(app->interp, Tcl_NewStringObj(r + 2, -1));
    Tcl_TransferResult(app->interp, rc, in);
    return rc;
}

/* exit from the safe interpreter: the program's exit when the whole run
 * is the safe script's (-safe -b); in the workbench, a quit as `exit`
 * there is (never over unsaved work); a script replayed into someone
 * else's batch run does not end it. */
static int safe_exit(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    if (app->screen) return sm_workbench_exit(cd, in, objc, objv);
    if (!app->confined)
        return sm_tcl_error(in, "SAFE", "exit: a replayed safe script may not end the program");
    Tcl_Obj **w = sm_xmalloc(sizeof(Tcl_Obj *) * (size_t)objc);
    w[0] = Tcl_NewStringObj("exit", -1);
    for (int i = 1; i < objc; i++) w[i] = objv[i];
    Tcl_Obj *cmd = Tcl_NewListObj(objc, w);
    free(w);
    Tcl_IncrRefCount(cmd);
    int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(cmd);
    return rc;
}

Tcl_Interp *sm_safe_interp(sm_app *app)
{
    if (app->safe) return app->safe;
    Tcl_Interp *in = app->interp;
    /* After a Tcl panic abandoned one, the next has a name of its own. */
    char name_buf[64];
    if (app->safe_dead) snprintf(name_buf, sizeof name_buf, "%s-%d", SM_SAFE_NAME, app->safe_dead + 1);
    else snprintf(name_buf, sizeof name_buf, "%s", SM_SAFE_NAME);
    Tcl_Interp *child = Tcl_CreateChild(in, name_buf, 1);
    if (!child) {
        sm_tcl_error(in, "STATE", "cannot create the safe interpreter");
        return NULL;
    }
    Tcl_ObjCmdProc *proc;
    const char *name;
    for (int i = 0; (name = sm_ensemble_at(i, &proc)) != NULL; i++)
        sm_safe_create_command(app, child, name, proc);
    Tcl_CreateObjCommand(child, "file", safe_file, app, NULL);
    create_confined(app, child);
    /* Safe interpreters start without the standard channels. */
    for (int k = TCL_STDOUT; k <= TCL_STDERR; k <<= 1) {
        Tcl_Channel ch = Tcl_GetStdChannel(k);
        if (ch) Tcl_RegisterChannel(child, ch);
    }
    Tcl_CreateObjCommand(in, "::stencilmap::safe_exit", safe_exit, app, NULL);
    if (Tcl_CreateAlias(child, "exit", in, "::stencilmap::safe_exit", 0, NULL) != TCL_OK ||
        Tcl_Eval(child, sm_tcl_library) != TCL_OK) {
        sm_tcl_error(in, "STATE", "safe interpreter: %s", Tcl_GetStringResult(child));
        Tcl_DeleteInterp(child);
        return NULL;
    }
    sm_safe_limits_install(app, child);
    app->safe = child;
    return child;
}

Tcl_Obj *sm_script_for_main(sm_app *app, Tcl_Interp *in, Tcl_Obj *script)
{
    if (in == app->interp) return script;
    Tcl_Obj *w[2] = {Tcl_NewStringObj("::stencilmap::confined", -1), script};
    return Tcl_NewListObj(2, w);
}
