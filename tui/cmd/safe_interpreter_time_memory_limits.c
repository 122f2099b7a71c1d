/* safe_interpreter_time_memory_limits.c - a safe script's limits (SPEC 5: -limit-time,
 * -limit-memory). Time: Tcl's time limit on the safe interpreter, armed
 * for each evaluation that enters it from outside (a batch script, a
 * replay, a hook, a key binding), so a binding left behind gets its own
 * allowance; a watchdog thread carries it into long C commands (below).
 * Memory: Tcl's command limit calls us every CHECK_EVERY commands to
 * compare the process's resident size with what it was when the safe
 * interpreter was made; and the commands that build one large value in a
 * single step (append, lappend, lrepeat, join, concat, format, string
 * repeat|cat|map|replace, regsub, binary encode) are checked before they
 * allocate, since one of them can take the process past its memory, or
 * past the largest value Tcl can hold (2 GB), where Tcl panics (SIGABRT,
 * which no catch stops). What no command check can see (a list's text
 * past 2 GB, "$s$s" in bytecode) falls into the net for Tcl panics
 * (below). Every way, the script gets {STENCILMAP SAFE LIMIT}. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

long long sm_safe_memory_left(sm_app *app)
{
    long long left = app->limit_memory - grown(app);
    return left > 0 ? left : 0;
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

enum { W_APPEND, W_LAPPEND, W_LREPEAT, W_JOIN, W_REPEAT, W_CAT, W_CONCAT, W_FORMAT, W_MAP, W_REGSUB,
       W_REPLACE, W_HEX, W_BASE64, W_UUENCODE };

/* A width or precision format pads to one character at a time (Tcl
 * appends each): 1 GB takes half a minute inside one command, past any
 * time limit. No real format needs more than this many. */
#define FORMAT_PAD_MAX (64LL << 20)

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

/* format FMT ?ARG ...?: the bytes of the result at most (each
 * conversion gives its argument, padded to its width, or its precision's
 * digits), or LLONG_MAX for a width or precision past FORMAT_PAD_MAX;
 * -1 when it is not ours to judge. */
static long long format_need(int objc, Tcl_Obj *const objv[])
{
    if (objc < 2) return -1;
    int fn;
    const char *f = Tcl_GetStringFromObj(objv[1], &fn);
    long long need = fn, widest = 0;
    int arg = 2;
    for (int i = 2; i < objc; i++)
        if (obj_bytes(objv[i]) > widest) widest = obj_bytes(objv[i]);
    for (int k = 0; k < fn; k++) {
        if (f[k] != '%') continue;
        k++;
        if (k < fn && f[k] == '%') continue;
        /* An XPG position (%2$s) */
        int d = k, xpg = 0;
        while (d < fn && f[d] >= '0' && f[d] <= '9') d++;
        if (d < fn && d > k && f[d] == '$') k = d + 1, xpg = 1;
        while (k < fn && strchr("-+ 0#", f[k])) k++;
        long long pad[2] = {0, 0};
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (k >= fn || f[k] != '.') break;
                k++;
            }
            if (k < fn && f[k] == '*') {
                int v = 0;
                if (arg < objc && Tcl_GetIntFromObj(NULL, objv[arg], &v) == TCL_OK) pad[part] = v < 0 ? -(long long)v : v;
                arg++;
                k++;
            } else {
                long long v = 0;
                while (k < fn && f[k] >= '0' && f[k] <= '9') {
                    if (v < LLONG_MAX / 20) v = v * 10 + (f[k] - '0');
                    k++;
                }
                pad[part] = v;
            }
        }
        if (pad[0] > FORMAT_PAD_MAX || pad[1] > FORMAT_PAD_MAX) return LLONG_MAX;
        /* Positional: any argument, the widest counted each time. */
        long long a = xpg ? widest : arg < objc ? obj_bytes(objv[arg]) : 0;
        arg++;
        need += (a > pad[0] ? a : pad[0]) + pad[1] + 32;
    }
    return need;
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
    case W_CONCAT:
        for (int i = 1; i < objc; i++) need += obj_bytes(objv[i]) + 1;
        return need;
    case W_FORMAT: return format_need(objc, objv);
    case W_MAP: {
        /* string map ?-nocase? MAPPING STRING: each match of a key (one
         * byte at least) becomes its value: the string grows by the
         * largest value/key ratio at most. */
        int n;
        Tcl_Obj **kv;
        if (objc < 3 || Tcl_ListObjGetElements(NULL, objv[objc - 2], &n, &kv) != TCL_OK || n % 2) return -1;
        long long len = obj_bytes(objv[objc - 1]), grow = 1;
        for (int i = 0; i + 1 < n; i += 2) {
            long long k = obj_bytes(kv[i]), v = obj_bytes(kv[i + 1]);
            if (k > 0 && (v + k - 1) / k > grow) grow = (v + k - 1) / k;
        }
        return len > 0 && grow > LLONG_MAX / len ? LLONG_MAX : len * grow;
    }
    case W_REGSUB: {
        /* regsub ?switches? EXP STRING SUBSPEC ?VAR?: matches do not
         * overlap, so with -all there are len+1 at most (empty ones),
         * each the literal part of SUBSPEC plus one copy of a match per
         * & or \N in it; the copies add up to len per reference. */
        int i = 1, all = 0;
        for (; i < objc; i++) {
            const char *a = Tcl_GetString(objv[i]);
            if (a[0] != '-') break;
            if (strcmp(a, "--") == 0) { i++; break; }
            if (strcmp(a, "-all") == 0) all = 1;
            else if (strcmp(a, "-start") == 0) i++;
        }
        if (objc - i < 3 || objc - i > 4) return -1;
        int sn;
        const char *sub = Tcl_GetStringFromObj(objv[i + 2], &sn);
        long long len = obj_bytes(objv[i + 1]), refs = 0, lit = 0;
        for (int k = 0; k < sn; k++) {
            if (sub[k] == '&' || (sub[k] == '\\' && k + 1 < sn && sub[k + 1] >= '0' && sub[k + 1] <= '9')) {
                refs++;
                if (sub[k] == '\\') k++;
            } else {
                lit++;
            }
        }
        return len + (all ? len + 1 : 1) * lit + refs * len;
    }
    case W_REPLACE:
        if (objc < 4) return -1;
        return obj_bytes(objv[1]) + (objc > 4 ? obj_bytes(objv[4]) : 0);
    case W_HEX:
    case W_BASE64:
    case W_UUENCODE: {
        /* binary encode FORMAT ?-option value ...? DATA: hex doubles it,
         * base64 and uuencode take 4/3 and their line breaks. */
        if (objc < 2) return -1;
        long long len = obj_bytes(objv[objc - 1]);
        return w->kind == W_HEX ? 2 * len : len / 3 * 4 + len / 32 + 8;
    }
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
    if (w->kind == W_FORMAT && need == LLONG_MAX) {
        Tcl_SetObjResult(in, Tcl_ObjPrintf("format: a width or precision above %lld: past what a safe "
                                           "script may format (Tcl pads one character at a time)",
                                           FORMAT_PAD_MAX));
        Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", "LIMIT", NULL);
        return TCL_ERROR;
    }
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
        {"concat", "concat", W_CONCAT}, {"format", "format", W_FORMAT},
        {"::tcl::string::map", "string map", W_MAP}, {"regsub", "regsub", W_REGSUB},
        {"::tcl::string::replace", "string replace", W_REPLACE},
        {"::tcl::binary::encode::hex", "binary encode hex", W_HEX},
        {"::tcl::binary::encode::base64", "binary encode base64", W_BASE64},
        {"::tcl::binary::encode::uuencode", "binary encode uuencode", W_UUENCODE},
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

/* ---- the time limit inside one long C command ---- */

/* Tcl checks its time limit between commands only: a solver run, a study
 * or a long seek is one command. A watchdog thread, started for each
 * armed evaluation, sets app->interrupt at the deadline (everything that
 * honours C-c polls it: solver steps, an ILP's ticks, a solver's start,
 * studies, replays, measuring) and app->limit_tripped, so the command
 * ends with {STENCILMAP SAFE LIMIT} rather than as interrupted. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    int running, stop;
    struct timespec deadline;   /* CLOCK_MONOTONIC */
    sm_app *app;
} watch = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void *watch_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&watch.mu);
    while (!watch.stop) {
        if (pthread_cond_timedwait(&watch.cv, &watch.mu, &watch.deadline) == ETIMEDOUT && !watch.stop) {
            watch.app->limit_tripped = 1;
            watch.app->interrupt = 1;
            break;
        }
    }
    pthread_mutex_unlock(&watch.mu);
    return NULL;
}

static void watch_start(sm_app *app, double seconds)
{
    if (watch.running) return;
    clock_gettime(CLOCK_MONOTONIC, &watch.deadline);
    if (seconds > 1e9) seconds = 1e9;
    long whole = (long)seconds;
    watch.deadline.tv_sec += whole;
    watch.deadline.tv_nsec += (long)((seconds - (double)whole) * 1e9);
    if (watch.deadline.tv_nsec >= 1000000000L) {
        watch.deadline.tv_sec++;
        watch.deadline.tv_nsec -= 1000000000L;
    }
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&watch.cv, &a);
    pthread_condattr_destroy(&a);
    watch.stop = 0;
    watch.app = app;
    /* Signals (C-c, a hang-up) stay the main thread's. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    watch.running = pthread_create(&watch.thread, NULL, watch_main, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!watch.running) pthread_cond_destroy(&watch.cv);
}

static void watch_stop(void)
{
    if (!watch.running) return;
    pthread_mutex_lock(&watch.mu);
    watch.stop = 1;
    pthread_cond_signal(&watch.cv);
    pthread_mutex_unlock(&watch.mu);
    pthread_join(watch.thread, NULL);
    pthread_cond_destroy(&watch.cv);
    watch.running = 0;
}

int sm_safe_limit_raise(sm_app *app, Tcl_Interp *in)
{
    if (!app->limit_tripped) return TCL_OK;
    Tcl_Interp *s = app->safe;
    if (s) {
        /* Tcl's own time limit, reached now: the error then goes through
         * every catch of the script, as Tcl's limits do. */
        Tcl_Time past = {0, 0};
        Tcl_LimitSetTime(s, &past);
        int g = Tcl_LimitGetGranularity(s, TCL_LIMIT_TIME);
        Tcl_LimitSetGranularity(s, TCL_LIMIT_TIME, 1);
        Tcl_LimitCheck(s);
        Tcl_LimitSetGranularity(s, TCL_LIMIT_TIME, g);
    }
    Tcl_SetObjResult(in, Tcl_ObjPrintf("the safe script ran past its time limit (-limit-time %g s)",
                                       app->limit_time));
    Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", "LIMIT", NULL);
    return TCL_ERROR;
}

/* ---- Tcl panics: the net ---- */

/* Tcl panics (SIGABRT, which no catch stops) where a value would pass
 * its largest size (a list's text past 2 GB, "$s$s" in bytecode) or an
 * allocation fails. The commands that make such values in one step are
 * checked before they run (above); for the rest, a panic while a safe
 * script runs jumps back to where the program entered the safe
 * interpreter: that evaluation ends with {STENCILMAP SAFE LIMIT}, the
 * interpreter (left mid-evaluation) is abandoned for a new one, and the
 * session, which no Tcl code of the script was changing at that moment,
 * goes on. Outside a safe script a panic aborts as before. */
typedef struct sm_safe_net {
    sigjmp_buf jb;
    struct sm_safe_net *outer;
    int depth, solver_depth, safe_depth, in_replay, in_study;
    struct sigaction sigint;
} sm_safe_net;

static sm_safe_net *net;
static pthread_t net_thread;
static char panic_text[400];

static void panic_proc(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(panic_text, sizeof panic_text, format, ap);
    va_end(ap);
    if (net && pthread_equal(pthread_self(), net_thread)) siglongjmp(net->jb, 1);
    fprintf(stderr, "%s\n", panic_text);
    fflush(stderr);
    abort();
}

static void net_set(sm_app *app, sm_safe_net *n)
{
    static int installed;
    if (!installed) {
        Tcl_SetPanicProc(panic_proc);
        installed = 1;
    }
    n->outer = net;
    n->depth = app->depth;
    n->solver_depth = app->solver_depth;
    n->safe_depth = app->safe_depth;
    n->in_replay = app->in_replay;
    n->in_study = app->in_study;
    sigaction(SIGINT, NULL, &n->sigint);
    net_thread = pthread_self();
    net = n;
}

static int net_fell(sm_app *app, sm_safe_net *n, Tcl_Interp *live)
{
    net = n->outer;
    /* What the commands the jump went past would have put back. */
    app->depth = n->depth;
    app->solver_depth = n->solver_depth;
    app->safe_depth = n->safe_depth;
    app->in_replay = n->in_replay;
    app->in_study = n->in_study;
    sigaction(SIGINT, &n->sigint, NULL);
    /* The interpreter stays as the panic left it: never touched again
     * (not even deleted, which Tcl refuses mid-evaluation). */
    app->safe = NULL;
    app->safe_dead++;
    Tcl_SetObjResult(live, Tcl_ObjPrintf("the safe script went past what Tcl can hold (Tcl: %s); it "
                                         "was stopped and its interpreter replaced",
                                         panic_text));
    Tcl_SetErrorCode(live, "STENCILMAP", "SAFE", "LIMIT", NULL);
    return TCL_ERROR;
}

int sm_safe_net_run(sm_app *app, Tcl_Interp *live, int (*eval)(void *ctx), void *ctx, int *fell)
{
    sm_safe_net n;
    *fell = 0;
    net_set(app, &n);
    if (sigsetjmp(n.jb, 1) == 0) {
        int rc = eval(ctx);
        net = n.outer;
        return rc;
    }
    *fell = 1;
    return net_fell(app, &n, live);
}

typedef struct net_eval {
    Tcl_Interp *in;
    const char *text;
    Tcl_Obj *obj;
} net_eval;

static int eval_one(void *ctx)
{
    net_eval *e = ctx;
    if (e->obj) return Tcl_EvalObjEx(e->in, e->obj, TCL_EVAL_GLOBAL);
    return Tcl_EvalEx(e->in, e->text, -1, TCL_EVAL_GLOBAL);
}

int sm_safe_net_eval(sm_app *app, Tcl_Interp *in, const char *text, Tcl_Obj *obj, Tcl_Interp *live, int *fell)
{
    net_eval e = {in, text, obj};
    return sm_safe_net_run(app, live, eval_one, &e, fell);
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
    app->limit_tripped = 0;
    watch_start(app, whole);
    return 1;
}

int sm_safe_leave(sm_app *app, Tcl_Interp *in, int armed, int rc)
{
    Tcl_Interp *s = app->safe;
    if (armed) watch_stop();
    int tripped = armed && app->limit_tripped;
    if (tripped) {
        /* The watchdog's interrupt was the limit's, no one's C-c. */
        app->limit_tripped = 0;
        app->interrupt = 0;
    }
    if (!armed || !s) return rc;
    int hit = tripped ? 't' : app->limit_hit;
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
    /* The error itself (level 1 would make it a `return -code error`). */
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("-level", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewIntObj(0));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("-errorcode", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("STENCILMAP SAFE LIMIT", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewStringObj("-errorinfo", -1));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_GetObjResult(in));
    int rc2 = Tcl_SetReturnOptions(in, opts);
    Tcl_DecrRefCount(opts);
    return rc2;
}
