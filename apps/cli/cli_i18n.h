/* SPDX-License-Identifier: MIT
 * apps/cli/cli_i18n.h: the terminal game's messages in the player's language, by GNU
 * gettext (glibc's libintl; catalogs po/LANG.po compiled by CMake into
 * build/locale/LANG/LC_MESSAGES/damier.mo when msgfmt is installed). _("text")
 * translates, N_("text") marks a text translated later (tables). Without libintl
 * (DM_NLS 0) both are the English text. docs/WEB.md "Languages" says how to add one. */
#ifndef DM_APPS_CLI_I18N_H
#define DM_APPS_CLI_I18N_H

#ifndef DM_NLS
#define DM_NLS 0
#endif

#if DM_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) (s)
#define ngettext(s, p, n) ((n) == 1 ? (s) : (p))
#endif
#define N_(s) (s)

#include <stddef.h>

/* Choose the messages' language from LANGUAGE, LC_ALL, LC_MESSAGES and LANG (the
 * gettext rules), also where that locale is not installed (a fresh Debian machine
 * without zh_CN.UTF-8 generated): then the catalog is picked by the language the
 * environment names. Only LC_MESSAGES is set: numbers and the plain output's keys stay
 * as they are. Call once, before the first message. */
void cli_i18n_init(void);

/* A message of the library (English: the rules' reasons for refusing a move, the
 * results' reasons) in the player's language where the catalog has it: `msg` itself
 * otherwise, or a translation written to buf. */
const char *cli_tr_error(const char *msg, char *buf, size_t cap);

/* The reason of a result (dm_reason_str's English) in the player's language. */
const char *cli_tr_reason(const char *reason);

/* A player's name as damier play names them ("you", "player", "damier level 5") in the
 * player's language for the screen; other names as they are. The PDN keeps the
 * English. Two results may be used at once (a static buffer each, in turn). */
const char *cli_tr_name(const char *name);

#endif
