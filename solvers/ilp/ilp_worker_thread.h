/* ilp_worker_thread.h - the ILP's solve as a coroutine: lp_solve runs on a worker
 * thread that hands control back at every event (a new incumbent, a
 * better bound, a progress tick, the end) and waits, paused, until the
 * stepper asks for the next one. Only one of the two threads runs at a
 * time, so the solver's state needs no locks: the worker writes it while
 * the stepper waits, the stepper reads it (and draws, and runs Tcl)
 * while the worker waits. */
#ifndef SM_ILP_WORKER_THREAD_H
#define SM_ILP_WORKER_THREAD_H

typedef enum {
    ILP_EV_PROGRESS,  /* a tick: publish figures, redraw, look for interrupts */
    ILP_EV_INCUMBENT, /* a better feasible mapping: a step */
    ILP_EV_BOUND,     /* a better proven bound: a step */
    ILP_EV_DONE       /* the solve returned: the worker has ended */
} ilp_event;

typedef struct ilp_run ilp_run;

/* Starts nothing yet: body(arg) runs on the worker at the first resume. */
ilp_run *ilp_run_new(void (*body)(void *arg), void *arg);
/* Stepper side: let the worker run until its next event. */
ilp_event ilp_run_resume(ilp_run *r);
/* Worker side: hand ev over and wait to be resumed. Returns 1 when the
 * run is being cancelled: the body must unwind (lp_solve aborted) and
 * return without yielding again except through this call, which then
 * returns at once. */
int ilp_run_yield(ilp_run *r, ilp_event ev);
/* Either side: whether the run is being cancelled. */
int ilp_run_cancelled(const ilp_run *r);
/* Seconds the worker has spent running (not paused) so far: what the
 * ILP's -timeout and its elapsed figure count. Worker side. */
double ilp_run_active(const ilp_run *r);
/* Whether the body has returned. */
int ilp_run_finished(const ilp_run *r);
/* Ends a paused or finished run (cancelling it: the body unwinds) and
 * frees it. */
void ilp_run_free(ilp_run *r);

#endif
