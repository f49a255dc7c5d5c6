/* SPDX-License-Identifier: MIT
 * apps/egdb_mpi/mpi_wait.h: waiting for a non-blocking MPI operation without Open
 * MPI's busy wait, for the MPI programs (damier-egdb-mpi, damier-selfplay-mpi): a
 * rank done with its share sleeps in 1 ms steps instead of spinning on a core the
 * others need. */
#ifndef DM_APPS_MPI_WAIT_H
#define DM_APPS_MPI_WAIT_H

#include <time.h>

#include <mpi.h>

/* Wait for rq to complete; 0, or -1 on an MPI error. */
static inline int mpi_wait_sleeping(MPI_Request *rq)
{
    for (;;) {
        int done = 0;
        if (MPI_Test(rq, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            return -1;
        }
        if (done) {
            return 0;
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

#endif /* DM_APPS_MPI_WAIT_H */
