/* nb-plan.h — task plans of robot skills (seeds/000): model, checker, lint, run
 *
 * A plan is {"status": "ready"|"blocked", "plan": [action…]}; an action is
 * {"skill", "object"[, "target"]} and, in branch plans, also "id" (step_N),
 * "on_success" (an id or the terminal outcome ready/blocked) and
 * "on_failure" (replan_required).  Three modes: full (the whole plan), step
 * (the next action only), branch (actions linked by on_success).
 *
 * The checker reports every violation as data: a kind, a severity, the line
 * of the input and a location such as "plan[3].target" (indices from 0, as
 * in jq).  The gripper lint and the graph lint (unreachable actions, an
 * outcome that contradicts status) run only on a plan without errors; their
 * findings are warnings, errors when strict.
 */
#pragma once

#include "nb-skill.h"

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  NB_PLAN_MODE_FULL,
  NB_PLAN_MODE_STEP,
  NB_PLAN_MODE_BRANCH,
} NbPlanMode;

gboolean    nb_plan_mode_parse (const char *text, NbPlanMode *out);
const char *nb_plan_mode_name  (NbPlanMode mode);

typedef enum {
  /* errors */
  NB_PLAN_V_SYNTAX,              /* not JSON, not UTF-8, empty */
  NB_PLAN_V_STRUCTURE,           /* wrong JSON type, plan missing */
  NB_PLAN_V_UNKNOWN_FIELD,
  NB_PLAN_V_DUPLICATE_FIELD,     /* a member given twice */
  NB_PLAN_V_BAD_STATUS,          /* missing, or not ready|blocked */
  NB_PLAN_V_MISSING_SKILL,
  NB_PLAN_V_UNKNOWN_SKILL,
  NB_PLAN_V_TERMINAL_AS_SKILL,   /* ready / blocked / replan_required as a skill */
  NB_PLAN_V_MISSING_OBJECT,      /* missing, empty or blank */
  NB_PLAN_V_TARGET_FORBIDDEN,
  NB_PLAN_V_TARGET_MISSING,      /* absent or blank where required */
  NB_PLAN_V_WRONG_FIXED_VALUE,   /* target (оператор, исходное положение) or object (робот) */
  NB_PLAN_V_STEP_TOO_MANY,       /* step mode: more than one action */
  NB_PLAN_V_BLOCKED_WITH_ACTION, /* step mode: blocked with an action */
  NB_PLAN_V_BAD_ID,              /* missing, or not step_N */
  NB_PLAN_V_DUPLICATE_ID,
  NB_PLAN_V_BAD_ON_SUCCESS,      /* missing, empty, or replan_required */
  NB_PLAN_V_UNKNOWN_ID,          /* on_success names no action */
  NB_PLAN_V_CYCLE,
  NB_PLAN_V_LAST_NOT_TERMINAL,   /* the last action's on_success is an id */
  NB_PLAN_V_BAD_ON_FAILURE,      /* missing, or not replan_required */
  /* lint: warnings, errors when strict */
  NB_PLAN_V_GRIPPER_BUSY,        /* a skill needing an empty gripper while something is held */
  NB_PLAN_V_GRIPPER_NOT_HOLDING, /* a skill needing its object held while it is not */
  NB_PLAN_V_UNREACHABLE,         /* branch: an action the success path never reaches */
  NB_PLAN_V_OUTCOME_MISMATCH,    /* branch: the success path ends in an outcome ≠ status */
  NB_PLAN_N_KINDS
} NbPlanViolationKind;

const char *nb_plan_violation_kind_name (NbPlanViolationKind kind);
gboolean    nb_plan_violation_kind_parse (const char *name, NbPlanViolationKind *out);
gboolean    nb_plan_violation_kind_is_lint (NbPlanViolationKind kind);

typedef enum {
  NB_PLAN_ERROR,
  NB_PLAN_WARNING,
} NbPlanSeverity;

typedef struct {
  NbPlanViolationKind kind;
  NbPlanSeverity severity;
  guint64 line;                  /* of the input file, 1-based */
  char *location;                /* "plan[3].target", "status", "" for the whole plan */
  char *message;
} NbPlanViolation;

void nb_plan_violation_clear (gpointer violation);
/* A GArray of NbPlanViolation that clears its elements. */
GArray *nb_plan_violations_new (void);

typedef struct {
  const char *id;                /* branch only; NULL when absent */
  const char *skill;
  const char *object;
  const char *target;            /* NULL when absent */
  const char *on_success;
  const char *on_failure;
  const NbSkill *skill_def;      /* NULL for an unknown skill */
  int next;                      /* branch: the on_success action's index, −1 otherwise */
  guint64 line;
} NbPlanAction;

typedef struct {
  NbPlanMode mode;
  const char *status;            /* "ready" or "blocked"; NULL when invalid */
  const NbPlanAction *actions;
  guint n_actions;
  guint n_errors;                /* of the last check, after strict */
  guint n_warnings;
} NbPlan;

typedef struct _NbPlanChecker NbPlanChecker;

NbPlanChecker *nb_plan_checker_new  (const NbSkillTable *skills, NbPlanMode mode,
                                     gboolean strict);
void           nb_plan_checker_free (NbPlanChecker *checker);

/* Parses and checks one plan document text[0..len) that starts on line
 * `line` of its file, appending its violations to `violations`.  The plan
 * returned is owned by the checker and valid until the next call; NULL when
 * the text is no plan at all (a syntax or root structure error).  When the
 * document spans several lines, actions are located on their own lines. */
const NbPlan  *nb_plan_checker_check (NbPlanChecker *checker, const char *text, gsize len,
                                      guint64 line, GArray *violations);

/* ---------------------------------------------------------------- run -- */

typedef enum {
  NB_PLAN_OUTCOME_READY,
  NB_PLAN_OUTCOME_BLOCKED,
  NB_PLAN_OUTCOME_REPLAN_REQUIRED,
} NbPlanOutcome;

const char *nb_plan_outcome_name (NbPlanOutcome outcome);

/* Executes one action; FALSE with *reason (owned by the caller) on failure. */
typedef gboolean (*NbPlanExecuteFunc) (const NbPlanAction *action, guint index,
                                       gpointer user_data, char **reason);

typedef struct {
  guint index;                   /* into plan->actions */
  gboolean ok;
  char *reason;                  /* why it failed, or NULL */
  char *next;                    /* the next id or the terminal outcome; NULL in a
                                  * full plan before its last action */
} NbPlanTraceEntry;

void    nb_plan_trace_entry_clear (gpointer entry);
GArray *nb_plan_trace_new         (void);

/* Runs a full or branch plan that has no errors from its first action
 * (seeds/000): a branch plan follows on_success; a failure ends the run in
 * replan_required; the outcome of an empty plan is its status. */
gboolean nb_plan_run (const NbPlan *plan, NbPlanExecuteFunc execute, gpointer user_data,
                      NbPlanOutcome *outcome, GArray *trace, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbPlanChecker, nb_plan_checker_free)

G_END_DECLS
