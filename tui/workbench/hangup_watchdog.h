/* hangup_watchdog.h - a dead terminal ends the workbench the way Vim ends (#40):
 * on SIGTERM, SIGHUP, or a terminal that hangs up or fails (poll says
 * POLLHUP/POLLERR/POLLNVAL, reads give end of file or errors), the
 * journal is kept and the process is gone within a second, whatever it
 * was doing: loading, a solver step, a long seek, the recovery question.
 *
 * The main loop looks at sm_hangup_pending() between keys and ends as on
 * a quit (the terminal restored, the journal kept when work is unsaved).
 * A watchdog thread covers the rest: it polls the terminal every 100 ms,
 * and once a hang-up or a signal is noticed and the main loop has not
 * ended within half a second (it is inside a long command), it restores
 * the terminal modes, says where the journal is and _exits. The journal
 * is synced before every key, and is written to survive a kill -9 at any
 * byte, so nothing after the last finished edit is lost. An inherited
 * SIGHUP ignore (nohup) is kept. */
#ifndef SM_HANGUP_WATCHDOG_H
#define SM_HANGUP_WATCHDOG_H

/* Handlers and the watchdog, for the terminal on fds 0 and 1 (the modes
 * to restore are read now: call before curses changes them). */
void sm_hangup_start(void);
/* The journal the messages name (NULL: none); copied. */
void sm_hangup_set_journal(const char *path);
/* What puts the terminal back (the curses exit strings), written
 * before an end inside a long command when the terminal is alive. */
void sm_hangup_set_reset(const char *seq);
/* The main loop saw the terminal fail (reads ending at once, again and
 * again): as a hang-up. */
void sm_hangup_terminal_failed(void);
/* The signal that ends the workbench (SIGHUP for a dead terminal), 0
 * while none. */
int sm_hangup_pending(void);
/* 1 when the terminal hung up or failed (not only a signal). */
int sm_hangup_dead_terminal(void);
/* Stops the watchdog (the main loop is ending by itself). */
void sm_hangup_stop(void);

#endif
