/* nb-prompts.h — what the bench asks the operator, and the answers, as data
 *
 * ISO 18646-2 leaves to the operator what no instrument measures: the robot
 * brought to P0, the obstacle placed, a contact seen, a map's defects within
 * the accepted range, the map file of a trial.  Each such prompt is asked
 * through an NbPrompts and, with its answer, who answered and when, goes to
 * the campaign's event log (nb_prompts_ask_logged): nothing is assumed.
 *
 * Three ways to answer:
 *  - tty: the question on stderr, the answer a line of stdin (an empty line
 *    takes the proposal shown in brackets);
 *  - a file of answers, one per line in the order asked ('#' lines and blank
 *    lines skipped); running out of answers is an error naming the file and
 *    the question;
 *  - auto (and the simulator): every confirmation is yes and every judgement
 *    the operator would make is the one the measurements propose;
 *  - a front end's own answerer (the window's dialogs): a function called
 *    where the question is asked (the runner's worker) that returns once
 *    the operator has answered.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-catalogue.h"

G_BEGIN_DECLS

typedef enum {
  NB_PROMPT_CONFIRM,      /* "yes" once done (the robot is at P0, the obstacle placed) */
  NB_PROMPT_JUDGE,        /* yes|no: what the operator saw (a contact, defects in range) */
  NB_PROMPT_TEXT,         /* free text (a map file's path, a build time) */
} NbPromptKind;

typedef struct _NbPrompts NbPrompts;

/* who: the name the log gives the answerer ("operator", "auto", "simulation"). */
NbPrompts *nb_prompts_new_tty  (const char *who);
NbPrompts *nb_prompts_new_auto (const char *who);
/* The file is read at once; NB_ERROR_INPUT when it cannot be. */
NbPrompts *nb_prompts_new_file (const char *path, const char *who, GError **error);
/* The answerer of a front end: func is called in the thread that asks and
 * returns when the operator has answered (*answer owned by the caller, the
 * words of nb_prompts_ask), or FALSE with error when no answer will come
 * (the run was stopped: G_IO_ERROR_CANCELLED).  The answer is checked and
 * logged as a tty's is. */
typedef gboolean (*NbPromptFunc) (NbPromptKind kind, const char *question, const char *proposal,
                                  char **answer, gpointer user_data, GError **error);
NbPrompts *nb_prompts_new_func (const char *who, NbPromptFunc func, gpointer user_data);
void       nb_prompts_free     (NbPrompts *prompts);
/* The language the operator reads the questions in (the window's; NULL,
 * the default: English, as the CLI asks).  The log keeps the English
 * question: it is a record, read by the protocol and by tools. */
void       nb_prompts_set_words (NbPrompts *prompts, const NbCatalogue *words);
const NbCatalogue *nb_prompts_get_words (const NbPrompts *prompts);
gboolean   nb_prompts_is_auto  (const NbPrompts *prompts);

/* Asks question; proposal is what the measurements say (the auto answer,
 * and the tty's default), NULL when they say nothing.  A judgement's
 * answer is "yes" or "no" (y/n, да/нет accepted); a confirmation must be
 * yes (anything else is the operator's refusal: NB_ERROR_FAILED, the run
 * stops).  *answer and *who are owned by the caller. */
gboolean   nb_prompts_ask      (NbPrompts *prompts, NbPromptKind kind, const char *question,
                                const char *proposal, char **answer, char **who, GError **error);
/* nb_prompts_ask, and the event "operator prompt" in campaign's log:
 * subject the question, old value the proposal, new value the answer, who
 * the answerer, time the answer's. */
gboolean   nb_prompts_ask_logged (NbPrompts *prompts, NbCampaign *campaign, NbPromptKind kind,
                                  const char *question, const char *proposal, char **answer,
                                  GError **error);

/* The same, the answerer shown `shown` (the question in its words,
 * nb_prompts_get_words) while the log records `question`. */
gboolean   nb_prompts_ask_logged_shown (NbPrompts *prompts, NbCampaign *campaign,
                                        NbPromptKind kind, const char *question,
                                        const char *shown, const char *proposal, char **answer,
                                        GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbPrompts, nb_prompts_free)

G_END_DECLS
