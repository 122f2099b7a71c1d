/* tcl_bridge.c - the Tcl side of tcl_bridge.h: evaluation for key actions and
 * the console, and completion from the interpreter and the subcommand
 * tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/solver_registry.h"
#include "cmd_common.h"
#include "tui/app/tcl_bridge.h"

/* The interpreter the last command ran in, for sm_shell_result. */
static Tcl_Interp *last_in;

static Tcl_Interp *shell_interp(sm_app *app, int flags)
{
    Tcl_Interp *in = sm_app_script_interp(app);
    if ((flags & SM_SHELL_SAFE) && in == app->interp) in = sm_safe_interp(app);
    if (!in) in = app->interp;   /* cannot be made: the error says why */
    return last_in = in;
}

/* Logs, runs and reports one command: text is its echo. */
static int finish(sm_app *app, Tcl_Interp *in, const char *text, int rc, int flags)
{
    sm_view *v = app->view;
    const char *r = Tcl_GetStringResult(in);
    if (rc == TCL_ERROR) {
        if (!(flags & SM_SHELL_ECHO)) sm_view_log(v, SM_LOG_CMD, "%s", text);
        sm_view_log(v, SM_LOG_ERROR, "error: %s", r);
        return -1;
    }
    if ((flags & SM_SHELL_RESULT) && *r) sm_view_log(v, SM_LOG_RESULT, "%s", r);
    return 0;
}

int sm_shell_eval(sm_app *app, const char *script, int flags)
{
    sm_view *v = app->view;
    if (flags & SM_SHELL_ECHO) sm_view_log(v, SM_LOG_CMD, "%s", script);
    if (flags & SM_SHELL_HISTORY) sm_view_history_add(v, script);
    Tcl_Interp *in = shell_interp(app, flags);
    if ((flags & SM_SHELL_SAFE) && in == app->interp) return finish(app, in, script, TCL_ERROR, flags);
    int armed = in == app->safe ? sm_safe_enter(app) : 0;
    int rc, fell = 0;
    if (armed) rc = sm_safe_net_eval(app, in, script, NULL, app->interp, &fell);
    else rc = Tcl_EvalEx(in, script, -1, TCL_EVAL_GLOBAL);
    if (fell) in = last_in = app->interp;
    rc = sm_safe_leave(app, in, armed, rc);
    return finish(app, in, script, rc, flags);
}

int sm_shell_run(sm_app *app, const sm_words *cmd, int flags)
{
    if (cmd->n == 0) return 0;
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    Tcl_IncrRefCount(l);
    for (int i = 0; i < cmd->n; i++)
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(cmd->w[i], -1));
    /* The echo is the list's canonical text: copy it, since evaluating a
     * pure list does not need (and may drop) its string form. */
    char *text = sm_xstrdup(Tcl_GetString(l));
    sm_view *v = app->view;
    if (flags & SM_SHELL_ECHO) sm_view_log(v, SM_LOG_CMD, "%s", text);
    if (flags & SM_SHELL_HISTORY) sm_view_history_add(v, text);
    Tcl_Interp *in = shell_interp(app, flags);
    int armed = in == app->safe ? sm_safe_enter(app) : 0;
    int rc, fell = 0;
    if (armed) rc = sm_safe_net_eval(app, in, NULL, l, app->interp, &fell);
    else rc = Tcl_EvalObjEx(in, l, TCL_EVAL_GLOBAL);
    if (fell) in = last_in = app->interp;
    rc = sm_safe_leave(app, in, armed, rc);
    Tcl_DecrRefCount(l);
    rc = finish(app, in, text, rc, flags);
    free(text);
    return rc;
}

const char *sm_shell_result(sm_app *app)
{
    return Tcl_GetStringResult(last_in ? last_in : app->interp);
}

typedef struct list {
    char **v;
    int n, cap;
} list;

static void add(list *l, const char *s, const char *prefix)
{
    if (strncmp(s, prefix, strlen(prefix)) != 0) return;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0) return;
    if (l->n == l->cap) l->v = sm_xrealloc(l->v, sizeof(char *) * (size_t)(l->cap = l->cap ? 2 * l->cap : 16));
    l->v[l->n++] = sm_xstrdup(s);
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_procs(sm_app *app, list *l, const char *prefix)
{
    const sm_topo *t = app->session->topo;
    for (int p = 0; p < t->nprocs; p++) add(l, t->procs[p].name, prefix);
}

static void add_solvers(list *l, const char *prefix)
{
    const sm_solver_ops *const *all = sm_solver_list();
    for (int i = 0; all[i]; i++) add(l, all[i]->name, prefix);
}

/* The arguments a command takes at word w (w >= 2), by what it is. */
static void add_args(sm_app *app, list *l, char **words, int w, const char *prefix)
{
    const char *c = words[0], *sub = w > 1 ? words[1] : "";
    if (strcmp(c, "solve") == 0 || (strcmp(c, "solver") == 0 && (strcmp(sub, "start") == 0 ||
                                                                 strcmp(sub, "options") == 0))) {
        int first = strcmp(c, "solve") == 0 ? 1 : 2;
        if (w == first) {
            add_solvers(l, prefix);
        } else if (prefix[0] == '-') {
            const sm_solver_ops *ops = sm_solver_find(words[first]);
            for (int i = 0; ops && ops->opts[i].name; i++) {
                char o[64];
                snprintf(o, sizeof o, "-%s", ops->opts[i].name);
                add(l, o, prefix);
            }
        }
        return;
    }
    if (strcmp(c, "solver") == 0 && strcmp(sub, "break") == 0 && w == 2) {
        static const char *const b[] = {"add", "list", "delete", "disable", "enable", NULL};
        for (int i = 0; b[i]; i++) add(l, b[i], prefix);
        return;
    }
    /* An option of a subcommand, from its usage ("?-back? ?-until EXPR?"):
     * Tab completes -until (issue 37). */
    const sm_subcmd *subs = sm_ensemble_subs(c);
    if (prefix[0] == '-' && subs) {
        for (int i = 0; subs[i].name; i++) {
            if (strcmp(subs[i].name, sub) || !subs[i].usage) continue;
            const char *u = subs[i].usage;
            while ((u = strchr(u, '-')) != NULL) {
                char o[64];
                int k = 0;
                while (u[k] && u[k] != ' ' && u[k] != '?' && u[k] != '|' && k < 63) { o[k] = u[k]; k++; }
                o[k] = '\0';
                if (k > 1) add(l, o, prefix);
                u += k ? k : 1;
            }
        }
        if (l->n) return;
    }
    if (strcmp(c, "theme") == 0 && strcmp(sub, "load") == 0) {
        int n;
        char **names = sm_theme_list(&n);
        for (int i = 0; i < n; i++) {
            add(l, names[i], prefix);
            free(names[i]);
        }
        free(names);
        return;
    }
    if (strcmp(c, "view") == 0 && strcmp(sub, "focus") == 0) {
        for (int i = 0; i < SM_PANE_COUNT; i++) add(l, sm_pane_names[i], prefix);
        return;
    }
    if (strcmp(c, "view") == 0 && strcmp(sub, "procs") == 0) {
        static const char *const o[] = {"-sort", "-order", "-filter", "-group", NULL};
        for (int i = 0; o[i]; i++) add(l, o[i], prefix);
        for (int i = 0; i < SM_SORT_COUNT; i++) add(l, sm_sort_names[i], prefix);
        return;
    }
    add_procs(app, l, prefix);
}

char **sm_shell_complete(sm_app *app, const char *line, int *n, int *start)
{
    /* The current command starts after the last ; [ or newline. */
    int cmd0 = 0;
    for (int i = 0; line[i]; i++)
        if (line[i] == ';' || line[i] == '[' || line[i] == '\n') cmd0 = i + 1;
    int len = (int)strlen(line);
    *start = len;
    while (*start > cmd0 && line[*start - 1] != ' ' && line[*start - 1] != '\t') (*start)--;
    const char *prefix = line + *start;

    char *copy = sm_xstrdup(line + cmd0);
    char *words[64];
    int nw = 0;
    for (char *t = strtok(copy, " \t"); t && nw < 64; t = strtok(NULL, " \t")) words[nw++] = t;
    int w = nw - (*prefix ? 1 : 0);   /* index of the word being completed */

    list l = {0};
    if (w == 0) {
        Tcl_Obj *cmds = NULL;
        Tcl_Interp *in = sm_app_script_interp(app);
        if (Tcl_EvalEx(in, "info commands", -1, TCL_EVAL_GLOBAL) == TCL_OK)
            cmds = Tcl_GetObjResult(in);
        if (cmds) {
            Tcl_IncrRefCount(cmds);
            Tcl_Obj **items;
            int ni;
            if (Tcl_ListObjGetElements(NULL, cmds, &ni, &items) == TCL_OK)
                for (int i = 0; i < ni; i++) add(&l, Tcl_GetString(items[i]), prefix);
            Tcl_DecrRefCount(cmds);
        }
        Tcl_ResetResult(in);
    } else if (w == 1 && sm_ensemble_subs(words[0])) {
        const sm_subcmd *subs = sm_ensemble_subs(words[0]);
        for (int i = 0; subs[i].name; i++) add(&l, subs[i].name, prefix);
    } else if (w >= 1) {
        add_args(app, &l, words, w, prefix);
    }
    free(copy);
    /* No candidate is no array at all (qsort wants one). */
    if (l.n > 1) qsort(l.v, (size_t)l.n, sizeof(char *), cmp);
    /* Each candidate as one Tcl word: a processor named "x} [exec y] {"
     * goes in braced or backslashed, never as code. */
    for (int i = 0; i < l.n; i++) {
        Tcl_Obj *word = Tcl_NewListObj(0, NULL);
        Tcl_IncrRefCount(word);
        Tcl_ListObjAppendElement(NULL, word, Tcl_NewStringObj(l.v[i], -1));
        free(l.v[i]);
        l.v[i] = sm_xstrdup(Tcl_GetString(word));
        Tcl_DecrRefCount(word);
    }
    *n = l.n;
    return l.v;
}

void sm_shell_free_list(char **l, int n)
{
    for (int i = 0; i < n; i++) free(l[i]);
    free(l);
}
