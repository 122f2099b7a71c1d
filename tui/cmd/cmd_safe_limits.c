/* cmd_safe_limits.c - a safe script's limits (SPEC 5: -limit-time,
 * -limit-memory). Time: Tcl's time limit on the safe interpreter, armed
 * for each evaluation that enters it from outside (a batch script, a
 * replay, a hook, a key binding), so a binding left behind gets its own
 * allowance. Memory: Tcl's command limit calls us every CHECK_EVERY
 * commands to compare the process's resident size with what it was when
 * the safe interpreter was made; and the commands that build one large
 * value in a single step (append, lappend, lrepeat, join, string repeat,
 * string cat) are checked before they allocate, since one of them can
 * take the process past its memory, or past the largest value Tcl can
 * hold (2 GB), where Tcl panics (SIGABRT, which no catch stops). Either
 * way the script gets {STENCILMAP SAFE LIMIT}. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd_common.h"
#include "core/model/grid_memory.h"

enum { CHECK_EVERY = 1000 };

long long sm_resident_bytes(void)
{
    long long vsz = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    if (fscanf(f, "%lld %lld", &vsz, &rss) != 2) rss = 0;
    fclose(f);
    return rss * sysconf(_SC_PAGESIZE);
}

void sm_safe_limits_default(sm_app *app)
{
    if (!(app->limit_time > 0)) app->limit_time = 600;
    if (app->limit_memory <= 0) {
        /* Half of what is available, and of what ulimit -v leaves. */
        const char *from;
        sm_err e;
        long long avail = sm_memory_available(&from, &e);
        long long room = sm_memory_rlimit_room();
        if (room >= 0 && (avail < 0 || room < avail)) avail = room;
        app->limit_memory = avail > 0 ? avail / 2 : 4LL << 30;
        if (app->limit_memory < (64LL << 20)) app->limit_memory = 64LL << 20;
    }
}

/* Bytes the process has grown by since the safe interpreter was made. */
static long long grown(sm_app *app)
{
    long long r = sm_resident_bytes();
    return r > app->rss_base ? r - app->rss_base : 0;
}

static int limit_error(sm_app *app, Tcl_Interp *in, const char *what, long long need)
{
    Tcl_SetObjResult(in, Tcl_ObjPrintf("%s would need %lld bytes: past the safe script's memory "
                                       "limit (-limit-memory %lld, %lld in use)",
                                       what, need, app->limit_memory, grown(app)));
    Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", "LIMIT", NULL);
    return TCL_ERROR;
}

/* ---- the commands that make one large value at once ---- */

enum { W_APPEND, W_LAPPEND, W_LREPEAT, W_JOIN, W_REPEAT, W_CAT };

typedef struct wrapped {
    sm_app *app;
    int kind;
    const char *name;       /* as a script writes it */
    Tcl_ObjCmdProc *proc;   /* Tcl's own command */
    ClientData cd;
} wrapped;

static long long obj_bytes(Tcl_Obj *o)
{
    int n;
    Tcl_GetStringFromObj(o, &n);
    return n;
}

/* What the command would allocate for its result, in bytes (a list's
 * element pointers, a string's bytes); -1 when it is not ours to judge
 * (bad arguments: the command itself says so). *string: the result is one
 * string, which Tcl cannot make past INT_MAX bytes. */
static long long need_of(const wrapped *w, Tcl_Interp *in, int objc, Tcl_Obj *const objv[], int *string)
{
    long long need = 0;
    *string = w->kind != W_LAPPEND && w->kind != W_LREPEAT;
    switch (w->kind) {
    case W_APPEND:
    case W_LAPPEND: {
        if (objc < 2) return -1;
        Tcl_Obj *cur = Tcl_ObjGetVar2(in, objv[1], NULL, 0);
        int n = 0;
        if (w->kind == W_APPEND) {
            need = cur ? obj_bytes(cur) : 0;
            for (int i = 2; i < objc; i++) need += obj_bytes(objv[i]);
        } else {
            if (cur && Tcl_ListObjLength(NULL, cur, &n) != TCL_OK) return -1;
            need = ((long long)n + objc - 2) * (long long)sizeof(Tcl_Obj *);
        }
        return need;
    }
    case W_LREPEAT: {
        int count;
        if (objc < 2 || Tcl_GetIntFromObj(NULL, objv[1], &count) != TCL_OK || count < 0) return -1;
        return (long long)count * (objc - 2) * (long long)sizeof(Tcl_Obj *);
    }
    case W_JOIN: {
        int n;
        Tcl_Obj **el;
        if (objc < 2 || objc > 3 || Tcl_ListObjGetElements(NULL, objv[1], &n, &el) != TCL_OK) return -1;
        long long sep = objc == 3 ? obj_bytes(objv[2]) : 1;
        for (int i = 0; i < n; i++) need += obj_bytes(el[i]);
        return need + (n > 0 ? (n - 1) * sep : 0);
    }
    case W_REPEAT: {
        Tcl_WideInt count;
        if (objc != 3 || Tcl_GetWideIntFromObj(NULL, objv[2], &count) != TCL_OK || count < 0) return -1;
        long long len = obj_bytes(objv[1]);
        if (len > 0 && count > LLONG_MAX / len) return LLONG_MAX;
        return len * count;
    }
    case W_CAT:
        for (int i = 1; i < objc; i++) need += obj_bytes(objv[i]);
        return need;
    }
    return -1;
}

static int wrapped_call(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    wrapped *w = cd;
    sm_app *app = w->app;
    int string;
    long long need = need_of(w, in, objc, objv, &string);
    const char *name = w->name;
    if (need >= 0 && string && need >= INT_MAX) {
        Tcl_SetObjResult(in, Tcl_ObjPrintf("%s: the result would be %lld bytes, past the largest value "
                                           "Tcl can hold (%d bytes)", name, need, INT_MAX));
        Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", "LIMIT", NULL);
        return TCL_ERROR;
    }
    if (need > 0 && grown(app) + need > app->limit_memory) return limit_error(app, in, name, need);
    return w->proc(w->cd, in, objc, objv);
}

static void wrap(sm_app *app, Tcl_Interp *child, const char *name, const char *shown, int kind)
{
    Tcl_CmdInfo info;
    if (!Tcl_GetCommandInfo(child, name, &info) || !info.objProc) return;
    wrapped *w = sm_xmalloc(sizeof *w);
    w->app = app;
    w->kind = kind;
    w->name = shown;
    w->proc = info.objProc;
    w->cd = info.objClientData;
    /* A new command of the same name: it has no compile procedure, so the
     * bytecode compiler cannot inline the original past the check. */
    Tcl_CreateObjCommand(child, name, wrapped_call, w, free);
}

/* ---- Tcl's limits ---- */

/* Every CHECK_EVERY commands: still within the memory limit, then on;
 * else the limit stays reached and the evaluation ends. */
static void commands_reached(ClientData cd, Tcl_Interp *in)
{
    sm_app *app = cd;
    if (grown(app) > app->limit_memory) {
        app->limit_hit = 'm';
        return;
    }
    Tcl_LimitSetCommands(in, Tcl_LimitGetCommands(in) + CHECK_EVERY);
}

static void time_reached(ClientData cd, Tcl_Interp *in)
{
    sm_app *app = cd;
    (void)in;
    app->limit_hit = 't';
}

void sm_safe_limits_install(sm_app *app, Tcl_Interp *child)
{
    sm_safe_limits_default(app);
    app->rss_base = sm_resident_bytes();
    static const struct { const char *name, *shown; int kind; } cmds[] = {
        {"append", "append", W_APPEND}, {"lappend", "lappend", W_LAPPEND},
        {"lrepeat", "lrepeat", W_LREPEAT}, {"join", "join", W_JOIN},
        {"::tcl::string::repeat", "string repeat", W_REPEAT}, {"::tcl::string::cat", "string cat", W_CAT},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        wrap(app, child, cmds[i].name, cmds[i].shown, cmds[i].kind);
    int count = 0;
    if (Tcl_Eval(child, "info cmdcount") == TCL_OK)
        Tcl_GetIntFromObj(NULL, Tcl_GetObjResult(child), &count);
    Tcl_ResetResult(child);
    Tcl_LimitSetCommands(child, count + CHECK_EVERY);
    Tcl_LimitTypeSet(child, TCL_LIMIT_COMMANDS);
    Tcl_LimitAddHandler(child, TCL_LIMIT_COMMANDS, commands_reached, app, NULL);
    Tcl_LimitAddHandler(child, TCL_LIMIT_TIME, time_reached, app, NULL);
}

int sm_safe_enter(sm_app *app)
{
    Tcl_Interp *s = app->safe;
    if (!s || Tcl_InterpActive(s)) return 0;
    Tcl_Time t;
    Tcl_GetTime(&t);
    double whole = app->limit_time > 1e9 ? 1e9 : app->limit_time;
    t.sec += (long)whole;
    t.usec += (long)((whole - (double)(long)whole) * 1e6);
    if (t.usec >= 1000000) t.sec++, t.usec -= 1000000;
    Tcl_LimitSetTime(s, &t);
    Tcl_LimitTypeSet(s, TCL_LIMIT_TIME);
    app->limit_hit = 0;
    return 1;
}

int sm_safe_leave(sm_app *app, Tcl_Interp *in, int armed, int rc)
{
    Tcl_Interp *s = app->safe;
    if (!armed || !s) return rc;
    int hit = app->limit_hit;
    if (Tcl_LimitTypeExceeded(s, TCL_LIMIT_TIME)) hit = 't';
    Tcl_LimitTypeReset(s, TCL_LIMIT_TIME);
    if (Tcl_LimitTypeExceeded(s, TCL_LIMIT_COMMANDS)) {
        if (!hit) hit = 'm';
        int at = Tcl_LimitGetCommands(s);
        Tcl_LimitTypeReset(s, TCL_LIMIT_COMMANDS);
        Tcl_LimitSetCommands(s, at + CHECK_EVERY);
        Tcl_LimitTypeSet(s, TCL_LIMIT_COMMANDS);
    }
    app->limit_hit = 0;
    if (!hit) return rc;
    if (hit == 't')
        Tcl_SetObjResult(in, Tcl_ObjPrintf("the safe script ran past its time limit (-limit-time %g s)",
                                           app->limit_time));
    else
        Tcl_SetObjResult(in, Tcl_ObjPrintf("the safe script went past its memory limit (-limit-memory "
                                           "%lld bytes; the program grew by %lld)",
                                           app->limit_memory, grown(app)));
    /* The trace starts again from this message (a batch run prints it),
     * not from Tcl's "time limit exceeded". */
    Tcl_Obj *opts = Tcl_NewListObj(0, NULL);
    Tcl_IncrRefCount(opts);
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("-code", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewIntObj(TCL_ERROR));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("-errorcode", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("STENCILMAP SAFE LIMIT", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("-errorinfo", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_GetObjResult(in));
    int rc2 = Tcl_SetReturnOptions(in, opts);
    Tcl_DecrRefCount(opts);
    return rc2;
}
