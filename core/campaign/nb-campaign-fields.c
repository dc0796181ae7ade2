/* nb-campaign-fields.c — the campaign fields: robot, conditions, instrument, lab
 * (key/value, checked in C, so a new field needs no migration) */
#include "nb-campaign-private.h"
#include "nb-record-words.h"

#include "nb-error.h"
#include "nb-number.h"
#include "nb-route.h"
#include "nb-unc.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ fields -- */

/* Descriptions marked for the catalogues: the desktop form shows them
 * translated (core itself never translates). */
static const NbCampaignField campaign_fields[] = {
  /* ISO/IEC 17025:2017 7.8.2.1 and 7.8.8: the test report's own items. */
  { "report.id", NB_FIELD_TEXT, N_("unique identifier of the test report (on every page)") },
  { "report.revision", NB_FIELD_POSITIVE, N_("revision of the report (1: the original issue)") },
  { "report.replaces", NB_FIELD_TEXT, N_("what this revision replaces and why (7.8.8)") },
  { "report.issued", NB_FIELD_DATE, N_("date of issue of the report, YYYY-MM-DD") },
  { "lab.name", NB_FIELD_TEXT, N_("name of the laboratory") },
  { "lab.address", NB_FIELD_TEXT, N_("address of the laboratory") },
  { "test.location", NB_FIELD_TEXT, N_("where the tests were done") },
  { "test.dates", NB_FIELD_DATES,
    N_("dates of the measurements, YYYY-MM-DD or YYYY-MM-DD/YYYY-MM-DD") },
  { "customer.name", NB_FIELD_TEXT, N_("the customer") },
  { "customer.address", NB_FIELD_TEXT, N_("the customer's address or contact") },
  { "item.condition", NB_FIELD_TEXT, N_("condition of the robot when received") },
  { "item.received", NB_FIELD_DATE, N_("date the robot was received, YYYY-MM-DD") },
  { "method.deviations", NB_FIELD_TEXT,
    N_("deviations from ISO 18646-2:2024, additions, exclusions (\"none\" if none)") },
  { "method.exclusions", NB_FIELD_TEXT,
    N_("prescribed configurations not tested and why (ISO/IEC 17025 7.8.2.1 n)") },
  { "signatory.name", NB_FIELD_TEXT, N_("authorised signatory of the report") },
  { "signatory.function", NB_FIELD_TEXT, N_("the signatory's function") },
  { "robot.maker", NB_FIELD_TEXT, N_("manufacturer of the robot under test") },
  { "robot.model", NB_FIELD_TEXT, N_("model") },
  { "robot.serial", NB_FIELD_TEXT, N_("serial number") },
  { "robot.length_mm", NB_FIELD_POSITIVE, N_("length l, mm") },
  { "robot.width_mm", NB_FIELD_POSITIVE, N_("width w, mm (gives LU, 4.5)") },
  { "robot.height_mm", NB_FIELD_POSITIVE, N_("height h, mm") },
  { "robot.rated_speed_mm_s", NB_FIELD_POSITIVE, N_("rated speed, mm/s") },
  { "robot.rated_load_kg", NB_FIELD_NUMBER, N_("rated load, kg") },
  /* 4.5: "travel distance 5 LU unless the manufacturer sets another";
   * rectangular and combined routes may also run clockwise. */
  { "robot.route_leg1_lu", NB_FIELD_POSITIVE,
    N_("first leg of the routes declared by the manufacturer, LU (4.5; default 5)") },
  { "robot.route_leg2_lu", NB_FIELD_POSITIVE,
    N_("second leg of the rectangular and combined routes declared by the manufacturer, LU (4.5; default 5)") },
  { "robot.route_clockwise", NB_FIELD_BOOL,
    N_("the manufacturer declares clockwise routes too (yes|no): rectangular and combined also clockwise (4.5)") },
  { "robot.preparation_done", NB_FIELD_BOOL, N_("preparation per the manufacturer done (yes|no)") },
  /* 4.1: what was done, in words, and the batteries (fully charged). */
  { "robot.preparation", NB_FIELD_TEXT, N_("preparation per the manufacturer: what was done (4.1)") },
  { "robot.battery", NB_FIELD_TEXT, N_("state of the batteries at the tests (4.1)") },
  { "robot.min_avoidance_distance_mm", NB_FIELD_POSITIVE,
    N_("minimum distance to an obstacle declared by the manufacturer, mm (7.1)") },
  /* 10.2: "the accepted range of defects may be declared by experienced
   * experts of the application": one range per campaign, each map judged by it. */
  { "mapping.accepted_defect_range_mm", NB_FIELD_NUMBER,
    N_("accepted range of map defects declared by the experts, mm: an open contour no wider, "
       "a shadow no farther from its wall (10.2)") },
  { "conditions.temperature_c", NB_FIELD_NUMBER, N_("ambient temperature, °C (4.2)") },
  { "conditions.humidity_pct", NB_FIELD_PERCENT, N_("relative humidity, %") },
  { "conditions.illuminance_lx", NB_FIELD_NUMBER, N_("illuminance, lx") },
  { "conditions.friction_coefficient", NB_FIELD_POSITIVE, N_("floor friction coefficient") },
  { "conditions.surface", NB_FIELD_TEXT, N_("floor surface") },
  { "conditions.landmarks", NB_FIELD_TEXT, N_("landmarks and external equipment") },
  { "conditions.environment", NB_FIELD_ENVIRONMENT, N_("environment (indoor|outdoor)") },
  /* Annex A.5.3, decided: one campaign (and protocol) per declared condition. */
  { "conditions.set", NB_FIELD_TEXT,
    N_("outdoors: which declared environmental condition and surface this campaign is for (A.5.3)") },
  { "conditions.operating", NB_FIELD_TEXT,
    N_("operating conditions: normal, or which others (4.4)") },
  { "instrument.kind", NB_FIELD_TEXT, N_("measurement system kind") },
  { "instrument.model", NB_FIELD_TEXT, N_("measurement system model") },
  { "instrument.accuracy_mm", NB_FIELD_POSITIVE, N_("stated accuracy, mm") },
  /* #17: the inputs of the uncertainty budgets (core/unc, nb-unc-campaign.c);
   * a linear accuracy a + b·L ("1 mm + 1.5 ppm") is accuracy_mm + accuracy_ppm
   * at range_m, at the data sheet's coverage factor. */
  { "instrument.accuracy_ppm", NB_FIELD_POSITIVE,
    N_("stated accuracy, distance-dependent part, ppm (µm/m)") },
  { "instrument.accuracy_k", NB_FIELD_COVERAGE,
    N_("coverage factor of the stated accuracies (2 when not set), or 'rectangular' (an MPE)") },
  /* A data sheet states the angular accuracy at its own k; not set, the
   * angular one is at accuracy_k (what that field meant before #17 split
   * them, so a campaign stored then states the same numbers). */
  { "instrument.angular_accuracy_k", NB_FIELD_COVERAGE,
    N_("coverage factor of the stated angular accuracy (instrument.accuracy_k when not set), or "
       "'rectangular' (an MPE)") },
  { "instrument.range_m", NB_FIELD_POSITIVE,
    N_("distance from the measurement system to the test area, m (for the ppm part)") },
  { "instrument.angular_accuracy_deg", NB_FIELD_POSITIVE, N_("stated angular accuracy, ° (5.3)") },
  { "instrument.random_mm", NB_FIELD_POSITIVE,
    N_("random error of one measured point, mm (1σ)") },
  { "instrument.sync_s", NB_FIELD_POSITIVE,
    N_("standard uncertainty of the synchronisation of robot events and samples (clock, latency), s") },
  { "instrument.target_centring_mm", NB_FIELD_POSITIVE,
    N_("centring of the target (prism, marker) on the robot's reference point, mm (1σ)") },
  { "rig.placement_mm", NB_FIELD_POSITIVE,
    N_("placement of an obstacle by the rig, mm (1σ; clause 6)") },
  { "mapping.resolution_mm", NB_FIELD_POSITIVE, N_("cell size of the robot's map, mm (clause 10)") },
  { "instrument.linear_error_pct", NB_FIELD_PERCENT,
    N_("GNSS: linear measurement error, % (annex A.4 asks ±0.5 %)") },
  { "instrument.calibration_certificate", NB_FIELD_TEXT,
    N_("calibration certificate of the measurement system (number, issuer)") },
  { "instrument.calibration_due", NB_FIELD_DATE, N_("calibration due date, YYYY-MM-DD") },
  { "instrument.sample_rate_hz", NB_FIELD_POSITIVE, N_("sample rate, Hz") },
  { "instrument.registration", NB_FIELD_TEXT, N_("frame registration (method, reference points)") },
  { "instrument.registration_rms_mm", NB_FIELD_NUMBER, N_("registration residual RMS, mm") },
  { "instrument.registration_max_mm", NB_FIELD_NUMBER, N_("registration residual max, mm") },
  { "instrument.registration_transform", NB_FIELD_TEXT,
    N_("instrument → test area: rotation rows and translation (mm), JSON") },
  { "instrument.registration_points", NB_FIELD_TEXT,
    N_("the registration's surveyed points and residuals: [[x_mm, y_mm, residual_mm], …], JSON") },
  /* #17: the manufacturer's declared values and the decision rule of the
   * conformity statements (ILAC G8:2019). */
  { "declared.ap_mm", NB_FIELD_POSITIVE, N_("declared position accuracy: Ap ≤ …, mm") },
  { "declared.ao_deg", NB_FIELD_POSITIVE, N_("declared orientation accuracy: |Ao| ≤ …, °") },
  { "declared.rp_mm", NB_FIELD_POSITIVE, N_("declared position repeatability: Rp ≤ …, mm") },
  { "declared.ro_deg", NB_FIELD_POSITIVE, N_("declared orientation repeatability: Ro ≤ …, °") },
  { "declared.d_mm", NB_FIELD_POSITIVE, N_("declared path deviation: d ≤ …, mm") },
  { "declared.dm_mm", NB_FIELD_POSITIVE, N_("declared mapping accuracy: max Dm ≤ …, mm") },
  { "declared.passage_time_s", NB_FIELD_POSITIVE, N_("declared passage time ≤ …, s") },
  { "declared.delay_ratio", NB_FIELD_POSITIVE, N_("declared delay ratio T1/T0 ≤ …") },
  { "conformity.decision_rule", NB_FIELD_DECISION_RULE,
    /* The values: simple-acceptance | guarded-w=U (nb_decision_rule_parse says so). */
    N_("decision rule of the conformity statements (ILAC G8:2019 4.2)") },
  /* 6.4, 7.4: the table 2 obstacles as used (their dimensions are table 2's). */
  { "obstacle.wooden_wall.material", NB_FIELD_TEXT, N_("wooden wall: material as used (6.4)") },
  { "obstacle.wooden_wall.colour", NB_FIELD_TEXT, N_("wooden wall: colour as used (6.4)") },
  { "obstacle.glass_wall.material", NB_FIELD_TEXT, N_("glass (acrylic) wall: material as used (6.4)") },
  { "obstacle.glass_wall.colour", NB_FIELD_TEXT, N_("glass (acrylic) wall: colour as used (6.4)") },
  { "obstacle.wooden_table.material", NB_FIELD_TEXT, N_("wooden table: material as used (6.4)") },
  { "obstacle.wooden_table.colour", NB_FIELD_TEXT, N_("wooden table: colour as used (6.4)") },
  { "obstacle.metal_table.material", NB_FIELD_TEXT, N_("metal table: material as used (6.4)") },
  { "obstacle.metal_table.colour", NB_FIELD_TEXT, N_("metal table: colour as used (6.4)") },
  { "obstacle.large_cylinder.material", NB_FIELD_TEXT, N_("large cylinder: material as used (6.4)") },
  { "obstacle.large_cylinder.colour", NB_FIELD_TEXT, N_("large cylinder: colour as used (6.4)") },
  { "obstacle.small_cylinder.material", NB_FIELD_TEXT, N_("small cylinder: material as used (6.4)") },
  { "obstacle.small_cylinder.colour", NB_FIELD_TEXT, N_("small cylinder: colour as used (6.4)") },
  { "operator", NB_FIELD_TEXT, N_("test operator") },
  { "notes", NB_FIELD_TEXT, N_("free notes") },
};

const NbCampaignField *
nb_campaign_fields (guint *n_fields)
{
  *n_fields = G_N_ELEMENTS (campaign_fields);
  return campaign_fields;
}

const NbCampaignField *
nb_campaign_field_find (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (campaign_fields); i++)
    if (g_str_equal (campaign_fields[i].key, key))
      return &campaign_fields[i];
  return NULL;
}

/* ------------------------------------------------------------ fields -- */

/* ISO 8601 calendar date YYYY-MM-DD, a real day. */
static gboolean
parse_date (const char *s, GDate *out)
{
  unsigned y, m, d;
  char tail;
  GDate date;

  if (strlen (s) != 10 || s[4] != '-' || s[7] != '-' ||
      sscanf (s, "%4u-%2u-%2u%c", &y, &m, &d, &tail) != 3 ||
      !g_date_valid_dmy ((GDateDay) d, (GDateMonth) m, (GDateYear) y))
    return FALSE;
  for (int i = 0; i < 10; i++)
    if (i != 4 && i != 7 && !g_ascii_isdigit (s[i]))
      return FALSE;
  g_date_clear (&date, 1);
  g_date_set_dmy (&date, (GDateDay) d, (GDateMonth) m, (GDateYear) y);
  if (out != NULL)
    *out = date;
  return TRUE;
}

static gboolean
check_field_value (const NbCampaignField *f, const char *value, char **canonical, GError **error)
{
  double v;

  if (!g_utf8_validate (value, -1, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the value is not valid UTF-8", f->key);
      return FALSE;
    }
  switch (f->type)
    {
    case NB_FIELD_TEXT:
      *canonical = g_strdup (value);
      return TRUE;
    case NB_FIELD_NUMBER:
    case NB_FIELD_POSITIVE:
    case NB_FIELD_PERCENT:
      if (!nb_parse_double (value, strlen (value), &v))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is not a finite number",
                       f->key, value);
          return FALSE;
        }
      if (f->type == NB_FIELD_POSITIVE && !(v > 0.0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: must be positive, got %s", f->key,
                       value);
          return FALSE;
        }
      if (f->type == NB_FIELD_PERCENT && !(v >= 0.0 && v <= 100.0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: a percentage is 0 to 100, got %s",
                       f->key, value);
          return FALSE;
        }
      *canonical = g_strstrip (g_strdup (value));
      return TRUE;
    case NB_FIELD_BOOL:
      if (g_str_equal (value, "yes") || g_str_equal (value, "no"))
        {
          *canonical = g_strdup (value);
          return TRUE;
        }
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: expected yes or no, got '%s'", f->key,
                   value);
      return FALSE;
    case NB_FIELD_DATE:
      if (parse_date (value, NULL))
        {
          *canonical = g_strdup (value);
          return TRUE;
        }
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: expected a date YYYY-MM-DD, got '%s'",
                   f->key, value);
      return FALSE;
    case NB_FIELD_DATES:
      {
        g_auto (GStrv) ends = g_strsplit (value, "/", 3);
        GDate a, b;

        if (g_strv_length (ends) == 1 && parse_date (ends[0], NULL))
          {
            *canonical = g_strdup (value);
            return TRUE;
          }
        if (g_strv_length (ends) == 2 && parse_date (ends[0], &a) &&
            parse_date (ends[1], &b) && g_date_compare (&a, &b) <= 0)
          {
            *canonical = g_strdup (value);
            return TRUE;
          }
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: expected YYYY-MM-DD or "
                     "YYYY-MM-DD/YYYY-MM-DD (first ≤ last), got '%s'", f->key, value);
        return FALSE;
      }
    case NB_FIELD_ENVIRONMENT:
      if (g_str_equal (value, "indoor") || g_str_equal (value, "outdoor"))
        {
          *canonical = g_strdup (value);
          return TRUE;
        }
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: expected indoor or outdoor, got '%s'",
                   f->key, value);
      return FALSE;
    case NB_FIELD_COVERAGE:
    case NB_FIELD_DECISION_RULE:
      {
        /* #17: checked here, as the budgets and the conformity statements
         * read them, so a campaign never holds a value its report refuses. */
        g_autoptr (GError) local = NULL;
        g_autofree char *t = g_strstrip (g_strdup (value));
        double k;
        NbDecisionRule rule;

        if (f->type == NB_FIELD_COVERAGE ? nb_unc_parse_coverage (t, &k, &local)
                                         : nb_decision_rule_parse (t, &rule, &local))
          {
            *canonical = g_steal_pointer (&t);
            return TRUE;
          }
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", f->key, local->message);
        return FALSE;
      }
    }
  g_assert_not_reached ();
}

char *
nb_campaign_get_field (NbCampaign *c, const char *key, GError **error)
{
  sqlite3_stmt *s = NULL;
  char *value = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT value FROM field WHERE key = ?", -1, &s, NULL);

  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (s, 1, key, -1, SQLITE_STATIC);
      rc = sqlite3_step (s);
      if (rc == SQLITE_ROW)
        value = nbc_column_text (s, 0);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    nbc_sql_error (c, rc, "reading a field", error);
  return value;
}

gboolean
nb_campaign_set_field (NbCampaign *c, const char *key, const char *value, GError **error)
{
  const NbCampaignField *f = nb_campaign_field_find (key);
  g_autofree char *canonical = NULL, *old = NULL;
  g_autoptr (GError) local = NULL;
  sqlite3_stmt *s = NULL;
  int rc;

  if (f == NULL)
    {
      if (g_str_equal (key, "robot.lu_mm"))
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "robot.lu_mm is derived from robot.width_mm (ISO 18646-2 4.5); set that");
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "unknown field '%s' (see 'campaign set --help')", key);
      return FALSE;
    }
  if (*value != '\0' && !check_field_value (f, value, &canonical, error))
    return FALSE;
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  old = nb_campaign_get_field (c, key, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return nbc_tx_fail (c);
    }
  if (g_strcmp0 (old, canonical) == 0)
    return nbc_tx_finish (c, error);
  /* An empty value unsets the field. */
  rc = sqlite3_prepare_v2 (c->db, canonical
                           ? "INSERT INTO field (key, value) VALUES (?1, ?2) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                           : "DELETE FROM field WHERE key = ?1", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (s, 1, key, -1, SQLITE_STATIC);
      if (canonical)
        sqlite3_bind_text (s, 2, canonical, -1, SQLITE_STATIC);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "setting a field", error);
      return nbc_tx_fail (c);
    }
  if (!nbc_log_event (c, NB_EVENT_FIELD_SET, key, old, canonical, NULL, error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
}

gboolean
nb_campaign_get_lu_mm (NbCampaign *c, double *lu_mm, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *w = nb_campaign_get_field (c, "robot.width_mm", &local);
  double width;

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (w == NULL || !nb_parse_double (w, strlen (w), &width))
    return FALSE;
  return nb_lu_mm (width, lu_mm, error);
}

char *
nb_campaign_get_name (NbCampaign *c, GError **error)
{
  sqlite3_stmt *s = NULL;
  char *value = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT value FROM meta WHERE key = 'name'", -1, &s, NULL);

  if (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    value = nbc_column_text (s, 0);
  sqlite3_finalize (s);
  if (value == NULL)
    nbc_sql_error (c, rc, "reading the campaign's name", error);
  return value;
}
