/* nb-record-words.c — the records' English read in another language (see nb-record-words.h) */
#include "nb-record-words.h"

#include <string.h>

typedef struct {
  const char *ctx;              /* NULL: a plain msgid */
  const char *format;
} Format;

/* The reasons and event kinds, most specific first ("while settling at %s:
 * %s" before "at %s: %s"). */
static const Format reasons[] = {
  { NULL, NB_REASON_CANCELLED_SETTLING }, { NULL, NB_REASON_CANCELLED },
  { NULL, NB_REASON_TIMEOUT }, { NULL, NB_REASON_LOST_NO_SAMPLE }, { NULL, NB_REASON_LOST },
  { NULL, NB_REASON_RECORDING_ENDED }, { NULL, NB_REASON_SETTLING_AT },
  { NULL, NB_REASON_TOUCHED_SEEN }, { NULL, NB_REASON_TOUCHED }, { NULL, NB_REASON_PG_MISSED },
  { NULL, NB_REASON_NOT_SETTLED }, { NULL, NB_REASON_NO_WINDOW }, { NULL, NB_REASON_MAP_DEFECT },
  { NULL, NB_REASON_MAP_JUDGED }, { NULL, NB_REASON_AT },
};

static const Format events[] = {
  { "event", NB_EVENT_CAMPAIGN_CREATED }, { "event", NB_EVENT_SCHEMA_MIGRATED },
  { "event", NB_EVENT_FIELD_SET }, { "event", NB_EVENT_PLANNED },
  { "event", NB_EVENT_OUT_OF_SCOPE }, { "event", NB_EVENT_BACK_IN_SCOPE },
  { "event", NB_EVENT_CONFIG_ADDED }, { "event", NB_EVENT_TRIAL_RECORDED },
  { "event", NB_EVENT_TRIAL_INCOMPLETE }, { "event", NB_EVENT_TRIAL_EDITED },
  { "event", NB_EVENT_TRIAL_MEASURED }, { "event", NB_EVENT_IMPORTED },
  { "event", NB_EVENT_RUN_STARTED }, { "event", NB_EVENT_RUN_ENDED },
  { "event", NB_EVENT_PROMPT }, { "event", NB_EVENT_REGISTRATION },
  { "event", NB_EVENT_MAP_CORNERS }, { "event", NB_EVENT_GOAL_TOLERANCE },
  { "event", NB_EVENT_ISO9283_RUN }, { "event", NB_EVENT_ISO9283_PLAN },
};

/* What the libraries show (not records): a link's errors, the motion
 * sequence's log.  The longer of two that could match the same text first. */
static const Format messages[] = {
  { NULL, NB_MSG_CLOSED_BY_PEER }, { NULL, NB_MSG_READ_ERROR }, { NULL, NB_MSG_WRITE_TIMED_OUT },
  { NULL, NB_MSG_NO_DATA_FOR }, { NULL, NB_MSG_NO_SETTING_OF }, { NULL, NB_MSG_NO_SETTING },
  { NULL, NB_MSG_NOT_NUMBER_IN }, { NULL, NB_MSG_NOT_NUMBER_MIN }, { NULL, NB_MSG_NOT_NUMBER },
  { NULL, NB_MSG_ISO9283_LEFT }, { NULL, NB_MSG_ISO9283_NEEDS_STREAM },
  { NULL, NB_MSG_ISO9283_NEEDS_FORCE }, { NULL, NB_MSG_ISO9283_NEEDS_TIMED_PATH },
  { NULL, NB_MSG_SEQ_PAUSE }, { NULL, NB_MSG_SEQ_POSE },
  { NULL, NB_MSG_SEQ_JOINTS }, { NULL, NB_MSG_SEQ_STOP_LOG }, { NULL, NB_MSG_SEQ_STOPPED },
  { NULL, NB_MSG_SEQ_FAILED_LOG }, { NULL, NB_MSG_SEQ_FAILED }, { NULL, NB_MSG_SEQ_DONE_ONE },
  { NULL, NB_MSG_SEQ_DONE },
};

/* A conversion at fmt ('%' there): its length, *numeric for a number. */
static gsize
conversion (const char *fmt, gboolean *numeric)
{
  gsize n = 1;

  while (fmt[n] != '\0' && strchr ("0123456789.-+ #l", fmt[n]) != NULL)
    n++;
  *numeric = fmt[n] != 's' && fmt[n] != '%';
  return fmt[n] != '\0' ? n + 1 : n;
}

static gboolean
number_char (char c)
{
  return g_ascii_isdigit (c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
}

/* Does text match fmt?  The arguments of its conversions into args (as
 * text), the shortest first. */
static gboolean
match (const char *fmt, const char *text, GPtrArray *args)
{
  while (*fmt != '\0')
    {
      gboolean numeric;
      gsize n;

      if (*fmt != '%')
        {
          if (*fmt != *text)
            return FALSE;
          fmt++, text++;
          continue;
        }
      n = conversion (fmt, &numeric);
      if (fmt[n - 1] == '%')
        {
          if (*text != '%')
            return FALSE;
          fmt += n, text++;
          continue;
        }
      for (gsize len = numeric ? 1 : 0, max = strlen (text); len <= max; len++)
        {
          guint mark = args->len;

          if (numeric && !number_char (text[len - 1]))
            break;
          /* An argument never spans two records joined by "; ". */
          if (!numeric && len >= 2 && text[len - 2] == ';' && text[len - 1] == ' ')
            break;
          g_ptr_array_add (args, g_strndup (text, len));
          if (match (fmt + n, text + len, args))
            return TRUE;
          g_ptr_array_set_size (args, mark);
        }
      return FALSE;
    }
  return *text == '\0';
}

static char *reason_text (const NbCatalogue *lang, const char *stored, guint depth);
static char *message_text (const NbCatalogue *lang, const char *text, guint depth);

/* fmt (translated) with the arguments: words and nested records in lang
 * (nested messages only, for a message), numbers with its decimal sign. */
static char *
fill (const NbCatalogue *lang, const char *fmt, GPtrArray *args, guint depth, gboolean message)
{
  GString *out = g_string_new (NULL);
  gboolean comma = g_strcmp0 (nb_catalogue_language (lang), "ru") == 0;
  guint k = 0;

  for (const char *p = fmt; *p != '\0';)
    {
      gboolean numeric;
      gsize n;

      if (*p != '%')
        {
          g_string_append_c (out, *p++);
          continue;
        }
      n = conversion (p, &numeric);
      if (p[n - 1] == '%')
        g_string_append_c (out, '%');
      else if (k < args->len)
        {
          const char *arg = g_ptr_array_index (args, k++);

          if (numeric)
            for (const char *c = arg; *c != '\0'; c++)
              g_string_append_c (out, *c == '.' && comma ? ',' : *c);
          else
            {
              g_autofree char *inner = message ? message_text (lang, arg, depth + 1)
                                               : reason_text (lang, arg, depth + 1);

              g_string_append (out, inner);
            }
        }
      p += n;
    }
  return g_string_free (out, FALSE);
}

static char *
one (const NbCatalogue *lang, const Format *formats, gsize n_formats, const char *stored,
     guint depth)
{
  gboolean message = formats == messages;

  /* A word of the catalogue itself (an obstacle's name, a defect's kind). */
  if (depth > 0 && !message)
    {
      const char *word = nb_tr (lang, stored);

      if (word != stored)
        return g_strdup (word);
      word = nb_ptr (lang, "map", stored);
      if (word != stored)
        return g_strdup (word);
    }
  for (gsize i = 0; depth < 4 && i < n_formats; i++)
    {
      g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);

      if (match (formats[i].format, stored, args))
        return fill (lang, formats[i].ctx ? nb_ptr (lang, formats[i].ctx, formats[i].format)
                                          : nb_tr (lang, formats[i].format), args, depth,
                     message);
    }
  return NULL;
}

static char *
message_text (const NbCatalogue *lang, const char *text, guint depth)
{
  char *words = one (lang, messages, G_N_ELEMENTS (messages), text, depth);

  return words != NULL ? words : g_strdup (text);
}

static char *
reason_text (const NbCatalogue *lang, const char *stored, guint depth)
{
  char *text = one (lang, reasons, G_N_ELEMENTS (reasons), stored, depth);
  g_auto (GStrv) parts = NULL;
  GString *out;

  if (text != NULL)
    return text;
  /* A link's error inside a reason ("instrument lost: %s"). */
  if (depth > 0)
    return message_text (lang, stored, depth);
  if (strstr (stored, "; ") == NULL)
    return g_strdup (stored);
  /* Several (a map's defects). */
  parts = g_strsplit (stored, "; ", -1);
  out = g_string_new (NULL);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *part = one (lang, reasons, G_N_ELEMENTS (reasons), parts[i], 0);

      g_string_append_printf (out, "%s%s", i ? "; " : "", part ? part : parts[i]);
      g_free (part);
    }
  return g_string_free (out, FALSE);
}

char *
nb_record_reason_text (const NbCatalogue *lang, const char *stored)
{
  if (stored == NULL)
    return NULL;
  return reason_text (lang, stored, 0);
}

char *
nb_record_event_text (const NbCatalogue *lang, const char *what)
{
  char *text;

  if (what == NULL)
    return NULL;
  text = one (lang, events, G_N_ELEMENTS (events), what, 0);
  return text != NULL ? text : g_strdup (what);
}

char *
nb_record_message_text (const NbCatalogue *lang, const char *text)
{
  if (text == NULL)
    return NULL;
  return message_text (lang, text, 0);
}
