/* SPDX-License-Identifier: MIT
 * apps/cli/match_engine.c: engine child processes of `damier match` (match_engine.h). */
#define _POSIX_C_SOURCE 200809L
#include "match_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* A pipe whose ends are not inherited by the other engines' processes (else an engine
 * would keep another's pipe open and its death would never show as the end of its
 * output). */
static int cloexec_pipe(int fd[2])
{
    if (pipe(fd) != 0) {
        return -1;
    }
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

int match_proc_start(match_proc *p, const char *cmd, const char *dir, char *err, size_t cap)
{
    memset(p, 0, sizeof *p);
    p->to_fd = p->from_fd = -1;
    if (dir && *dir && access(dir, X_OK) != 0) {
        snprintf(err, cap, "cannot enter folder '%s': %s", dir, strerror(errno));
        return -1;
    }
    int in[2], out[2];
    if (cloexec_pipe(in) != 0) {
        snprintf(err, cap, "pipe: %s", strerror(errno));
        return -1;
    }
    if (cloexec_pipe(out) != 0) {
        snprintf(err, cap, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, cap, "fork: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0); /* its own group: stopping it stops what sh started too */
        dup2(in[0], 0);
        dup2(out[1], 1);
        signal(SIGPIPE, SIG_DFL);
        if (dir && *dir && chdir(dir) != 0) {
            _exit(126);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, so that it holds whoever runs first */
    close(in[0]);
    close(out[1]);
    p->pid = pid;
    p->to_fd = in[1];
    p->from_fd = out[0];
    fcntl(p->from_fd, F_SETFL, fcntl(p->from_fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

int match_proc_send(match_proc *p, const char *line)
{
    if (p->to_fd < 0) {
        return -1;
    }
    size_t n = strlen(line);
    char buf[MATCH_LINE_MAX + 2];
    if (n > MATCH_LINE_MAX) {
        return -1;
    }
    memcpy(buf, line, n);
    buf[n++] = '\n';
    for (size_t off = 0; off < n;) {
        ssize_t w = write(p->to_fd, buf + off, n - off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            close_fd(&p->to_fd); /* EPIPE: it is gone (SIGPIPE is ignored) */
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

long match_proc_read(match_proc *p)
{
    if (p->from_fd < 0) {
        return 0;
    }
    if (p->len >= MATCH_LINE_MAX) {
        /* a line longer than the limit: drop it up to its end */
        char *nl = memchr(p->buf, '\n', p->len);
        if (!nl) {
            p->too_long = 1;
            p->len = 0;
        }
    }
    ssize_t r;
    do {
        r = read(p->from_fd, p->buf + p->len, MATCH_LINE_MAX - p->len);
    } while (r < 0 && errno == EINTR);
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
        p->eof = 1;
        close_fd(&p->from_fd);
        return 0;
    }
    if (r < 0) {
        return -1;
    }
    p->len += (size_t)r;
    return r;
}

int match_proc_line(match_proc *p, char *line, size_t cap)
{
    char *nl = memchr(p->buf, '\n', p->len);
    size_t n;
    if (nl) {
        n = (size_t)(nl - p->buf);
    } else if (p->eof && p->len > 0) {
        n = p->len;
    } else {
        return 0;
    }
    size_t take = n;
    if (take > 0 && p->buf[take - 1] == '\r') {
        take--;
    }
    if (take >= cap) {
        take = cap - 1;
    }
    memcpy(line, p->buf, take);
    line[take] = '\0';
    size_t used = nl ? n + 1 : n;
    memmove(p->buf, p->buf + used, p->len - used);
    p->len -= used;
    return 1;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int match_proc_exited(match_proc *p, int *status)
{
    if (p->pid <= 0) {
        return 0;
    }
    pid_t r = waitpid(p->pid, status, WNOHANG);
    if (r == p->pid) {
        p->pid = 0;
        return 1;
    }
    return 0;
}

int match_proc_stop(match_proc *p, int grace_ms)
{
    int status = -1;
    close_fd(&p->to_fd);
    if (p->pid > 0) {
        int waited = 0;
        while (waited < grace_ms && !match_proc_exited(p, &status)) {
            sleep_ms(5);
            waited += 5;
        }
        if (p->pid > 0) {
            kill(-p->pid, SIGKILL);
            kill(p->pid, SIGKILL);
            while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR) {
            }
            p->pid = 0;
        }
    }
    close_fd(&p->from_fd);
    p->len = 0;
    return status;
}

void match_proc_status_str(char *buf, size_t cap, int status)
{
    if (status == -1) {
        snprintf(buf, cap, "unknown status");
    } else if (WIFEXITED(status)) {
        snprintf(buf, cap, "exit status %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        snprintf(buf, cap, "killed by signal %d", WTERMSIG(status));
    } else {
        snprintf(buf, cap, "wait status %d", status);
    }
}
