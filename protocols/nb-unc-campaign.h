/* nb-unc-campaign.h — a campaign's uncertainty inputs and conformity statements (#17)
 *
 * One reader of the campaign fields the budgets of core/unc take (the
 * measurement system's accuracy, the registration's surveyed points and
 * residuals, time, the target's centring, the rig's placement, the map's
 * cell), used by every clause module's `uncertainty` member through
 * nb_config_result_compute; and the manufacturer's declared values
 * (declared.*) with the decision rule (conformity.decision_rule) the
 * protocol states conformity against (ILAC G8:2019).
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-campaign-results.h"
#include "nb-unc-iso.h"
#include "nb-unc-report.h"

G_BEGIN_DECLS

/* The seed of every campaign budget's Monte Carlo: `compute`'s default
 * (--uncertainty-seed 1), so the same data give the same numbers. */
#define NB_UNC_CAMPAIGN_SEED 1

/* The budgets' inputs from the fields; *enabled: the campaign states an
 * accuracy of the measurement system (instrument.accuracy_mm or
 * instrument.angular_accuracy_deg), without which no uncertainty is
 * claimed.  An unreadable value (instrument.accuracy_k "about 2", malformed
 * instrument.registration_points) is an error naming the file and field. */
gboolean nb_unc_setup_from_campaign (NbCampaign *campaign, NbUncSetup *setup, gboolean *enabled,
                                     GError **error);

/* The registration's inputs from a survey CSV (`compute
 * --registration-points`): the file `campaign register --points` reads
 * (point, instrument_x_mm, instrument_y_mm, reference_x_mm, reference_y_mm),
 * fitted as it fits them (2-D) and taken as the campaign takes what it
 * stores (instrument.registration_points), so both give the same budget.
 * An error names the file (and line). */
gboolean nb_unc_setup_registration_survey (NbUncSetup *setup, const char *path, GError **error);

/* A declared value: the field, the clause and figure it limits (an upper
 * limit: the figure ≤ the value; symmetric: |the figure| ≤ the value). */
typedef struct {
  const char *field;            /* "declared.ap_mm" */
  guint clause;
  const char *key;              /* the figure's key: "ap_mm" */
  const char *symbol;           /* "Ap" (the standard's) */
  const char *unit;             /* "mm", "s" or NULL */
  double (*value) (const NbConfigResult *result);   /* the figure; NaN: none */
  gboolean symmetric;           /* a signed figure within ± the value (Ao) */
} NbDeclared;

const NbDeclared *nb_declared_values (guint *n);

/* The campaign's rule; *stated FALSE when the field is not set (then
 * simple acceptance, and the protocol says it was not stated). */
gboolean nb_decision_rule_from_campaign (NbCampaign *campaign, NbDecisionRule *rule,
                                         gboolean *stated, GError **error);

/* One statement of conformity. */
typedef struct {
  const NbDeclared *declared;
  char *config;
  double limit;
  double value;                 /* the figure */
  gboolean have_unc;            /* U stated (an accuracy of the measurement system given) */
  NbUncRounded rounded;         /* with have_unc: value, U, interval as the protocol prints them */
  NbConformity decision;
  gboolean decided;             /* FALSE: guarded rule without a stated U: no statement */
} NbConformityStatement;

void nb_conformity_statement_clear (gpointer statement);

/* The statements of one configuration's result for every declared value of
 * its clause the campaign gives (limits: the field values, NaN when not
 * set; one per nb_declared_values() entry), appended to out (of
 * NbConformityStatement, its clear func set by the caller). */
void nb_conformity_of_result (const NbConfigResult *result, const double *limits,
                              NbDecisionRule rule, GArray *out);

/* The declared values as the campaign gives them (n of nb_declared_values,
 * NaN when not set); *any: at least one. */
gboolean nb_declared_limits (NbCampaign *campaign, double *limits, gboolean *any, GError **error);

G_END_DECLS
