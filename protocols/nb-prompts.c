/* nb-prompts.c — operator prompts as data (see nb-prompts.h) */
#include "nb-prompts.h"
#include "nb-record-words.h"

#include "nb-error.h"

#include <stdio.h>
#include <string.h>

typedef enum { MODE_TTY, MODE_AUTO, MODE_FILE, MODE_FUNC } Mode;

struct _NbPrompts {
  Mode mode;
  char *who;
  char *path;
  char **lines;           /* MODE_FILE */
  guint next;             /* the next line to read */
  guint asked;
  NbPromptFunc func;      /* MODE_FUNC */
  gpointer func_data;
  const NbCatalogue *words;  /* the language questions are shown in; NULL: English */
};

static NbPrompts *
prompts_new (Mode mode, const char *who)
{
  NbPrompts *p = g_new0 (NbPrompts, 1);

  p->mode = mode;
  p->who = g_strdup (who);
  return p;
}

NbPrompts *
nb_prompts_new_tty (const char *who)
{
  return prompts_new (MODE_TTY, who ? who : "operator");
}

NbPrompts *
nb_prompts_new_auto (const char *who)
{
  return prompts_new (MODE_AUTO, who ? who : "auto");
}

NbPrompts *
nb_prompts_new_func (const char *who, NbPromptFunc func, gpointer user_data)
{
  NbPrompts *p = prompts_new (MODE_FUNC, who ? who : "operator");

  p->func = func;
  p->func_data = user_data;
  return p;
}

NbPrompts *
nb_prompts_new_file (const char *path, const char *who, GError **error)
{
  g_autofree char *text = NULL;
  NbPrompts *p;

  if (!g_file_get_contents (path, &text, NULL, error))
    {
      g_prefix_error (error, "--prompts: ");
      if (*error != NULL)
        (*error)->code = NB_ERROR_INPUT, (*error)->domain = NB_ERROR;
      return NULL;
    }
  p = prompts_new (MODE_FILE, who ? who : "operator");
  p->path = g_strdup (path);
  p->lines = g_strsplit (text, "\n", -1);
  return p;
}

void
nb_prompts_free (NbPrompts *p)
{
  if (p == NULL)
    return;
  g_free (p->who);
  g_free (p->path);
  g_strfreev (p->lines);
  g_free (p);
}

gboolean
nb_prompts_is_auto (const NbPrompts *p)
{
  return p->mode == MODE_AUTO;
}

/* yes / no in the words an operator types; -1 when neither. */
static int
yes_no (const char *s)
{
  static const char *const yes[] = { "yes", "y", "да", "д", "ok", NULL };
  static const char *const no[] = { "no", "n", "нет", "н", NULL };

  for (guint i = 0; yes[i]; i++)
    if (g_ascii_strcasecmp (s, yes[i]) == 0 || g_str_equal (s, yes[i]))
      return 1;
  for (guint i = 0; no[i]; i++)
    if (g_ascii_strcasecmp (s, no[i]) == 0 || g_str_equal (s, no[i]))
      return 0;
  return -1;
}

/* The next answer line of the file (its number in *line). */
static char *
file_answer (NbPrompts *p, guint *line)
{
  for (; p->lines[p->next] != NULL; p->next++)
    {
      g_autofree char *s = g_strstrip (g_strdup (p->lines[p->next]));

      if (*s == '\0' || *s == '#')
        continue;
      *line = ++p->next;
      return g_steal_pointer (&s);
    }
  return NULL;
}

static char *
tty_answer (const char *question, const char *proposal)
{
  char buf[4096];

  fprintf (stderr, "navbench-cli: %s%s%s%s ", question, proposal ? " [" : "",
           proposal ? proposal : "", proposal ? "]" : "");
  fflush (stderr);
  if (fgets (buf, sizeof buf, stdin) == NULL)
    return NULL;
  g_strstrip (buf);
  if (*buf == '\0' && proposal != NULL)
    return g_strdup (proposal);
  return g_strdup (buf);
}

void
nb_prompts_set_words (NbPrompts *prompts, const NbCatalogue *words)
{
  prompts->words = words;
}

const NbCatalogue *
nb_prompts_get_words (const NbPrompts *prompts)
{
  return prompts->words;
}

static gboolean
ask (NbPrompts *p, NbPromptKind kind, const char *question, const char *shown,
     const char *proposal, char **answer, char **who, GError **error);

gboolean
nb_prompts_ask (NbPrompts *p, NbPromptKind kind, const char *question, const char *proposal,
                char **answer, char **who, GError **error)
{
  return ask (p, kind, question, question, proposal, answer, who, error);
}

/* shown: the question as the answerer reads it (tty, a front end's
 * function); question: as errors and the log name it. */
static gboolean
ask (NbPrompts *p, NbPromptKind kind, const char *question, const char *shown,
     const char *proposal, char **answer, char **who, GError **error)
{
  g_autofree char *a = NULL;
  guint line = 0;

  *answer = NULL;
  *who = NULL;
  p->asked++;
  switch (p->mode)
    {
    case MODE_AUTO:
      a = g_strdup (kind == NB_PROMPT_CONFIRM ? "yes" : proposal);
      if (a == NULL)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "prompt '%s': the measurements propose "
                       "no answer, so it cannot be answered automatically (--prompts tty|FILE)",
                       question);
          return FALSE;
        }
      break;
    case MODE_FILE:
      if ((a = file_answer (p, &line)) == NULL)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no answer for prompt %u ('%s')",
                       p->path, p->asked, question);
          return FALSE;
        }
      break;
    case MODE_FUNC:
      if (!p->func (kind, shown, proposal, &a, p->func_data, error))
        return FALSE;
      if (a == NULL)
        a = g_strdup ("");
      break;
    case MODE_TTY:
    default:
      if ((a = tty_answer (shown, proposal)) == NULL)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "prompt '%s': no answer (end of "
                       "input)", question);
          return FALSE;
        }
      break;
    }
  if (kind != NB_PROMPT_TEXT)
    {
      int v = yes_no (a);

      if (v < 0)
        {
          if (p->mode == MODE_FILE)
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%u: '%s' is not yes or no (prompt "
                         "'%s')", p->path, line, a, question);
          else
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "prompt '%s': '%s' is not yes or no",
                         question, a);
          return FALSE;
        }
      if (kind == NB_PROMPT_CONFIRM && v == 0)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the operator answered no to '%s': the "
                       "run stops", question);
          return FALSE;
        }
      g_free (a);
      a = g_strdup (v ? "yes" : "no");
    }
  *who = p->mode == MODE_FILE ? g_strdup_printf ("%s (%s:%u)", p->who, p->path, line)
                              : g_strdup (p->who);
  *answer = g_steal_pointer (&a);
  return TRUE;
}

gboolean
nb_prompts_ask_logged (NbPrompts *p, NbCampaign *campaign, NbPromptKind kind,
                       const char *question, const char *proposal, char **answer, GError **error)
{
  return nb_prompts_ask_logged_shown (p, campaign, kind, question, question, proposal, answer,
                                      error);
}

gboolean
nb_prompts_ask_logged_shown (NbPrompts *p, NbCampaign *campaign, NbPromptKind kind,
                             const char *question, const char *shown, const char *proposal,
                             char **answer, GError **error)
{
  g_autofree char *who = NULL;
  g_autofree char *a = NULL;
  gboolean ok;

  if (!ask (p, kind, question, shown, proposal, &a, &who, error))
    return FALSE;
  /* The answerer is who the log names for this event only. */
  {
    g_autofree char *session = NULL;
    g_autoptr (GError) local = NULL;

    session = g_strdup (nb_campaign_get_who (campaign));
    nb_campaign_set_who (campaign, who);
    ok = nb_campaign_log (campaign, NB_EVENT_PROMPT, question, proposal, a, error);
    nb_campaign_set_who (campaign, session);
  }
  if (ok && answer != NULL)
    *answer = g_steal_pointer (&a);
  return ok;
}
