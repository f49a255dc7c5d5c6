/* SPDX-License-Identifier: MIT
 * apps/cli/match_engine.h: an engine of `damier match` as a child process: started
 * with `sh -c CMD` (in its own folder and process group), its stdin and stdout on
 * pipes, its output read without blocking and cut into lines. The protocol (Hub) is
 * cmd_match.c's business; this is the process and the line buffer. */
#ifndef DM_APPS_CLI_MATCH_ENGINE_H
#define DM_APPS_CLI_MATCH_ENGINE_H

#include <stddef.h>
#include <sys/types.h>

/* Longest engine line kept (the Hub codec's limit); a longer one is a garbled line. */
#define MATCH_LINE_MAX 8192

typedef struct match_proc {
    pid_t pid;    /* 0 when not running */
    int to_fd;    /* the engine's stdin (we write), -1 when closed */
    int from_fd;  /* the engine's stdout (we read, non-blocking), -1 when closed */
    int eof;      /* 1 once its output has ended (it closed it, or died) */
    int too_long; /* 1 when a line longer than MATCH_LINE_MAX came (it is dropped) */
    size_t len;   /* bytes in buf */
    char buf[MATCH_LINE_MAX + 2];
} match_proc;

/* Start `sh -c cmd` in folder dir (NULL or "": ours). Returns 0, or -1 with why in
 * err (a folder that does not exist is found here; a command that does not exist
 * shows as an engine whose output ends at once). */
int match_proc_start(match_proc *p, const char *cmd, const char *dir, char *err, size_t cap);

/* Write line and a newline. Returns 0, or -1 when the engine cannot take it (it died). */
int match_proc_send(match_proc *p, const char *line);

/* Read what the engine has written (after poll said so). Returns the bytes read, 0 at
 * the end of its output (p->eof set), -1 when nothing was there. */
long match_proc_read(match_proc *p);

/* The next complete line into line[cap] (the newline and a '\r' removed): 1, or 0 when
 * no complete line is buffered. At the end of the output a last unterminated line is
 * returned too. */
int match_proc_line(match_proc *p, char *line, size_t cap);

/* Stop the engine: close its stdin, give it grace_ms to exit, then SIGKILL its
 * process group; reap it. Nothing when it is not running. Returns its wait status
 * (or -1). */
int match_proc_stop(match_proc *p, int grace_ms);

/* A wait status in words: "exit status 1", "killed by signal 11". */
void match_proc_status_str(char *buf, size_t cap, int status);

/* Has the engine exited? Returns 1 with its wait status in *status (and reaps it). */
int match_proc_exited(match_proc *p, int *status);

#endif
