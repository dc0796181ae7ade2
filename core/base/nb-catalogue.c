#include "nb-catalogue.h"

#include "nb-error.h"

#include <string.h>

/* GNU gettext's .mo layout (gettext manual, "The Format of GNU MO Files"):
 * a header of 32-bit words — magic 0x950412de, revision, the number of
 * strings N, the offsets O and T of two tables of N (length, offset) pairs,
 * the originals sorted and their translations — then the strings, each
 * followed by a NUL.  A plural entry's original is "singular\0plural" and
 * its translation the forms joined by NULs; a context is "ctx\004msgid". */
#define MO_MAGIC 0x950412deu
#define MO_MAGIC_SWAPPED 0xde120495u

/* The plural rules of the languages the protocol is written in (the
 * Plural-Forms of po/LINGUAS, and English for the msgids). */
typedef struct {
  const char *lang;
  guint nplurals;
  guint (*form) (gulong n);
} PluralRule;

static guint
plural_en (gulong n)
{
  return n != 1;
}

/* nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 &&
 * (n%100<10 || n%100>=20) ? 1 : 2): 1 попытка, 3 попытки, 5 попыток. */
static guint
plural_ru (gulong n)
{
  if (n % 10 == 1 && n % 100 != 11)
    return 0;
  if (n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20))
    return 1;
  return 2;
}

static const PluralRule plural_rules[] = {
  { "en", 2, plural_en },
  { "ru", 3, plural_ru },
};

struct _NbCatalogue {
  char *lang;
  const PluralRule *rule;
  GBytes *bytes;                /* the file; the table points into it */
  GHashTable *entries;          /* original (up to its first NUL) → Entry */
};

typedef struct {
  const char *forms;            /* the translation's forms, NUL-separated */
  gsize length;                 /* of the whole translation */
} Entry;

static const PluralRule *
rule_for (const char *lang)
{
  for (guint i = 0; lang != NULL && i < G_N_ELEMENTS (plural_rules); i++)
    if (g_str_equal (plural_rules[i].lang, lang))
      return &plural_rules[i];
  return NULL;
}

gboolean
nb_catalogue_language_known (const char *lang)
{
  return rule_for (lang) != NULL;
}

static NbCatalogue *
catalogue_new (const PluralRule *rule)
{
  NbCatalogue *c = g_new0 (NbCatalogue, 1);

  c->lang = g_strdup (rule->lang);
  c->rule = rule;
  c->entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  return c;
}

void
nb_catalogue_free (NbCatalogue *catalogue)
{
  if (catalogue == NULL)
    return;
  g_clear_pointer (&catalogue->entries, g_hash_table_unref);
  g_clear_pointer (&catalogue->bytes, g_bytes_unref);
  g_free (catalogue->lang);
  g_free (catalogue);
}

static guint32
word (const guint8 *data, gsize at, gboolean swapped)
{
  guint32 v;

  memcpy (&v, data + at, sizeof v);
  return swapped ? GUINT32_SWAP_LE_BE (v) : v;
}

/* A plural entry's strings are joined by NULs: each part is UTF-8. */
static gboolean
utf8_parts (const char *s, gsize len)
{
  for (gsize at = 0; at <= len;)
    {
      gsize part = strnlen (s + at, len - at);

      if (!g_utf8_validate (s + at, part, NULL))
        return FALSE;
      at += part + 1;
    }
  return TRUE;
}

/* String i of the table at `table`: within the file, NUL-terminated where
 * the format puts the NUL, UTF-8. */
static gboolean
string_at (const guint8 *data, gsize size, guint32 table, guint32 i, gboolean swapped,
           const char **out, gsize *length, const char *path, const char *which, GError **error)
{
  gsize at = (gsize) table + 8 * (gsize) i;
  guint32 len, off;

  if (at + 8 > size)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: the table of %s strings lies outside the file (%" G_GSIZE_FORMAT
                   " bytes)", path, which, size);
      return FALSE;
    }
  len = word (data, at, swapped);
  off = word (data, at + 4, swapped);
  if ((gsize) off + len + 1 > size || data[(gsize) off + len] != '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: %s string %u (offset %u, length %u) lies outside the file or lacks "
                   "its NUL", path, which, i, off, len);
      return FALSE;
    }
  if (!utf8_parts ((const char *) data + off, len))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s string %u is not UTF-8", path,
                   which, i);
      return FALSE;
    }
  *out = (const char *) data + off;
  *length = len;
  return TRUE;
}

/* The header entry (msgid ""): the catalogue must be UTF-8 (msgfmt does not
 * convert) and, when it says, have the number of plural forms of the rule
 * the code applies. */
static gboolean
check_header (const char *header, const PluralRule *rule, const char *path, GError **error)
{
  const char *charset = strstr (header, "charset=");
  const char *nplurals = strstr (header, "nplurals=");

  if (charset != NULL && g_ascii_strncasecmp (charset + 8, "UTF-8", 5) != 0)
    {
      g_autofree char *line = g_strndup (charset, strcspn (charset, "\n"));

      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: only UTF-8 catalogues are read",
                   path, line);
      return FALSE;
    }
  if (nplurals != NULL && g_ascii_strtoull (nplurals + 9, NULL, 10) != rule->nplurals)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: the catalogue has nplurals=%u but the plural rule of '%s' has %u forms",
                   path, (guint) g_ascii_strtoull (nplurals + 9, NULL, 10), rule->lang,
                   rule->nplurals);
      return FALSE;
    }
  return TRUE;
}

NbCatalogue *
nb_catalogue_load (const char *path, const char *lang, GError **error)
{
  const PluralRule *rule = rule_for (lang);
  g_autoptr (NbCatalogue) c = NULL;
  g_autofree char *contents = NULL;
  gsize size = 0;
  const guint8 *data;
  guint32 magic, n, originals, translations;
  gboolean swapped;

  if (rule == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is not a language navbench has a "
                   "plural rule for (en, ru)", path, lang ? lang : "(null)");
      return NULL;
    }
  if (!g_file_get_contents (path, &contents, &size, error))
    return NULL;                /* GLib's message names the file */
  data = (const guint8 *) contents;
  if (size < 28)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: %" G_GSIZE_FORMAT " bytes: too short for a GNU message catalogue", path,
                   size);
      return NULL;
    }
  memcpy (&magic, data, sizeof magic);
  if (magic != MO_MAGIC && magic != MO_MAGIC_SWAPPED)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: not a GNU message catalogue (magic 0x%08x, not 0x%08x)", path, magic,
                   MO_MAGIC);
      return NULL;
    }
  swapped = magic == MO_MAGIC_SWAPPED;
  /* Major revision 0 or 1 (1 adds system-dependent strings, unused here). */
  if ((word (data, 4, swapped) >> 16) > 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: revision %u.%u of the .mo format is "
                   "unknown", path, word (data, 4, swapped) >> 16, word (data, 4, swapped) & 0xffff);
      return NULL;
    }
  n = word (data, 8, swapped);
  originals = word (data, 12, swapped);
  translations = word (data, 16, swapped);
  c = catalogue_new (rule);
  for (guint32 i = 0; i < n; i++)
    {
      const char *original, *translation;
      gsize original_len, translation_len;
      Entry *e;

      if (!string_at (data, size, originals, i, swapped, &original, &original_len, path,
                      "original", error) ||
          !string_at (data, size, translations, i, swapped, &translation, &translation_len, path,
                      "translated", error))
        return NULL;
      if (original_len == 0)
        {
          if (!check_header (translation, rule, path, error))
            return NULL;
          continue;
        }
      e = g_new (Entry, 1);
      e->forms = translation;
      e->length = translation_len;
      /* Keyed by the singular: a plural entry's original continues after
       * its first NUL, as gettext's own lookup compares. */
      g_hash_table_replace (c->entries, (gpointer) original, e);
    }
  c->bytes = g_bytes_new_take (g_steal_pointer (&contents), size);
  return g_steal_pointer (&c);
}

const char *
nb_catalogue_language (const NbCatalogue *catalogue)
{
  return catalogue ? catalogue->lang : "en";
}

guint
nb_catalogue_size (const NbCatalogue *catalogue)
{
  return catalogue ? g_hash_table_size (catalogue->entries) : 0;
}

const char *
nb_tr (const NbCatalogue *catalogue, const char *msgid)
{
  const Entry *e;

  if (catalogue == NULL || msgid == NULL || msgid[0] == '\0')
    return msgid;
  e = g_hash_table_lookup (catalogue->entries, msgid);
  return e ? e->forms : msgid;
}

const char *
nb_ntr (const NbCatalogue *catalogue, const char *singular, const char *plural, gulong n)
{
  const Entry *e = catalogue ? g_hash_table_lookup (catalogue->entries, singular) : NULL;
  const char *form;
  guint k;

  if (e == NULL)
    return n == 1 ? singular : plural;
  /* The k-th NUL-separated form; a catalogue with fewer forms than its rule
   * falls back to the English words rather than read past the entry. */
  form = e->forms;
  k = catalogue->rule->form (n);
  for (guint i = 0; i < k; i++)
    {
      gsize used = (gsize) (form - e->forms) + strlen (form) + 1;

      if (used > e->length)
        return n == 1 ? singular : plural;
      form = e->forms + used;
    }
  return form;
}

const char *
nb_ptr (const NbCatalogue *catalogue, const char *ctx, const char *msgid)
{
  g_autofree char *key = NULL;
  const Entry *e;

  if (catalogue == NULL)
    return msgid;
  key = g_strconcat (ctx, "\004", msgid, NULL);
  e = g_hash_table_lookup (catalogue->entries, key);
  return e ? e->forms : msgid;
}

/* -------------------------------------------------------------- cache -- */

static GMutex cache_lock;
static GHashTable *cache;       /* "locale_dir\nlang" → NbCatalogue, never freed */

const NbCatalogue *
nb_catalogue_for_language (const char *locale_dir, const char *lang, GError **error)
{
  g_autofree char *key = NULL, *path = NULL;
  const PluralRule *rule = rule_for (lang);
  NbCatalogue *c;

  if (rule == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "'%s' is not a language of the protocol (en, ru)", lang ? lang : "(null)");
      return NULL;
    }
  key = g_strdup_printf ("%s\n%s", locale_dir, lang);
  g_mutex_lock (&cache_lock);
  if (cache == NULL)
    cache = g_hash_table_new (g_str_hash, g_str_equal);
  c = g_hash_table_lookup (cache, key);
  if (c == NULL)
    {
      path = g_build_filename (locale_dir, lang, "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
      /* English is the msgids: without a file, the empty catalogue. */
      if (g_str_equal (lang, "en") && !g_file_test (path, G_FILE_TEST_EXISTS))
        c = catalogue_new (rule);
      else
        c = nb_catalogue_load (path, lang, error);
      if (c != NULL)
        g_hash_table_insert (cache, g_steal_pointer (&key), c);
    }
  g_mutex_unlock (&cache_lock);
  return c;
}
