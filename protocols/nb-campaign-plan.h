/* nb-campaign-plan.h — the campaign's plan: which configurations the standard asks
 * for this robot, which are done, what runs next
 *
 * The plan is made once from the robot and the conditions (LU from
 * robot.width_mm, robot.rated_load_kg, conditions.environment) by the
 * clause table (nb_clause_all_configurations: clause 5 three routes × {no
 * load, rated load}, 6 the table 2 obstacles (three outdoors), 7 the ten
 * behaviour/obstacle configurations, 8 and 9 two loads, 10 the arena) with
 * each clause's trial count, and stored in the campaign (nb-campaign.h,
 * NbPlanEntry).  decided: a rated-load configuration of a robot that
 * declares no rated load (robot.rated_load_kg unset) or a rated load of
 * 0 kg is planned out of scope with that reason; any other goes out of
 * scope only by the engineer, with the reason the protocol prints.  The
 * plan's own reasons are stored as keys (NB_PLAN_REASON_PREFIX + a name,
 * nb-campaign.h),
 * so that each reader prints them in its language (nb_plan_reason_text);
 * the engineer's are stored and printed as typed.
 *
 * A configuration's state comes from its stored trials, counted as the
 * clause counts them (clause 7: the trials with the obstacle; its baseline
 * is a prerequisite; clause 10: the successful maps since the last failed
 * one, so that it is complete at 10.3's three consecutive successes, not
 * at three maps — NbClause.plan_done): not started, k/N, complete, and for
 * the clauses that judge (7, 9) passed or failed.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-campaign-runner.h"
#include "nb-catalogue.h"

G_BEGIN_DECLS

/* The msgid of a stored reason that is the plan's own (by key, or the
 * English sentence an older file stored); NULL for the engineer's words. */
const char *nb_plan_reason_msgid (const char *stored);
/* Its key without the prefix ("no-rated-load"); NULL likewise. */
const char *nb_plan_reason_key   (const char *stored);
/* A stored reason as lang reads it (NULL: English): the plan's own
 * translated, the engineer's as typed; NULL for NULL. */
const char *nb_plan_reason_text  (const NbCatalogue *lang, const char *stored);
/* The same for a person to read (the window): a reason about a campaign
 * field names it by its label in lang ("the field “Rated load, kg”"),
 * not its key; newly allocated, NULL for NULL. */
char       *nb_plan_reason_words (const NbCatalogue *lang, const char *stored);

typedef enum {
  NB_PLAN_OUT_OF_SCOPE,
  NB_PLAN_NOT_STARTED,
  NB_PLAN_IN_PROGRESS,      /* k of N counted trials */
  NB_PLAN_COMPLETE,         /* N counted trials, the clause does not judge */
  NB_PLAN_PASSED,           /* complete, and the clause's pass rule holds */
  NB_PLAN_FAILED,           /* complete, and it does not */
} NbPlanState;

const char *nb_plan_state_name (NbPlanState state);   /* "not started", "complete", … */

typedef struct {
  NbPlanState state;
  guint done;               /* counted trials */
  guint needed;             /* the standard's count */
} NbPlanStatus;

/* Makes and stores the plan when the campaign has none (*made TRUE).  FALSE
 * with NB_ERROR_INPUT naming the field when the robot's width is unset. */
gboolean nb_plan_ensure (NbCampaign *campaign, gboolean *made, GError **error);
gboolean nb_plan_status (NbCampaign *campaign, const NbPlanEntry *entry, NbPlanStatus *status,
                         GError **error);
/* TRUE when the entry has nothing left to run. */
gboolean nb_plan_status_done (const NbPlanStatus *status);
/* TRUE when `campaign run --all` would run the entry: something is left
 * and the runner drives its clause (the first such entry is "next"). */
gboolean nb_plan_runs_next (const NbPlanEntry *entry, const NbPlanStatus *status);

/* What `campaign run --all` and the window's "everything left in the plan"
 * run, in plan order: the entries in scope and not done, of only_clause
 * (0: all) and only_config (NULL: all).  Entries of a clause the runner
 * does not drive (NbClause.runner NULL) are in it: the caller says so.  The
 * plan is made first when the campaign has none (opened for writing).  Of
 * NbPlanEntry, cleared with the array. */
GArray  *nb_plan_pending (NbCampaign *campaign, guint only_clause, const char *only_config,
                          GError **error);
/* The runner's options for a planned configuration, on top of base (the
 * front end's robot, who, ranges, ...): its clause, name, route (for a
 * clause that takes one), load, obstacle, behaviour, and the standard's
 * count (trials 0).  Strings are borrowed from entry. */
void     nb_plan_runner_options (const NbPlanEntry *entry, const NbCampaignRunnerOptions *base,
                                 NbCampaignRunnerOptions *options);

G_END_DECLS
