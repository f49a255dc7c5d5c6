/* SPDX-License-Identifier: MIT
 * apps/cli/cli_i18n.c: the terminal game's language (cli_i18n.h). */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_i18n.h"

#ifndef DM_LOCALEDIR_BUILD
#define DM_LOCALEDIR_BUILD ""
#endif
#ifndef DM_LOCALEDIR
#define DM_LOCALEDIR "/usr/local/share/locale"
#endif

#if DM_NLS
/* The first of the variables gettext reads that is set and not empty. */
static const char *env_locale(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            return v;
        }
    }
    return NULL;
}
#endif

void cli_i18n_init(void)
{
#if DM_NLS
    if (!setlocale(LC_MESSAGES, "")) {
        /* The locale the environment names is not installed (locale-gen was never run
         * for it). glibc then keeps "C", where gettext translates nothing, not even by
         * LANGUAGE. C.UTF-8 is always there and lets LANGUAGE choose: name the language
         * of LC_ALL / LC_MESSAGES / LANG there ("zh_CN.UTF-8" -> "zh_CN"), unless
         * LANGUAGE says already. */
        const char *want = env_locale();
        const char *language = getenv("LANGUAGE");
        if (want && strcmp(want, "C") && strcmp(want, "POSIX") &&
            setlocale(LC_MESSAGES, "C.UTF-8") && !(language && *language)) {
            char name[64];
            snprintf(name, sizeof name, "%s", want);
            name[strcspn(name, ".@")] = '\0';
            setenv("LANGUAGE", name, 1);
        }
    }
    /* the catalogs of the build tree while it is there (as damier serve's web/), else
     * the installed ones; DAMIER_LOCALEDIR overrides both */
    const char *dir = getenv("DAMIER_LOCALEDIR");
    if (!(dir && *dir)) {
        dir = DM_LOCALEDIR_BUILD[0] && access(DM_LOCALEDIR_BUILD, R_OK) == 0 ? DM_LOCALEDIR_BUILD
                                                                             : DM_LOCALEDIR;
    }
    bindtextdomain("damier", dir);
    bind_textdomain_codeset("damier", "UTF-8");
    textdomain("damier");
    /* translated messages are UTF-8: where a catalog speaks, the terminal's characters
     * too (the line editor reads the prompt by LC_CTYPE), C.UTF-8 when the locale
     * named is not installed */
    if (strcmp(gettext("White"), "White") && !setlocale(LC_CTYPE, "")) {
        setlocale(LC_CTYPE, "C.UTF-8");
    }
#endif
}

/* "piece" or "pieces" after a count in the library's English. */
static const char *skip_piece(const char *p)
{
    if (strncmp(p, " piece", 6)) {
        return NULL;
    }
    p += 6;
    return *p == 's' ? p + 1 : p;
}

/* fmt's translation, or NULL where the catalog has none (the English is msg itself). */
static const char *tr(const char *fmt)
{
#if DM_NLS
    const char *t = gettext(fmt);
    return t != fmt ? t : NULL;
#else
    (void)fmt;
    return NULL;
#endif
}

const char *cli_tr_error(const char *msg, char *buf, size_t cap)
{
    const char *t;
    /* the rules' reasons (src/core/notation.c), each with its English as the msgid */
    static const char *const illegal = "illegal move \"", *const ambiguous = "ambiguous move \"";
    const char *fmt = NULL;
    char move[128] = "", rest[512] = "", word[32] = "";
    int n = 0;
    size_t lp = strlen(illegal), la = strlen(ambiguous);
    const char *text = !strncmp(msg, illegal, lp)     ? msg + lp
                       : !strncmp(msg, ambiguous, la) ? msg + la
                                                      : NULL;
    const char *end = text ? strstr(text, "\": ") : NULL;
    if (!end || (size_t)(end - text) >= sizeof move) {
        return msg;
    }
    memcpy(move, text, (size_t)(end - text));
    move[end - text] = '\0';
    const char *r = end + 3;
    int used = 0;
    if (text == msg + la) {
        /* ambiguous move "%s": %d legal moves match (%s); give the full capture path */
        const char *tail = "); give the full capture path";
        size_t lr = strlen(r), lt = strlen(tail);
        if (sscanf(r, "%d legal moves match (%n", &n, &used) == 1 && used > 0 &&
            lr > lt + (size_t)used && !strcmp(r + lr - lt, tail) &&
            lr - lt - (size_t)used < sizeof rest) {
            memcpy(rest, r + used, lr - lt - (size_t)used);
            rest[lr - lt - (size_t)used] = '\0';
            fmt =
                N_("ambiguous move \"%s\": %d legal moves match (%s); give the full capture path");
            if ((t = tr(fmt)) != NULL) {
                snprintf(buf, cap, t, move, n, rest);
                return buf;
            }
        }
        return msg;
    }
    const char *p;
    if (sscanf(r, "square %d is empty%n", &n, &used) == 1 && r[used] == '\0') {
        fmt = N_("illegal move \"%s\": square %d is empty");
        if ((t = tr(fmt)) != NULL) {
            snprintf(buf, cap, t, move, n);
            return buf;
        }
    } else if (sscanf(r, "square %d holds a piece of the opponent (%31s to move)", &n, word) == 2) {
        fmt = N_("illegal move \"%s\": square %d holds a piece of the opponent (%s to move)");
        if ((t = tr(fmt)) != NULL) {
            snprintf(buf, cap, t, move, n, _(word));
            return buf;
        }
    } else if (!strncmp(r, "capture is compulsory (FMJD 4.1): ", 34) &&
               sscanf(r + 34, "%d%n", &n, &used) == 1 && (p = skip_piece(r + 34 + used)) &&
               !strncmp(p, " can be captured with ", 22)) {
        fmt = N_("illegal move \"%s\": capture is compulsory (FMJD 4.1): %d piece(s) can be "
                 "captured with %s");
        if ((t = tr(fmt)) != NULL) {
            snprintf(buf, cap, t, move, n, p + 22);
            return buf;
        }
    } else if (!strncmp(r, "the majority rule (FMJD 4.13) requires capturing ", 49) &&
               sscanf(r + 49, "%d%n", &n, &used) == 1 && (p = skip_piece(r + 49 + used)) &&
               !strncmp(p, ": ", 2)) {
        fmt = N_("illegal move \"%s\": the majority rule (FMJD 4.13) requires capturing %d "
                 "piece(s): %s");
        if ((t = tr(fmt)) != NULL) {
            snprintf(buf, cap, t, move, n, p + 2);
            return buf;
        }
    } else if (sscanf(r, "the %31s on %d %n", word, &n, &used) == 2 && used > 0) {
        const char *piece = !strcmp(word, "king") ? _("king") : _("man");
        if (!strcmp(r + used, "cannot move")) {
            fmt = N_("illegal move \"%s\": the %s on %d cannot move");
            if ((t = tr(fmt)) != NULL) {
                snprintf(buf, cap, t, move, piece, n);
                return buf;
            }
        } else if (!strncmp(r + used, "can play ", 9)) {
            fmt = N_("illegal move \"%s\": the %s on %d can play %s");
            if ((t = tr(fmt)) != NULL) {
                snprintf(buf, cap, t, move, piece, n, r + used + 9);
                return buf;
            }
        }
    }
    return msg;
}

const char *cli_tr_reason(const char *reason)
{
    /* dm_reason_str's texts, marked for the catalogs (src/game/draw.c) */
    static const char *const reasons[] = {
        N_("no pieces left"),       N_("no legal move"),
        N_("resignation"),          N_("draw by agreement"),
        N_("threefold repetition"), N_("25-move rule"),
        N_("16-move rule"),         N_("5-move rule"),
        N_("loss on time"),         N_("forfeit"),
        N_("no progress rule"),     N_("no capture rule"),
        N_("material rule"),        N_("first king (breakthrough)"),
        N_("neither side can win"), N_("arbiter's decision"),
    };
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        if (!strcmp(reason, reasons[i])) {
            return _(reasons[i]);
        }
    }
    /* the variants' counted draws (src/core/vdraw.c) */
    static char buf[128];
    static const char *const counted[] = {N_("%d-fold repetition"), N_("%d-move rule"),
                                          N_("%d moves without capture")};
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
        int n, used = 0;
        char probe[128];
        if (sscanf(reason, "%d%n", &n, &used) == 1 && used > 0) {
            snprintf(probe, sizeof probe, counted[i], n);
            if (!strcmp(probe, reason)) {
                snprintf(buf, sizeof buf, _(counted[i]), n);
                return buf;
            }
        }
    }
    return reason;
}

const char *cli_tr_name(const char *name)
{
    static char bufs[2][64];
    static int next;
    int level;
    char rest[8];
    if (!strcmp(name, "you")) {
        return _("you");
    }
    if (!strcmp(name, "player")) {
        return _("player");
    }
    if (sscanf(name, "damier level %d%7s", &level, rest) == 1) {
        char *b = bufs[next];
        next = !next;
        snprintf(b, sizeof bufs[0], _("damier level %d"), level);
        return b;
    }
    return name;
}
