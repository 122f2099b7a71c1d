/* script_output_to_console.c - while the workbench runs, a script's stdout and stderr
 * (puts, puts stderr) go to the Console, a line at a time, instead of
 * scribbling over the curses screen. Two Tcl channels stand in for the
 * standard ones and are taken out again when the workbench ends. */
#include "cmd_common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct console_chan {
    sm_app *app;
    sm_log_kind kind;  /* SM_LOG_RESULT for stdout, SM_LOG_ERROR for stderr */
    char line[SM_LOG_LINE * 4];
    size_t len;
} console_chan;

static void flush_line(console_chan *c)
{
    c->line[c->len] = '\0';
    sm_view_log(c->app->view, c->kind, "%s", c->line);
    c->len = 0;
}

static int chan_output(ClientData cd, const char *buf, int n, int *err)
{
    console_chan *c = cd;
    (void)err;
    for (int i = 0; i < n; i++) {
        if (buf[i] == '\n' || c->len == sizeof c->line - 1) flush_line(c);
        if (buf[i] != '\n') c->line[c->len++] = buf[i];
    }
    return n;
}

static int chan_input(ClientData cd, char *buf, int n, int *err)
{
    (void)cd; (void)buf; (void)n;
    *err = EINVAL;
    return -1;
}

static int chan_close(ClientData cd, Tcl_Interp *in)
{
    console_chan *c = cd;
    (void)in;
    if (c->len) flush_line(c);
    free(c);
    return 0;
}

static void chan_watch(ClientData cd, int mask)
{
    (void)cd; (void)mask;
}

static int chan_handle(ClientData cd, int dir, ClientData *h)
{
    (void)cd; (void)dir; (void)h;
    return TCL_ERROR;
}

static const Tcl_ChannelType console_type = {
    .typeName = "stencilmap-console",
    .version = TCL_CHANNEL_VERSION_5,
    .closeProc = chan_close,
    .inputProc = chan_input,
    .outputProc = chan_output,
    .watchProc = chan_watch,
    .getHandleProc = chan_handle,
};

/* What the workbench replaced, to put back. */
static struct {
    Tcl_Channel old[2], ours[2];
} saved;

void sm_console_capture(sm_app *app)
{
    static const int which[2] = {TCL_STDOUT, TCL_STDERR};
    static const char *const names[2] = {"console-stdout", "console-stderr"};
    for (int i = 0; i < 2; i++) {
        if (saved.ours[i]) continue;
        console_chan *c = sm_xcalloc(1, sizeof *c);
        c->app = app;
        c->kind = i ? SM_LOG_ERROR : SM_LOG_RESULT;
        Tcl_Channel ch = Tcl_CreateChannel(&console_type, names[i], c, TCL_WRITABLE);
        Tcl_SetChannelOption(NULL, ch, "-buffering", "line");
        Tcl_SetChannelOption(NULL, ch, "-translation", "lf");
        saved.old[i] = Tcl_GetStdChannel(which[i]);
        Tcl_SetStdChannel(ch, which[i]);
        /* `puts stdout` finds the standard channel by its own name. */
        Tcl_RegisterChannel(app->interp, ch);
        saved.ours[i] = ch;
    }
}

void sm_console_release(sm_app *app)
{
    static const int which[2] = {TCL_STDOUT, TCL_STDERR};
    for (int i = 0; i < 2; i++) {
        if (!saved.ours[i]) continue;
        Tcl_SetStdChannel(saved.old[i], which[i]);
        Tcl_UnregisterChannel(app->interp, saved.ours[i]);
        saved.ours[i] = NULL;
    }
}
