/* SPDX-License-Identifier: MIT
 * damier.h: the whole public API of libdamier in one include. Each header under
 * damier/ says what it owns; link with -ldamier (libdamier.so or libdamier.a).
 *
 *   status.h   status codes and error details
 *   version.h  the library version
 *   variant.h  every draughts variant: rules as data, positions, moves, legal moves,
 *              perft, FEN, notation, draw rules (the fast international board,
 *              src/core/board10.h and move10.h, is internal to the library)
 *   jump.h     the jumping games: Chinese checkers, Halma, Ge Wu
 *   game.h     a game: history, results, draw rules, undo
 *   clock.h    time controls and the clock
 *   pdn.h      PDN game records: read, replay, write
 *   engine.h   the searching engine, every variant
 *   session.h  a game with its clock and an engine searching asynchronously
 *   hub.h      the Hub protocol session
 *   rating.h   player ratings (Glicko-2)
 *   puzzle.h   tactics puzzles: a unique winning move found by the engine
 *   diagram.h  a position as a picture (SVG)
 *   tourney.h  tournaments: pairings (round robin, Swiss), results, standings, teams */
#ifndef DAMIER_H
#define DAMIER_H

#include <damier/status.h>
#include <damier/version.h>
#include <damier/variant.h>
#include <damier/jump.h>
#include <damier/game.h>
#include <damier/clock.h>
#include <damier/pdn.h>
#include <damier/egdb.h>
#include <damier/eval.h>
#include <damier/book.h>
#include <damier/engine.h>
#include <damier/session.h>
#include <damier/hub.h>
#include <damier/dxp.h>
#include <damier/rating.h>
#include <damier/puzzle.h>
#include <damier/diagram.h>
#include <damier/tourney.h>

#endif /* DAMIER_H */
