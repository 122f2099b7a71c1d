/* cmd_session_record_replay.c - session record|stop|replay: the recording of commands
 * and its replay, done here (a replay runs Tcl commands). report: cmd_report.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "core/session/crash_recovery_journal.h"
#include "cmd_common.h"
#include "core/lib/atomic_file_write.h"

static int session_record(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    const char *file = Tcl_GetString(objv[2]);
    /* "-": standard output (a copy of it, so stop closes only ours). */
    int out = strcmp(file, "-") == 0;
    if (out && app->screen)
        return sm_tcl_error(in, "ARGS", "session record -: the workbench's terminal is its screen; name a file");
    /* The policy first: a safe script learns nothing of a path it may
     * not write, not even what is there. */
    if (!out && sm_safe_check_path(app, in, file, SM_PATH_WRITE)) return TCL_ERROR;
    sm_err e;
    if (!out && sm_check_save_target(file, &e)) return sm_tcl_err(in, "IO", &e);
    /* Opened beneath the directory the path guard allows (a link swapped
     * in after the check cannot lead it outside); non-blocking so that a
     * FIFO put there meanwhile fails instead of hanging, then a regular
     * file only. */
    int fd = out ? dup(1)
                 : sm_path_open(file, SM_PATH_WRITE, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0666, &e);
    if (fd < 0 && !out) return sm_tcl_err(in, "IO", &e);   /* SAFE PATH when refused */
    struct stat st;
    if (!out && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        return sm_tcl_error(in, "IO", "%s: not a regular file; a recording writes a regular file or a new path", file);
    }
    if (!out) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int err = errno;
        if (fd >= 0) close(fd);
        return sm_tcl_error(in, "IO", "%s: cannot open for writing: %s", file, strerror(err));
    }
    /* The header goes out at once, so a full disk is an error now. */
    fprintf(f, "# stencilmap session, replay with: session replay %s\n", file);
    /* The scenario it starts from, so a replay elsewhere says so (it ran
     * silently on whatever the session held: issue 37). */
    if (app->scenario_path) {
        Tcl_Obj *one = Tcl_NewListObj(0, NULL);
        Tcl_IncrRefCount(one);
        char *real = realpath(app->scenario_path, NULL);
        Tcl_ListObjAppendElement(NULL, one, Tcl_NewStringObj(real ? real : app->scenario_path, -1));
        free(real);
        fprintf(f, "# scenario: %s%s\n", Tcl_GetString(one), app->session->dirty ? " (with unsaved changes)" : "");
        Tcl_DecrRefCount(one);
    } else {
        fprintf(f, "# scenario: (built-in)%s\n", app->session->dirty ? " (with unsaved changes)" : "");
    }
    if (fflush(f) != 0 || ferror(f)) {
        int err = errno;
        fclose(f);
        return sm_tcl_error(in, "IO", "%s: write failed: %s", file, strerror(err));
    }
    if (app->record) fclose(app->record);
    free(app->record_path);
    free(app->record_error);   /* a new recording: the old failure was told (or is moot) */
    app->record_error = NULL;
    app->record = f;
    app->record_path = sm_xstrdup(file);
    Tcl_SetObjResult(in, objv[2]);
    return TCL_OK;
}

static int session_stop(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (app->record_error) {
        int rc = sm_tcl_error(in, "IO", "session stop: %s", app->record_error);
        free(app->record_error);
        app->record_error = NULL;
        free(app->record_path);
        app->record_path = NULL;
        return rc;
    }
    if (!app->record) return sm_tcl_error(in, "STATE", "session stop: not recording");
    fclose(app->record);
    app->record = NULL;
    Tcl_SetObjResult(in, Tcl_NewStringObj(app->record_path, -1));
    free(app->record_path);
    app->record_path = NULL;
    return TCL_OK;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {}
}

/* Sets [info script] in `in` to file; returns what it was (a new
 * reference, NULL if it could not be read). With file NULL, nothing. */
static Tcl_Obj *set_info_script(Tcl_Interp *in, Tcl_Obj *file)
{
    if (!file) return NULL;
    /* The result (an error the replay raised) goes through untouched. */
    Tcl_InterpState st = Tcl_SaveInterpState(in, 0);
    Tcl_Obj *was = NULL;
    if (Tcl_EvalEx(in, "info script", -1, TCL_EVAL_GLOBAL) == TCL_OK) {
        was = Tcl_GetObjResult(in);
        Tcl_IncrRefCount(was);
    }
    Tcl_Obj *w[3] = {Tcl_NewStringObj("info", -1), Tcl_NewStringObj("script", -1), file};
    Tcl_EvalObjEx(in, Tcl_NewListObj(3, w), TCL_EVAL_GLOBAL);
    Tcl_RestoreInterpState(in, st);
    return was;
}

/* A recording names the scenario it was made on ("# scenario: PATH" or
 * "(built-in)"); replayed on another, it says so in the Console (and on
 * stderr in batch) rather than run silently on what the session holds. */
static void warn_other_scenario(sm_app *app, const char *file, const char *text)
{
    const char *p = text;
    for (int i = 0; i < 4 && *p == '#'; i++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n > 12 && strncmp(p, "# scenario: ", 12) == 0) {
            char *rec = sm_xmalloc(n - 12 + 1);
            memcpy(rec, p + 12, n - 12);
            rec[n - 12] = '\0';
            char *mark = strstr(rec, " (with unsaved changes)");
            if (mark) *mark = '\0';
            const char *recorded = rec;
            int argc = 0;
            const char **argv = NULL;
            if (strcmp(rec, "(built-in)") != 0 && Tcl_SplitList(NULL, rec, &argc, &argv) == TCL_OK && argc == 1)
                recorded = argv[0];
            /* The recorder wrote a real path: compared as text (no stat of
             * a path a recording names: a safe replay may not look). */
            char *a = NULL;
            char *b = app->scenario_path ? realpath(app->scenario_path, NULL) : NULL;
            const char *ra = recorded, *rb = b ? b : app->scenario_path ? app->scenario_path : "(built-in)";
            if (strcmp(ra, rb) != 0) {
                sm_view_log(app->view, SM_LOG_ERROR, "session replay: %s was recorded on %s%s; the session is on %s",
                            file, ra, mark ? " with unsaved changes" : "", rb);
                if (!app->screen)
                    fprintf(stderr, "stencilmap: session replay: %s was recorded on %s%s; the session is on %s\n", file,
                            ra, mark ? " with unsaved changes" : "", rb);
            }
            free(a);
            free(b);
            if (argv) Tcl_Free((char *)argv);
            free(rec);
            return;
        }
        if (!nl) return;
        p = nl + 1;
    }
}

/* The commands of a replayed file, one whole command at a time, in
 * run_in; *count: how many ran. */
static int replay_lines(sm_app *app, Tcl_Interp *run_in, char *text, const char *file, int delay, int *count)
{
    Tcl_DString cmd;
    Tcl_DStringInit(&cmd);
    int rc = TCL_OK, line = 0;
    char *p = text;
    while (*p && rc == TCL_OK) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        Tcl_DStringAppend(&cmd, p, (int)n);
        p += n;
        line++;
        if (!Tcl_CommandComplete(Tcl_DStringValue(&cmd))) continue;
        const char *c = Tcl_DStringValue(&cmd);
        while (*c == ' ' || *c == '\t') c++;
        if (*c && *c != '\n' && *c != '#') {
            rc = Tcl_EvalEx(run_in, Tcl_DStringValue(&cmd), -1, TCL_EVAL_GLOBAL);
            (*count)++;
            if (rc == TCL_ERROR) {
                char msg[160];
                snprintf(msg, sizeof msg, "\n    (replaying \"%s\" line %d)", file, line);
                Tcl_AddErrorInfo(run_in, msg);
            }
            sm_app_progress(app);
            if (delay) sleep_ms(delay);
            if (rc == TCL_OK && app->interrupt) {
                app->interrupt = 0;
                rc = sm_tcl_error(run_in, "STATE", "session replay: interrupted at \"%s\" line %d", file, line);
            }
        }
        Tcl_DStringSetLength(&cmd, 0);
    }
    Tcl_DStringFree(&cmd);
    return rc;
}

typedef struct replay {
    sm_app *app;
    Tcl_Interp *run_in;
    char *text;
    const char *file;
    int delay, *count;
} replay;

static int replay_eval(void *ctx)
{
    replay *r = ctx;
    return replay_lines(r->app, r->run_in, r->text, r->file, r->delay, r->count);
}

/* Replays whole commands one at a time, redrawing in between. With -safe
 * (and always when called from a safe script) the commands run in the safe
 * interpreter. */
static int session_replay(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    int delay = app->screen ? 300 : 0;
    int safe = in != app->interp, i = 2;
    if (i < objc && strcmp(Tcl_GetString(objv[i]), "-safe") == 0) {
        safe = 1;
        i++;
    }
    if (i >= objc)
        return sm_tcl_error(in, "ARGS", "wrong # args: should be \"session replay ?-safe? FILE ?-delay MS?\"");
    Tcl_Obj *fileobj = objv[i++];
    if (i + 2 == objc) {
        if (strcmp(Tcl_GetString(objv[i]), "-delay") != 0 ||
            Tcl_GetIntFromObj(NULL, objv[i + 1], &delay) != TCL_OK || delay < 0 || delay > 60000)
            return sm_tcl_error(in, "ARGS", "session replay: expected ?-safe? FILE ?-delay MS? with MS in [0, 60000]");
    } else if (i != objc) {
        return sm_tcl_error(in, "ARGS", "wrong # args: should be \"session replay ?-safe? FILE ?-delay MS?\"");
    }
    Tcl_Interp *run_in = in;
    if (safe && in == app->interp) {
        run_in = sm_safe_interp(app);
        if (!run_in) return TCL_ERROR;
    }
    const char *file = Tcl_GetString(fileobj);
    sm_err e;
    size_t len;
    char *text = sm_read_file(file, SM_READ_ANY_SIZE, &len, &e);
    if (!text) return sm_tcl_error(in, "LOAD", "%s", e.msg);
    if (sm_app_confirm_discard(app, in, "session replay")) {
        free(text);
        return TCL_ERROR;
    }
    warn_other_scenario(app, file, text);
    app->in_replay++;
    /* Demos find their samples relative to the file being replayed
     * ([info script], or ::stencilmap::replaying as before). */
    /* The file was just read: its real path. (Tcl_FSGetNormalizedPath
     * crashed in Tcl on a name holding a NUL, "\0/x/..".) */
    char *real = realpath(file, NULL);
    Tcl_Obj *abs = real ? Tcl_NewStringObj(real, -1) : NULL;
    free(real);
    Tcl_SetVar2Ex(run_in, "::stencilmap::replaying", NULL, abs ? abs : fileobj, TCL_GLOBAL_ONLY);
    Tcl_Obj *script_before = set_info_script(run_in, abs ? abs : fileobj);
    /* A replay the user asked for (not one a safe script asked for) is a
     * script whose directory a safe replay may read. */
    int pushed = run_in != in && app->safe_depth == 0 && sm_safe_push_script(app, file);
    app->interrupt = 0;
    int rc, count = 0, depth = app->depth;
    /* One allowance of time for the whole replay (SPEC 5 limits). */
    int armed = run_in == app->safe ? sm_safe_enter(app) : 0;
    app->depth = 0;
    int fell = 0;
    replay r = {app, run_in, text, file, delay, &count};
    if (armed) {
        rc = sm_safe_net_run(app, in, replay_eval, &r, &fell);
        /* A Tcl panic in the safe interpreter: it is gone, the error is
         * the caller's. */
        if (fell) run_in = in;
    } else {
        rc = replay_lines(app, run_in, text, file, delay, &count);
    }
    rc = sm_safe_leave(app, run_in, armed, rc);
    app->depth = depth;
    app->in_replay--;
    if (pushed) sm_safe_pop_script(app);
    if (!fell) set_info_script(run_in, script_before);
    if (script_before) Tcl_DecrRefCount(script_before);
    free(text);
    if (run_in != in && rc != TCL_OK) {
        /* The error, its code and its trace, as the safe script raised it. */
        Tcl_Obj *opts = Tcl_GetReturnOptions(run_in, rc);
        Tcl_IncrRefCount(opts);
        Tcl_SetObjResult(in, Tcl_GetObjResult(run_in));
        rc = Tcl_SetReturnOptions(in, opts);
        Tcl_DecrRefCount(opts);
        Tcl_ResetResult(run_in);
    }
    if (rc == TCL_OK) Tcl_SetObjResult(in, Tcl_NewIntObj(count));
    return rc;
}

/* The journal `session recover` takes by default: the newest one a
 * stopped workbench left with unsaved work, of the scenario loaded here
 * (of any scenario when none was loaded). Newly allocated, or NULL. */
static char *default_journal(sm_app *app)
{
    sm_journal_info *v;
    int n = sm_journal_list(NULL, &v);
    char *key = app->scenario_path ? sm_journal_key(app->scenario_path) : NULL;
    char *found = NULL;
    for (int i = 0; i < n && !found; i++)
        if (!v[i].live && v[i].unsaved && (!key || strcmp(key, v[i].scenario) == 0))
            found = sm_xstrdup(v[i].path);
    free(key);
    sm_journal_list_free(v, n);
    return found;
}

static int refuse_safe(sm_app *app, Tcl_Interp *in, const char *what)
{
    if (in == app->interp) return TCL_OK;
    return sm_tcl_error(in, "SAFE", "%s: not allowed in a safe interpreter (journals are "
                        "another session's work)", what);
}

static Tcl_Obj *parts_list(unsigned parts)
{
    static const char *const names[] = {"grid", "topology", "model", "mapping"};
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < 4; i++)
        if (parts & (1u << i)) Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(names[i], -1));
    return l;
}

/* session recover ?FILE?: the session a stopped workbench's journal holds,
 * with every edit. The journal is taken over (locked): the workbench goes
 * on in it; a script holds it until the work is saved (then it goes) or
 * the script ends (then it stays, for the next try). */
static int session_recover(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (refuse_safe(app, in, "session recover")) return TCL_ERROR;
    char *path = objc == 3 ? sm_xstrdup(Tcl_GetString(objv[2])) : default_journal(app);
    if (!path) {
        char *dir = sm_journal_dir();
        int rc = sm_tcl_error(in, "STATE", "session recover: no journal with unsaved work left by a "
                              "stopped workbench%s in %s (session journals lists them all)",
                              app->scenario_path ? " on this scenario" : "", dir);
        free(dir);
        return rc;
    }
    if ((app->journal && strcmp(path, sm_journal_path(app->journal)) == 0) ||
        (app->recovered && strcmp(path, sm_journal_path(app->recovered)) == 0)) {
        int rc = sm_tcl_error(in, "STATE", "session recover: %s is this session's own journal", path);
        free(path);
        return rc;
    }
    if (sm_app_check_change(app, in, "session recover")) {
        free(path);
        return TCL_ERROR;
    }
    sm_scenario sc;
    sm_err e;
    char *scenario = NULL;
    unsigned unsaved = 0;
    if (sm_journal_read(path, &sc, &scenario, &unsaved, &e)) {
        free(path);
        return sm_tcl_error(in, "LOAD", "%s", e.msg);
    }
    /* Locked before anything changes: a live journal is refused. */
    sm_journal *taken = sm_journal_adopt(path, &e);
    if (!taken || sm_app_confirm_discard(app, in, "session recover")) {
        int rc = taken ? TCL_ERROR : sm_tcl_error(in, "STATE", "session recover: %s", e.msg);
        sm_journal_close(taken, 0);
        sm_scenario_release(&sc);
        free(scenario);
        free(path);
        return rc;
    }
    sm_app_drop_solver(app);
    sm_session_replace(app->session, &sc);
    /* Unsaved is what the stopped workbench had not saved, no more. */
    sm_session_mark(app->session, unsaved);
    sm_app_release_recovered(app);
    if (app->journal) {
        /* The workbench goes on in the recovered journal; its own held
         * nothing the user did not just agree to drop. */
        sm_journal_close(app->journal, 1);
        app->journal = taken;
    } else {
        app->recovered = taken;
    }
    sm_app_set_scenario_path(app, scenario[0] ? scenario : NULL);
    free(scenario);
    Tcl_Obj *result = Tcl_NewStringObj(path, -1);
    free(path);
    Tcl_IncrRefCount(result);
    int rc = sm_app_changed(app);
    if (rc == TCL_OK) Tcl_SetObjResult(in, result);
    Tcl_DecrRefCount(result);
    return rc;
}

/* session journals: every journal on disk, newest first, as dicts
 * file scenario live unsaved modified bytes (scenario "" is the built-in
 * one; unsaved the parts not on disk; live: its workbench still runs). */
static int session_journals(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (refuse_safe(app, in, "session journals")) return TCL_ERROR;
    sm_journal_info *v;
    int n = sm_journal_list(NULL, &v);
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < n; i++) {
        Tcl_Obj *d = Tcl_NewDictObj();
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("file", -1), Tcl_NewStringObj(v[i].path, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("scenario", -1), Tcl_NewStringObj(v[i].scenario, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("live", -1), Tcl_NewIntObj(v[i].live));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("unsaved", -1), parts_list(v[i].unsaved));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("modified", -1), Tcl_NewWideIntObj((Tcl_WideInt)v[i].modified));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("bytes", -1), Tcl_NewWideIntObj((Tcl_WideInt)v[i].bytes));
        Tcl_ListObjAppendElement(NULL, l, d);
    }
    sm_journal_list_free(v, n);
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

/* session discard FILE: remove a stopped workbench's journal (its work is
 * given up). A running workbench's is never removed. */
static int session_discard(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    if (refuse_safe(app, in, "session discard")) return TCL_ERROR;
    const char *path = Tcl_GetString(objv[2]);
    if (app->journal && strcmp(path, sm_journal_path(app->journal)) == 0)
        return sm_tcl_error(in, "STATE", "session discard: %s is this workbench's own journal", path);
    if (app->recovered && strcmp(path, sm_journal_path(app->recovered)) == 0) {
        /* The work this script recovered from it, given up. */
        sm_journal_close(app->recovered, 1);
        app->recovered = NULL;
    } else {
        sm_err e;
        if (sm_journal_discard(path, &e)) return sm_tcl_error(in, "STATE", "session discard: %s", e.msg);
    }
    Tcl_SetObjResult(in, objv[2]);
    return TCL_OK;
}

static const sm_subcmd session_subs[] = {
    {"recover", session_recover, 0, 1, "?FILE?"},
    {"journals", session_journals, 0, 0, ""},
    {"discard", session_discard, 1, 1, "FILE"},
    {"record", session_record, 1, 1, "FILE"},
    {"stop", session_stop, 0, 0, ""},
    {"replay", session_replay, 1, 4, "?-safe? FILE ?-delay MS?"},
    {NULL, NULL, 0, 0, NULL},
};

static int session_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    /* Session commands themselves are not recorded. */
    app->depth++;
    int rc = sm_dispatch(app, in, objc, objv, session_subs);
    app->depth--;
    return rc;
}

void sm_register_session_cmds(sm_app *app)
{
    sm_create_ensemble(app, "session", session_cmd, session_subs);
}
