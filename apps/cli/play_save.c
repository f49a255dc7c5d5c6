/* SPDX-License-Identifier: MIT
 * apps/cli/play_save.c: saving and loading `damier play` games as PDN (through the
 * pdn module), and the automatic save under the XDG data directory:
 *     $XDG_DATA_HOME/damier/games/YYYYMMDD-HHMMSS.pdn   (else ~/.local/share/...)
 *     ... YYYYMMDD-HHMMSS-russian.pdn                   (a game of another variant)
 * Loading reads the variant from the record's GameType.
 * A file is written to a unique "<path>.XXXXXX", synced and renamed over the target, so
 * an interrupted save never leaves a truncated game (a symbolic link or a special file
 * such as /dev/null is written in place instead: a rename would replace it); a new
 * automatic save file appears complete (play_create_file). The jumping games
 * (play_jump.c) save through the same two functions. */
#define _POSIX_C_SOURCE 200809L
#include "play.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <damier/pdn.h>

int play_default_save_dir(char *buf, size_t cap, dm_error *err)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    int n;
    /* XDG Base Directory: a relative XDG_DATA_HOME is invalid and must be ignored */
    if (xdg && xdg[0] == '/') {
        n = snprintf(buf, cap, "%s/damier/games", xdg);
    } else if (home && *home) {
        n = snprintf(buf, cap, "%s/.local/share/damier/games", home);
    } else {
        dm_error_set(err, DM_EINVAL, 0, 0, "neither XDG_DATA_HOME nor HOME is set");
        return 0;
    }
    if (n < 0 || (size_t)n >= cap) {
        dm_error_set(err, DM_EBUFS, 0, 0, "data directory path too long");
        return 0;
    }
    return 1;
}

/* mkdir -p */
dm_status play_make_dirs(const char *dir, dm_error *err)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        return dm_error_set(err, DM_EIO, 0, 0, "directory name too long: %s", dir);
    }
    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == 0) {
            char c = *p;
            *p = 0;
            if (mkdir(path, 0755) != 0 && errno != EEXIST) {
                return dm_error_set(err, DM_EIO, 0, 0, "cannot create %s: %s", path,
                                    strerror(errno));
            }
            *p = c;
            if (c == 0) {
                break;
            }
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s is not a directory", dir);
    }
    return DM_OK;
}

void play_record_tags(dm_pdn_game_tags *out, char *date, size_t cap, long long started,
                      const char *white, const char *black)
{
    time_t t0 = (time_t)started;
    struct tm tm;
    localtime_r(&t0, &tm);
    strftime(date, cap, "%Y.%m.%d", &tm);
    dm_pdn_game_tags t = DM_PDN_GAME_TAGS_INIT;
    t.event = "Casual game";
    t.site = "damier play";
    t.date = date;
    t.round = "-";
    t.white = white;
    t.black = black;
    *out = t;
}

/* The player's name for the PDN tags: the login name for a human. */
static void pdn_name(char *buf, size_t cap, const play_session *s, dm_color c)
{
    if (s->who[c] == PLAY_ENGINE) {
        snprintf(buf, cap, "damier (level %d)", s->level.level);
        return;
    }
    const char *user = getenv("USER");
    snprintf(buf, cap, "%s", user && *user ? user : "Player");
}

/* write(2) all of buf, going on after short writes and EINTR. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return 0;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 1;
}

/* Make a rename or link in the directory of path durable (best effort: a file system
 * that cannot sync a directory loses nothing that was not already at risk). */
static void sync_dir_of(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir) {
        slash[1] = 0;
    } else if (slash) {
        *slash = 0;
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

dm_status play_write_file(const char *path, const char *text, size_t len, dm_error *err)
{
    /* The rename below replaces whatever is at path: `save /dev/full` (as root)
     * turned the device into a regular file and reported "saved", and a symbolic
     * link became a file. Write those in place (errors are then reported, a
     * directory refused by fopen); only a new or regular file goes through a
     * temporary file. */
    struct stat sb;
    int direct = lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
    /* A unique temporary name beside the target (mkstemp), so that a user's own
     * "<path>.tmp" is never overwritten; it gets the target's mode if the target
     * exists, else rw-r--r--. */
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    FILE *f = NULL;
    if (direct) {
        f = fopen(path, "w");
    } else {
        int fd = mkstemp(tmp);
        if (fd >= 0) {
            int exists = lstat(path, &sb) == 0;
            if (fchmod(fd, exists ? (sb.st_mode & 07777) : 0644) != 0 || !(f = fdopen(fd, "w"))) {
                close(fd);
                unlink(tmp);
            }
        }
    }
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "cannot write %s: %s", path, strerror(errno));
    }
    int ok = fwrite(text, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    int first_errno = ok ? 0 : errno; /* fsync on a device would say EINVAL instead */
    ok = (fsync(fileno(f)) == 0 || errno == EINVAL) && ok;
    ok = (fclose(f) == 0) && ok;
    if (direct && !ok) {
        return dm_error_set(err, DM_EIO, 0, 0, "cannot write %s: %s", path,
                            strerror(first_errno ? first_errno : errno));
    }
    if (!direct && (!ok || rename(tmp, path) != 0)) {
        dm_status st =
            dm_error_set(err, DM_EIO, 0, 0, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return st;
    }
    if (!direct) {
        sync_dir_of(path);
    }
    return DM_OK;
}

dm_status play_create_file(char *out, size_t cap, const char *dir, const char *base,
                           const char *text, size_t len, dm_error *err)
{
    /* The file is written whole under a temporary name and then linked to the first
     * free name: link(2) fails on an existing name (no other game is replaced) and
     * the name appears with the complete game. Reserving the name first with an
     * empty O_EXCL file (as before) left an empty .pdn when the program was killed
     * before the first save was written (tests/cli/crash_save.sh). */
    char tmp[PATH_MAX];
    int n = snprintf(tmp, sizeof tmp, "%s/%s.pdn.XXXXXX", dir, base);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        return dm_error_set(err, DM_EIO, 0, 0, "save path too long");
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        return dm_error_set(err, DM_EIO, 0, 0, "cannot create a file in %s: %s", dir,
                            strerror(errno));
    }
    int ok = fchmod(fd, 0644) == 0 && write_all(fd, text, len) && fsync(fd) == 0;
    int saved_errno = errno;
    ok = close(fd) == 0 && ok;
    if (!ok) {
        unlink(tmp);
        return dm_error_set(err, DM_EIO, 0, 0, "cannot write %s: %s", tmp, strerror(saved_errno));
    }
    dm_status st = DM_OK;
    int found = 0;
    for (int k = 1; k < 100 && !found && st == DM_OK; k++) {
        char path[PATH_MAX];
        n = k == 1 ? snprintf(path, sizeof path, "%s/%s.pdn", dir, base)
                   : snprintf(path, sizeof path, "%s/%s-%d.pdn", dir, base, k);
        if (n < 0 || (size_t)n >= sizeof path || (size_t)n >= cap) {
            st = dm_error_set(err, DM_EIO, 0, 0, "save path too long");
        } else if (link(tmp, path) == 0) {
            memcpy(out, path, (size_t)n + 1);
            found = 1;
        } else if (errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP) {
            /* no hard links here (FAT, some FUSE file systems): reserve the name with
             * an empty O_EXCL file and rename the game over it */
            int fd2 = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd2 >= 0) {
                close(fd2);
                if (rename(tmp, path) == 0) {
                    memcpy(out, path, (size_t)n + 1);
                    found = 1;
                } else {
                    st = dm_error_set(err, DM_EIO, 0, 0, "cannot write %s: %s", path,
                                      strerror(errno));
                    unlink(path);
                }
            } else if (errno != EEXIST) {
                st = dm_error_set(err, DM_EIO, 0, 0, "cannot create %s: %s", path, strerror(errno));
            }
        } else if (errno != EEXIST) {
            st = dm_error_set(err, DM_EIO, 0, 0, "cannot create %s: %s", path, strerror(errno));
        }
    }
    unlink(tmp);
    if (st == DM_OK && !found) {
        st = dm_error_set(err, DM_EIO, 0, 0, "no free file name in %s", dir);
    }
    if (st == DM_OK) {
        sync_dir_of(out);
    }
    return st;
}

/* The game as PDN text (*text malloc'd, the caller frees it), by the library's
 * writer of a dm_game's record. */
static dm_status record_text(char **text, size_t *len, play_session *s, dm_error *err)
{
    char wname[96], bname[96], date[32];
    pdn_name(wname, sizeof wname, s, DM_WHITE);
    pdn_name(bname, sizeof bname, s, DM_BLACK);
    dm_pdn_game_tags tags;
    play_record_tags(&tags, date, sizeof date, s->started, wname, bname);
    tags.time_control = s->has_tc ? &s->tc : NULL;
    dm_status st = dm_pdn_write_game(text, len, play_game(s), &tags, DM_NOTATION_PDN);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "cannot write PDN: %s", dm_status_str(st));
    }
    return DM_OK;
}

dm_status play_save_file(play_session *s, const char *path, dm_error *err)
{
    char *text = NULL;
    size_t len = 0;
    dm_status st = record_text(&text, &len, s, err);
    if (st == DM_OK) {
        st = play_write_file(path, text, len, err);
    }
    free(text);
    return st;
}

dm_status play_autosave(play_session *s, dm_error *err)
{
    if (dm_game_ply(play_game(s)) == 0 && !dm_game_over(play_game(s))) {
        return DM_OK;
    }
    if (s->save_path[0]) {
        return play_save_file(s, s->save_path, err);
    }
    if (!s->save_dir[0]) {
        return dm_error_set(err, DM_EIO, 0, 0, "no directory to save games in");
    }
    dm_status st = play_make_dirs(s->save_dir, err);
    if (st != DM_OK) {
        return st;
    }
    time_t t0 = (time_t)s->started;
    struct tm tm;
    localtime_r(&t0, &tm);
    char stamp[32], base[64];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    /* the variant in the name, after the date; international, the default, without */
    const dm_variant *v = dm_game_variant(play_game(s));
    snprintf(base, sizeof base, "%s%s%s", stamp, v->id == DM_VARIANT_INTERNATIONAL ? "" : "-",
             v->id == DM_VARIANT_INTERNATIONAL ? "" : v->name);
    char *text = NULL;
    size_t len = 0;
    st = record_text(&text, &len, s, err);
    if (st == DM_OK) {
        /* a name no other game uses (two games started in the same second) */
        st = play_create_file(s->save_path, sizeof s->save_path, s->save_dir, base, text, len, err);
    }
    free(text);
    return st;
}

static char *read_all(const char *path, size_t *len, dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        dm_error_set(err, DM_EIO, 0, 0, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) {
            break;
        }
        if (cap >= ((size_t)64 << 20)) {
            dm_error_set(err, DM_EIO, 0, 0, "%s: larger than 64 MiB", path);
            free(buf);
            fclose(f);
            return NULL;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf) {
        dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory reading %s", path);
        return NULL;
    }
    if (bad) {
        dm_error_set(err, DM_EIO, 0, 0, "cannot read %s", path);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

dm_status play_load_file(dm_game **out, const char *path, char *warn, size_t wcap, dm_error *err)
{
    if (wcap > 0) {
        warn[0] = 0;
    }
    size_t len;
    char *text = read_all(path, &len, err);
    if (!text) {
        return DM_EIO;
    }
    /* the moves up to the first one that cannot be replayed (said in warn) */
    dm_error stop;
    dm_status st = dm_pdn_read_game(out, NULL, text, len, path, 1, &stop);
    free(text);
    if (st != DM_OK) {
        if (err) {
            *err = stop;
        }
        return st;
    }
    if (stop.message[0]) {
        snprintf(warn, wcap, "stopped after %d plies: %s", dm_game_ply(*out), stop.message);
    }
    return DM_OK;
}
