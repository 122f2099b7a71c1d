/* hangup_watchdog.c - SIGTERM, SIGHUP and a dead terminal end the workbench
 * within a second, journal kept (see hangup_watchdog.h). */
#define _POSIX_C_SOURCE 200809L
#include "hangup_watchdog.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t pending;
static volatile sig_atomic_t stopping;
static volatile sig_atomic_t dead_terminal; /* a hang-up, not a signal */
static struct termios saved_modes;
static int have_modes;
static pthread_t watchdog;
static int watching;
static pthread_mutex_t journal_lock = PTHREAD_MUTEX_INITIALIZER;
static char journal_path[4096];
static char reset_seq[256];

static void on_signal(int sig)
{
    if (!pending) pending = sig;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void say(const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(2, s, n);
        if (w <= 0) return; /* stderr may be the dead terminal */
        s += w;
        n -= (size_t)w;
    }
}

/* The main thread is inside a long command: the terminal as it was, a
 * line saying where the work is, and gone. The journal is not touched:
 * it holds every edit up to the last key, and its lock goes with us. */
static void end_now(int sig)
{
    if (have_modes) tcsetattr(0, TCSANOW, &saved_modes);
    if (!dead_terminal && reset_seq[0]) {
        ssize_t w = write(1, reset_seq, strlen(reset_seq));
        (void)w;
    }
    char msg[4400];
    pthread_mutex_lock(&journal_lock);
    if (journal_path[0])
        snprintf(msg, sizeof msg, "\nstencilmap: %s during a long command; ended at once. Every edit up to the "
                 "last key is journaled in %s: the next workbench on this scenario offers it, or run "
                 "`session recover`\n",
                 dead_terminal ? "the terminal hung up" : sig == SIGTERM ? "stopped by SIGTERM" : "stopped by SIGHUP",
                 journal_path);
    else
        snprintf(msg, sizeof msg, "\nstencilmap: %s during a long command; ended at once\n",
                 dead_terminal ? "the terminal hung up" : sig == SIGTERM ? "stopped by SIGTERM" : "stopped by SIGHUP");
    pthread_mutex_unlock(&journal_lock);
    say(msg);
    _exit(128 + sig);
}

static void *watch(void *arg)
{
    (void)arg;
    double noticed = 0;
    while (!stopping) {
        /* No events asked: poll reports only a hang-up or an error. */
        struct pollfd fds[2] = {{0, 0, 0}, {1, 0, 0}};
        int n = poll(fds, 2, 100);
        if (n > 0)
            for (int i = 0; i < 2; i++)
                if (fds[i].revents & (POLLHUP | POLLERR | POLLNVAL)) {
                    dead_terminal = 1;
                    if (!pending) pending = SIGHUP;
                }
        if (n > 0) {
            /* A hung-up terminal answers at once, every time. */
            struct timespec ts = {0, 100000000};
            nanosleep(&ts, NULL);
        }
        if (stopping) break;
        if (pending) {
            if (noticed == 0) noticed = now();
            /* The main loop ends by itself between keys; half a second
             * more means a long command holds it. */
            else if (now() - noticed >= 0.5) end_now(pending);
        }
    }
    return NULL;
}

void sm_hangup_start(void)
{
    have_modes = tcgetattr(0, &saved_modes) == 0;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a read waiting for a key returns, and the main loop
     * looks at pending at once. */
    sigaction(SIGTERM, &sa, NULL);
    /* Started under nohup: hang-ups stay ignored (a dead terminal still
     * ends it: the watchdog sees that by itself). */
    if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(SIGHUP, &sa, NULL);
    if (watching) return;
    /* The signals go to the main thread (they interrupt its reads). */
    sigset_t all, prev;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &prev);
    stopping = 0;
    watching = pthread_create(&watchdog, NULL, watch, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
}

void sm_hangup_set_journal(const char *path)
{
    pthread_mutex_lock(&journal_lock);
    snprintf(journal_path, sizeof journal_path, "%s", path ? path : "");
    pthread_mutex_unlock(&journal_lock);
}

void sm_hangup_set_reset(const char *seq)
{
    snprintf(reset_seq, sizeof reset_seq, "%s", seq ? seq : "");
}

void sm_hangup_terminal_failed(void)
{
    dead_terminal = 1;
    if (!pending) pending = SIGHUP;
}

int sm_hangup_pending(void)
{
    return pending;
}

int sm_hangup_dead_terminal(void)
{
    return dead_terminal;
}

void sm_hangup_stop(void)
{
    if (!watching) return;
    stopping = 1;
    pthread_join(watchdog, NULL);
    watching = 0;
}
