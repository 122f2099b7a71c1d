/* command_line_options.c - stencilmap's command-line options
 * (command_line_options.h): getopt_long_only, --help and --version. */
#include "command_line_options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui/cmd/version.h"

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

int sm_command_line_parse(int argc, char **argv, sm_command_line *o)
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
    enum { MAX_ALLOW = SM_MAX_ALLOW };
    const char **allow = o->allow;
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
    o->safe = safe;
    o->batch = batch;
    o->oneshot = oneshot;
    o->arg = arg;
    o->nallow = nallow;
    o->limit_time = limit_time;
    o->limit_memory = limit_memory;
    o->nrest = argc - optind;
    o->rest = argv + optind;
    if (!batch && o->nrest > 1) return usage_error("%s: one scenario at most", o->rest[1]);
    return -1;
}
