/* mpi_halo_exchange.c - halo exchange with MPI (mpi_halo_exchange.h). */
#include "mpi_halo_exchange.h"
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

/* MPI guarantees tags up to 32767; messages between two ranks match in
 * posting order, the round in the tag only guards against a mix-up. */
#define SMR_TAG(round) ((round) % 32000)

static void neg(const int d[3], int out[3])
{
    for (int a = 0; a < 3; a++) out[a] = -d[a];
}

void smr_exchange_init(smr_exchange *x, smr_plan *pl, sm_kblock *blocks)
{
    memset(x, 0, sizeof *x);
    x->pl = pl;
    x->blocks = blocks;
    int64_t off = 0;
    for (int i = 0; i < pl->nsend; i++) {
        smr_msg *m = &pl->send[i];
        m->cells = 0;
        for (int k = 0; k < m->ndirs; k++) {
            sm_kbox box;
            sm_kblock_send_box(&blocks[m->src], pl->dirs[m->dirs[k]], &box);
            m->cells += sm_kbox_cells(&box);
        }
        m->offset = off;
        off += m->cells;
    }
    pl->send_cells = off;
    off = 0;
    for (int i = 0; i < pl->nrecv; i++) {
        smr_msg *m = &pl->recv[i];
        m->cells = 0;
        for (int k = 0; k < m->ndirs; k++) {
            int back[3];
            neg(pl->dirs[m->dirs[k]], back);
            sm_kbox box;
            sm_kblock_recv_box(&blocks[m->dst], back, &box);
            m->cells += sm_kbox_cells(&box);
        }
        m->offset = off;
        off += m->cells;
    }
    pl->recv_cells = off;
    x->sendbuf = sm_xmalloc(sizeof(double) * (size_t)(pl->send_cells ? pl->send_cells : 1));
    x->recvbuf = sm_xmalloc(sizeof(double) * (size_t)(pl->recv_cells ? pl->recv_cells : 1));
    int nreq = pl->nsend + pl->nrecv;
    x->req = sm_xmalloc(sizeof(MPI_Request) * (size_t)(nreq ? nreq : 1));
}

static void pack(smr_exchange *x, const smr_msg *m)
{
    double *buf = x->sendbuf + m->offset;
    for (int k = 0; k < m->ndirs; k++) {
        sm_kbox box;
        sm_kblock_send_box(&x->blocks[m->src], x->pl->dirs[m->dirs[k]], &box);
        sm_kblock_pack(&x->blocks[m->src], &box, buf);
        buf += sm_kbox_cells(&box);
    }
}

static void unpack(smr_exchange *x, const smr_msg *m)
{
    const double *buf = x->recvbuf + m->offset;
    for (int k = 0; k < m->ndirs; k++) {
        int back[3];
        neg(x->pl->dirs[m->dirs[k]], back);
        sm_kbox box;
        sm_kblock_recv_box(&x->blocks[m->dst], back, &box);
        sm_kblock_unpack(&x->blocks[m->dst], &box, buf);
        buf += sm_kbox_cells(&box);
    }
}

/* Receives and sends of messages [rs, re) and [ss, se), then one wait. */
static void exchange_range(smr_exchange *x, MPI_Comm comm, int rs, int re, int ss, int se)
{
    const smr_plan *pl = x->pl;
    int n = 0;
    for (int i = rs; i < re; i++) {
        const smr_msg *m = &pl->recv[i];
        MPI_Irecv(x->recvbuf + m->offset, (int)m->cells, MPI_DOUBLE, m->peer, SMR_TAG(m->round), comm,
                  &x->req[n++]);
    }
    for (int i = ss; i < se; i++) {
        const smr_msg *m = &pl->send[i];
        pack(x, m);
        MPI_Isend(x->sendbuf + m->offset, (int)m->cells, MPI_DOUBLE, m->peer, SMR_TAG(m->round), comm,
                  &x->req[n++]);
        x->bytes += m->cells * (int64_t)sizeof(double);
        x->messages++;
    }
    double t0 = MPI_Wtime();
    MPI_Waitall(n, x->req, MPI_STATUSES_IGNORE);
    x->wait_s += MPI_Wtime() - t0;
    for (int i = rs; i < re; i++) unpack(x, &pl->recv[i]);
}

void smr_exchange_copies(smr_exchange *x)
{
    const smr_plan *pl = x->pl;
    for (int i = 0; i < pl->ncopies; i++) {
        const smr_copy *c = &pl->copies[i];
        sm_kblock_copy_halo(&x->blocks[c->dst], &x->blocks[c->src], pl->dirs[c->dir]);
    }
}

void smr_exchange_messages(smr_exchange *x, MPI_Comm comm)
{
    const smr_plan *pl = x->pl;
    /* Messages are sorted by round: walk both lists a round at a time.
     * In "all" mode every message is in round 0. */
    int r = 0, s = 0;
    while (r < pl->nrecv || s < pl->nsend) {
        int round = r < pl->nrecv ? pl->recv[r].round : pl->send[s].round;
        if (s < pl->nsend && pl->send[s].round < round) round = pl->send[s].round;
        int re = r, se = s;
        while (re < pl->nrecv && pl->recv[re].round == round) re++;
        while (se < pl->nsend && pl->send[se].round == round) se++;
        exchange_range(x, comm, r, re, s, se);
        r = re;
        s = se;
    }
}

void smr_exchange_free(smr_exchange *x)
{
    free(x->sendbuf);
    free(x->recvbuf);
    free(x->req);
    memset(x, 0, sizeof *x);
}
