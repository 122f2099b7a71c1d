/* command_line_options.h - stencilmap's command-line options (stencilmap(1)):
 * -b FILE, -e SCRIPT, -safe, -allow DIR, -limit-time, -limit-memory,
 * --help, --version, and the scenario or the script's arguments after
 * them. Usage errors are printed here. */
#ifndef SM_COMMAND_LINE_OPTIONS_H
#define SM_COMMAND_LINE_OPTIONS_H

#define SM_MAX_ALLOW 64

typedef struct sm_command_line {
    int safe, batch, oneshot;   /* -safe, -b, -e */
    const char *arg;            /* the script file (-b) or text (-e) */
    const char *allow[SM_MAX_ALLOW];   /* -allow DIR... */
    int nallow;
    double limit_time;          /* -limit-time, 0 if not given */
    long long limit_memory;     /* -limit-memory, 0 if not given */
    int nrest;                  /* what follows the options: the scenario, */
    char **rest;                /* or the script's arguments after -b FILE */
} sm_command_line;

/* Reads argc/argv into o. -1: go on; otherwise the exit status to end
 * with (0 after --help or --version, 2 after a usage error). */
int sm_command_line_parse(int argc, char **argv, sm_command_line *o);

#endif
