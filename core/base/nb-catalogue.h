/* nb-catalogue.h — a language's message catalogue, passed as a parameter
 *
 * The protocol is written in the language its caller asks for, on whatever
 * thread renders it: two reports in two languages may be built at once (the
 * desktop application writes one on a worker while its window speaks
 * another).  gettext cannot do that: its language is the process's
 * (setlocale, LANGUAGE), and uselocale() per thread is overridden by the
 * LANGUAGE variable and needs the locale generated on the machine.  So the
 * report does not call gettext: it reads the same GNU .mo files msgfmt
 * builds from the po/ files (one place for the words) into an immutable
 * catalogue, and looks words up in the catalogue it was given.
 *
 * English is the msgids themselves: its catalogue is empty unless an en.mo
 * is installed.  A NULL catalogue is English too.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _NbCatalogue NbCatalogue;

/* Marks a msgid for xgettext where the lookup happens later (a table). */
#ifndef N_
#define N_(String) (String)
#endif
/* The same in a context (looked up with nb_ptr). */
#ifndef NC_
#define NC_(Context, String) (String)
#endif

/* Reads a GNU .mo file (either byte order) for the language `lang` (its
 * plural rule: "en" two forms, "ru" three).  NULL with an error naming the
 * file when it cannot be read, is not a message catalogue, lies about its
 * sizes, is not UTF-8 or declares another number of plural forms. */
NbCatalogue *nb_catalogue_load (const char *path, const char *lang, GError **error);
void         nb_catalogue_free (NbCatalogue *catalogue);

/* The catalogue of `lang` in locale_dir (locale_dir/LANG/LC_MESSAGES/
 * navbench.mo), read once and kept for the life of the process; safe from
 * any thread.  English without a file is the empty catalogue. */
const NbCatalogue *nb_catalogue_for_language (const char *locale_dir, const char *lang,
                                              GError **error);

/* The languages with a plural rule here; FALSE for any other. */
gboolean     nb_catalogue_language_known (const char *lang);
const char  *nb_catalogue_language (const NbCatalogue *catalogue);
guint        nb_catalogue_size (const NbCatalogue *catalogue);

/* The translation of msgid, or msgid itself when the catalogue lacks it. */
const char  *nb_tr (const NbCatalogue *catalogue, const char *msgid) G_GNUC_FORMAT (2);
/* The plural form for n (the language's rule); without a translation, the
 * English rule picks singular or plural. */
const char  *nb_ntr (const NbCatalogue *catalogue, const char *singular, const char *plural,
                     gulong n) G_GNUC_FORMAT (2) G_GNUC_FORMAT (3);
/* pgettext: msgid in the context ctx (stored as "ctx\004msgid"). */
const char  *nb_ptr (const NbCatalogue *catalogue, const char *ctx, const char *msgid)
  G_GNUC_FORMAT (3);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbCatalogue, nb_catalogue_free)

G_END_DECLS
