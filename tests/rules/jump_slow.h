/* SPDX-License-Identifier: MIT
 * tests/rules/jump_slow.h: an independent, slow move generator for Chinese checkers
 * and Halma, to cross-check src/jump (it shares no code or table with it).
 *
 * Chinese checkers here is built from the star's rows: 17 rows of 1, 2, 3, 4, 13,
 * 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1 holes, each centred, in "doubled"
 * coordinates (x2 steps by 2 along a row; the neighbours are x2 +- 2 in the row and
 * x2 +- 1 in the rows above and below). Holes are numbered row by row from the top,
 * left to right, which is the library's documented numbering. Halma uses (file,
 * rank) directly. Jump chains are enumerated as every simple path (depth first,
 * exponential, fine for tests), collecting the destinations. */
#ifndef JUMP_SLOW_H
#define JUMP_SLOW_H

#include <stdint.h>
#include <string.h>

#define SLOW_MAXSQ 256

typedef struct slow_board {
    int n; /* squares */
    int x[SLOW_MAXSQ], y[SLOW_MAXSQ];
    int dirs, dx[8], dy[8];
    int side;                  /* Halma board side, 0 for the star */
    int corner_of[SLOW_MAXSQ]; /* star: point 0..5 clockwise from the top, -1 = centre */
} slow_board;

static int slow_find(const slow_board *b, int x, int y)
{
    for (int i = 0; i < b->n; i++) {
        if (b->x[i] == x && b->y[i] == y) {
            return i;
        }
    }
    return -1;
}

static void slow_star(slow_board *b)
{
    static const int len[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
    static const int dx[6] = {2, -2, 1, -1, 1, -1}, dy[6] = {0, 0, 1, 1, -1, -1};
    memset(b, 0, sizeof *b);
    for (int y = 0; y < 17; y++) {
        int hex = y >= 4 && y <= 12 ? 9 - (y < 8 ? 8 - y : y - 8) : 0;
        for (int k = 0; k < len[y]; k++) {
            int x2 = -(len[y] - 1) + 2 * k;
            b->x[b->n] = x2;
            b->y[b->n] = y;
            int c = -1;
            if (y < 4)
                c = 0;
            else if (y > 12)
                c = 3;
            else if (x2 > hex - 1)
                c = y < 8 ? 1 : 2;
            else if (x2 < -(hex - 1))
                c = y < 8 ? 5 : 4;
            b->corner_of[b->n] = c;
            b->n++;
        }
    }
    b->dirs = 6;
    memcpy(b->dx, dx, sizeof dx);
    memcpy(b->dy, dy, sizeof dy);
}

static void slow_halma(slow_board *b, int side)
{
    memset(b, 0, sizeof *b);
    for (int y = 0; y < side; y++) {
        for (int x = 0; x < side; x++) {
            b->x[b->n] = x;
            b->y[b->n] = y;
            b->corner_of[b->n] = -1;
            b->n++;
        }
    }
    b->side = side;
    b->dirs = 8;
    int k = 0;
    for (int a = -1; a <= 1; a++) {
        for (int c = -1; c <= 1; c++) {
            if (a || c) {
                b->dx[k] = a;
                b->dy[k] = c;
                k++;
            }
        }
    }
}

/* owner[i]: seat on square i, or -1. */
typedef struct slow_pos {
    int owner[SLOW_MAXSQ];
    int to_move, players;
} slow_pos;

static void slow_dfs(const slow_board *b, const slow_pos *p, int at, char *visited, char *dest)
{
    for (int d = 0; d < b->dirs; d++) {
        int over = slow_find(b, b->x[at] + b->dx[d], b->y[at] + b->dy[d]);
        int land = slow_find(b, b->x[at] + 2 * b->dx[d], b->y[at] + 2 * b->dy[d]);
        if (over < 0 || land < 0 || p->owner[over] < 0 || p->owner[land] >= 0 || visited[land]) {
            continue;
        }
        visited[land] = 1;
        dest[land] = 1;
        slow_dfs(b, p, land, visited, dest);
        visited[land] = 0; /* every simple path, not only the first found */
    }
}

/* forbid[i]: the side to move may not end on square i. Moves as from*512 + to. */
static int slow_moves(const slow_board *b, const slow_pos *p0, const char *forbid, int *out)
{
    int n = 0;
    for (int from = 0; from < b->n; from++) {
        if (p0->owner[from] != p0->to_move) {
            continue;
        }
        slow_pos p = *p0;
        p.owner[from] = -1;
        char visited[SLOW_MAXSQ] = {0}, dest[SLOW_MAXSQ] = {0};
        for (int d = 0; d < b->dirs; d++) {
            int t = slow_find(b, b->x[from] + b->dx[d], b->y[from] + b->dy[d]);
            if (t >= 0 && p.owner[t] < 0) {
                dest[t] = 1;
            }
        }
        visited[from] = 1;
        slow_dfs(b, &p, from, visited, dest);
        for (int t = 0; t < b->n; t++) {
            if (dest[t] && !(forbid && forbid[t])) {
                out[n++] = from * 512 + t;
            }
        }
    }
    return n;
}

static uint64_t slow_perft(const slow_board *b, const slow_pos *p, int depth)
{
    if (depth == 0) {
        return 1;
    }
    static int buf[8][8192];
    int n = slow_moves(b, p, NULL, buf[depth]);
    if (depth == 1) {
        return (uint64_t)n;
    }
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        slow_pos q = *p;
        int m = buf[depth][i];
        q.owner[m % 512] = q.owner[m / 512];
        q.owner[m / 512] = -1;
        q.to_move = (q.to_move + 1) % q.players;
        total += slow_perft(b, &q, depth - 1);
    }
    return total;
}

#endif
