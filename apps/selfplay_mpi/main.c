/* SPDX-License-Identifier: MIT
 * apps/selfplay_mpi/main.c: `mpirun -np N damier-selfplay-mpi --gen DIR [options]`:
 * the self-play samples of `damier selfplay --gen` (apps/cli/cmd_selfplay.c, the same
 * code, with the same options) played by N processes, on one machine or several,
 * into one folder all of them see (a shared file system). Rank R plays the chunks k
 * with (k - first) % N == R (selfplay's --rank R --ranks N): one output shard per
 * rank, the chunk files byte for byte those one process writes, since a chunk's
 * games depend only on its seed (tests/cli/selfplay_mpi.sh); a stopped run started
 * again skips the chunks written. Output: each rank's "selfplay: rank R of N: ..."
 * line, then rank 0's "selfplay-mpi: N processes, ..." once every rank is done.
 * A separate program, built only when Open MPI is found (cmake -DDM_MPI), so that
 * damier itself never links MPI. Exit 0; 1 when a rank failed; 2 on bad arguments. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "commands.h"
#include "mpi_wait.h"

/* The clock cmd_selfplay reads (apps/cli/cli_util.c in damier). */
double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* MPI_Allreduce (maximum) without the busy wait of a blocking collective: a rank
 * done with its shard sleeps (mpi_wait.h). -1 on an MPI error. */
static int max_over_ranks(int mine, int *out)
{
    MPI_Request rq;
    if (MPI_Iallreduce(&mine, out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq) != MPI_SUCCESS) {
        return -1;
    }
    return mpi_wait_sleeping(&rq);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rank") || !strcmp(argv[i], "--ranks")) {
            fprintf(stderr, "damier-selfplay-mpi: %s is set from the MPI rank\n", argv[i]);
            return 2;
        }
        if (!strcmp(argv[i], "--match")) {
            fprintf(stderr, "damier-selfplay-mpi: plays --gen only (damier selfplay --match)\n");
            return 2;
        }
    }
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        fprintf(stderr, "damier-selfplay-mpi: MPI_Init failed\n");
        return 1;
    }
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    /* damier selfplay ARGS --rank R --ranks N */
    static char name[] = "selfplay", rank_opt[] = "--rank", ranks_opt[] = "--ranks";
    char r_text[16], n_text[16];
    snprintf(r_text, sizeof r_text, "%d", rank);
    snprintf(n_text, sizeof n_text, "%d", ranks);
    char **args = malloc(((size_t)argc + 5) * sizeof *args);
    if (!args) {
        fprintf(stderr, "damier-selfplay-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    int n = 0;
    args[n++] = name;
    for (int i = 1; i < argc; i++) {
        args[n++] = argv[i];
    }
    args[n++] = rank_opt;
    args[n++] = r_text;
    args[n++] = ranks_opt;
    args[n++] = n_text;
    args[n] = NULL;
    double t0 = cli_now();
    int rc = cmd_selfplay(n, args);
    fflush(stdout);
    free(args);
    int worst = rc;
    if (max_over_ranks(rc, &worst) != 0) {
        worst = 1;
    }
    if (rank == 0 && worst == 0) {
        printf("selfplay-mpi: %d processes, every shard written, %.1f s\n", ranks, cli_now() - t0);
    }
    MPI_Finalize();
    return worst;
}
