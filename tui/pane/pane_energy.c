/* pane_energy.c - the energy breakdown as bars (dynamic, static, idle,
 * intra- and inter-node communication) and the total; time against the
 * deadline and which side bounds it; the change the last action made. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pane.h"

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_eval *ev = &f->ev;
    const sm_model *m = &app->session->model;
    const sm_session *s = app->session;
    WINDOW *w = p->win;
    werase(w);
    sm_ui_frame(p, app, "Energy");
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 20 || ih < 3) return;
    struct { const char *name; double v; sm_element el; } parts[] = {
        {"dynamic", ev->energy_dynamic, SM_EL_E_DYNAMIC}, {"static", ev->energy_static, SM_EL_E_STATIC},
        {"idle", ev->energy_idle, SM_EL_E_IDLE},          {"intra", ev->energy_comm_intra, SM_EL_E_INTRA},
        {"inter", ev->energy_comm_inter, SM_EL_E_INTER},
    };
    double mx = 0;
    for (int i = 0; i < 5; i++) mx = parts[i].v > mx ? parts[i].v : mx;
    int barw = iw - 8 - 11;
    if (barw < 3) barw = 3;
    int y = 1;
    char b1[32], b2[32], b3[32];
    for (int i = 0; i < 5 && y <= ih - 2; i++, y++) {
        sm_ui_text(w, y, 1, 8, sm_ui_attr(SM_EL_TEXT), "%-7s", parts[i].name);
        sm_ui_bar(w, y, 9, barw, parts[i].v, mx, parts[i].el, '#');
        sm_ui_text(w, y, 9 + barw + 1, iw - barw - 8, sm_ui_attr(SM_EL_TEXT), "%10s",
                   sm_ui_joules(parts[i].v, b1, sizeof b1));
    }
    /* The total, and what the last change did to it. */
    double d = ev->energy - s->last_eval.energy;
    int has_delta = s->pos > 0 && s->hist[s->pos - 1].label[0];
    sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_TEXT) | A_BOLD, "total %.6g J", ev->energy);
    if (has_delta) {
        int x = 1 + (int)strlen("total ") + snprintf(b1, sizeof b1, "%.6g J", ev->energy) + 2;
        sm_element el = d < 0 ? SM_EL_GOOD : d > 0 ? SM_EL_BAD : SM_EL_DIM;
        sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(el), "%s%s  %s", d > 0 ? "+" : "",
                   sm_ui_joules(d, b2, sizeof b2), s->hist[s->pos - 1].label);
    }
    y++;
    if (y > ih) return;
    /* Time against the deadline, and the bound. */
    int comm_bound = ev->comm_time > ev->comp_time;
    int x = 1;
    sm_ui_text(w, y, x, iw, sm_ui_attr(SM_EL_TEXT), "T %s", sm_ui_seconds(ev->time, b1, sizeof b1));
    x += 3 + (int)strlen(b1);
    if (m->has_deadline) {
        int ok = ev->time <= m->deadline;
        sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(ok ? SM_EL_GOOD : SM_EL_BAD), " %s %s", ok ? "<=" : ">",
                   sm_ui_seconds(m->deadline, b2, sizeof b2));
        x += 4 + (int)strlen(b2);
    }
    sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(SM_EL_DIM), " %s-bound", comm_bound ? "comm" : "comp");
    if (++y > ih) return;
    sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "comp %s  comm %s", sm_ui_seconds(ev->comp_time, b2, sizeof b2),
               sm_ui_seconds(ev->comm_time, b3, sizeof b3));
    if (++y > ih) return;
    sm_ui_text(w, y, 1, iw, sm_ui_attr(ev->feasible ? SM_EL_GOOD : SM_EL_BAD), "%s%s  %lld cut edges, %d procs used",
               ev->feasible ? "feasible" : "misses the deadline", ev->memory_ok ? "" : ", over memory",
               (long long)ev->edges, ev->procs_used);
}

const sm_pane_ops sm_pane_energy = {.deps = SM_DEP_MAPPING | SM_DEP_SESSION, .draw = draw};
