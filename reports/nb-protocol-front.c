#include "nb-protocol-front.h"

#include "nb-clause.h"
#include "nb-conditions.h"

#include <math.h>
#include <string.h>

#define R17025(x) "ISO/IEC 17025 " x

/* In the order the protocol prints them. */
static const NbProtocolItem items[] = {
  /* ISO/IEC 17025:2017 7.8.2.1: what every test report carries. */
  { "report.id", N_("Report identifier"), R17025 ("7.8.2.1 d"), TRUE, NB_ITEM_FRONT },
  { "report.revision", N_("Revision"), R17025 ("7.8.8"), FALSE, NB_ITEM_FRONT },
  { "lab.name", N_("Laboratory"), R17025 ("7.8.2.1 b"), TRUE, NB_ITEM_FRONT },
  { "lab.address", N_("Laboratory address"), R17025 ("7.8.2.1 b"), TRUE, NB_ITEM_FRONT },
  { "test.location", N_("Place of testing"), R17025 ("7.8.2.1 c"), TRUE, NB_ITEM_FRONT },
  { "customer.name", N_("Customer"), R17025 ("7.8.2.1 e"), TRUE, NB_ITEM_FRONT },
  { "customer.address", N_("Customer's contact"), R17025 ("7.8.2.1 e"), TRUE, NB_ITEM_FRONT },
  { "item.condition", N_("Condition of the item on receipt"), R17025 ("7.8.2.1 g"), TRUE,
    NB_ITEM_FRONT },
  { "item.received", N_("Date of receipt of the item"), R17025 ("7.8.2.1 h"), TRUE, NB_ITEM_FRONT },
  { "test.dates", N_("Dates of testing"), R17025 ("7.8.2.1 i"), TRUE, NB_ITEM_FRONT },
  { "report.issued", N_("Date of issue"), R17025 ("7.8.2.1 j"), TRUE, NB_ITEM_FRONT },
  { "method.deviations", N_("Deviations from the method"), R17025 ("7.8.2.1 n"), TRUE,
    NB_ITEM_FRONT },
  { "operator", N_("Operator"), R17025 ("7.5.1"), FALSE, NB_ITEM_FRONT },

  /* ISO 18646-2 clause 4 and the measurement system (5.3, 8.2). */
  { "robot.maker", N_("Manufacturer"), R17025 ("7.8.2.1 g"), TRUE, NB_ITEM_CLAUSE_4 },
  { "robot.model", N_("Model"), R17025 ("7.8.2.1 g"), TRUE, NB_ITEM_CLAUSE_4 },
  { "robot.serial", N_("Serial number"), R17025 ("7.8.2.1 g"), TRUE, NB_ITEM_CLAUSE_4 },
  { "robot.length_mm", N_("Length l, mm"), "4.5", FALSE, NB_ITEM_CLAUSE_4 },
  { "robot.width_mm", N_("Width w, mm"), "4.5", TRUE, NB_ITEM_CLAUSE_4 },
  { "robot.height_mm", N_("Height h, mm"), "4.5", FALSE, NB_ITEM_CLAUSE_4 },
  { "robot.rated_speed_mm_s", N_("Rated speed, mm/s"), "4.4", TRUE, NB_ITEM_CLAUSE_4 },
  { "robot.rated_load_kg", N_("Rated load, kg"), "4.4", TRUE, NB_ITEM_CLAUSE_4 },
  { "robot.preparation", N_("Preparation per the manufacturer"), "4.1", TRUE, NB_ITEM_CLAUSE_4 },
  { "robot.battery", N_("State of the batteries"), "4.1", TRUE, NB_ITEM_CLAUSE_4 },
  { "conditions.environment", N_("Environment"), "4.2, A.3", TRUE, NB_ITEM_CLAUSE_4 },
  { "conditions.temperature_c", N_("Ambient temperature, °C"), "4.2", TRUE, NB_ITEM_CLAUSE_4 },
  { "conditions.humidity_pct", N_("Relative humidity, %"), "4.2", TRUE, NB_ITEM_CLAUSE_4 },
  { "conditions.illuminance_lx", N_("Illuminance, lx"), "4.2", TRUE, NB_ITEM_CLAUSE_4 },
  { "conditions.friction_coefficient", N_("Friction coefficient of the surface"), "4.3", TRUE,
    NB_ITEM_CLAUSE_4 },
  { "conditions.surface", N_("Surface"), "4.3", TRUE, NB_ITEM_CLAUSE_4 },
  { "conditions.operating", N_("Operating conditions"), "4.4", TRUE, NB_ITEM_CLAUSE_4 },
  { "conditions.landmarks", N_("Landmarks and external equipment"), "4.4", TRUE,
    NB_ITEM_CLAUSE_4 },
  { "instrument.kind", N_("Measurement system"), "5.3, 8.2", TRUE, NB_ITEM_CLAUSE_4 },
  { "instrument.model", N_("Measurement system model"), "5.3, 8.2", TRUE, NB_ITEM_CLAUSE_4 },
  { "instrument.accuracy_mm", N_("Linear accuracy of the measurement system, mm"), "5.3, 8.2",
    TRUE, NB_ITEM_CLAUSE_4 },
  { "instrument.angular_accuracy_deg", N_("Angular accuracy of the measurement system, °"), "5.3",
    TRUE, NB_ITEM_CLAUSE_4 },
  { "instrument.sample_rate_hz", N_("Sample rate, Hz"), "8.3 b", FALSE, NB_ITEM_CLAUSE_4 },
  { "instrument.calibration_certificate", N_("Calibration certificate of the measurement system"),
    R17025 ("6.5"), TRUE, NB_ITEM_CLAUSE_4 },
  { "instrument.calibration_due", N_("Calibration due"), R17025 ("6.4.7"), TRUE,
    NB_ITEM_CLAUSE_4 },
  { "instrument.registration", N_("Frame registration"), "5.3", FALSE, NB_ITEM_CLAUSE_4 },
  { "instrument.registration_rms_mm", N_("Registration residual RMS, mm"), "5.3", FALSE,
    NB_ITEM_CLAUSE_4 },
  { "instrument.registration_max_mm", N_("Registration residual max, mm"), "5.3", FALSE,
    NB_ITEM_CLAUSE_4 },
  { "notes", N_("Notes"), NULL, FALSE, NB_ITEM_CLAUSE_4 },

  { "signatory.name", N_("Authorised signatory"), R17025 ("7.8.2.1 o"), TRUE, NB_ITEM_SIGNATORY },
  { "signatory.function", N_("Function"), R17025 ("7.8.2.1 o"), TRUE, NB_ITEM_SIGNATORY },
};

const NbProtocolItem *
nb_protocol_items (guint *n)
{
  *n = G_N_ELEMENTS (items);
  return items;
}

static const NbProtocolItem *
item (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    if (g_str_equal (items[i].key, key))
      return &items[i];
  g_return_val_if_reached (NULL);
}

static char *
field (NbCampaign *campaign, const char *key)
{
  g_autofree char *v = nb_campaign_get_field (campaign, key, NULL);

  return v != NULL && *v != '\0' ? g_steal_pointer (&v) : NULL;
}

/* The dates of the measurements the bench made itself: the days its
 * `campaign run`s started and ended (the event log, UTC).  An import carries
 * no date of measurement, so it gives none. */
static char *
run_dates (NbCampaign *campaign)
{
  g_autoptr (GArray) events = nb_campaign_list_events (campaign, NULL);
  const char *first = NULL, *last = NULL;

  for (guint i = 0; events != NULL && i < events->len; i++)
    {
      NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      if (g_strcmp0 (e->what, "campaign run started") != 0 &&
          g_strcmp0 (e->what, "campaign run ended") != 0)
        continue;
      if (first == NULL)
        first = e->time;
      last = e->time;
    }
  if (first == NULL)
    return NULL;
  return strncmp (first, last, 10) == 0 ? g_strndup (first, 10)
                                        : g_strdup_printf ("%.10s – %.10s", first, last);
}

char *
nb_protocol_item_value (NbCampaign *campaign, const NbCatalogue *lang, const char *key)
{
  g_autofree char *v = field (campaign, key);

  if (g_str_equal (key, "test.dates"))
    {
      /* The laboratory's statement of the dates wins; else the bench's runs. */
      if (v == NULL)
        return run_dates (campaign);
      if (strchr (v, '/') != NULL)
        {
          g_auto (GStrv) ends = g_strsplit (v, "/", 2);

          return g_strdup_printf ("%s – %s", ends[0], ends[1]);
        }
      return g_steal_pointer (&v);
    }
  return v == NULL ? NULL : nb_protocol_value_text (lang, key, v);
}

char *
nb_protocol_value_text (const NbCatalogue *lang, const char *key, const char *v)
{
  if (g_str_equal (key, "conditions.environment"))
    return g_strdup (g_str_equal (v, "outdoor") ? nb_tr (lang, "outdoors (annex A)") : nb_tr (lang, "indoors"));
  if (g_str_equal (key, "robot.preparation_done"))
    return g_strdup (g_str_equal (v, "yes") ? nb_tr (lang, "yes") : nb_tr (lang, "no"));
  /* "none", the word the field asks for when there are none, is a value of
   * the protocol's language, not the laboratory's free text. */
  if (g_ascii_strcasecmp (v, "none") == 0)
    return g_strdup (nb_ptr (lang, "value", "none"));
  return g_strdup (v);
}

void
nb_protocol_missing (NbDocument *doc, const NbCatalogue *lang, const char *label,
                     const char *reference)
{
  g_autofree char *line = reference
                          ? g_strdup_printf (nb_tr (lang, "%s (%s): not stated"), label, reference)
                          : g_strdup_printf (nb_tr (lang, "%s: not stated"), label);

  nb_document_add_missing (doc, line);
}

/* A required item left blank reads "not stated", flagged, never a bare "—". */
static char *
value_or_flag (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc,
               const NbProtocolItem *it, gboolean *flagged)
{
  char *v = nb_protocol_item_value (campaign, lang, it->key);

  *flagged = FALSE;
  if (v != NULL || !it->required)
    return v;
  nb_protocol_missing (doc, lang, nb_tr (lang, it->label), it->reference);
  *flagged = TRUE;
  return g_strdup (nb_tr (lang, "not stated"));
}

static void
title_item (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc, const char *key)
{
  const NbProtocolItem *it = item (key);
  gboolean flagged;
  g_autofree char *v = value_or_flag (campaign, lang, doc, it, &flagged);
  g_autofree char *shown = flagged ? g_strdup_printf ("⚠ %s", v) : g_strdup (v);

  nb_document_add_title_field (doc, nb_tr (lang, it->label), shown);
}

void
nb_protocol_front_matter (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc)
{
  g_autofree char *name = nb_campaign_get_name (campaign, NULL);
  g_autofree char *id = field (campaign, "report.id");
  g_autofree char *revision = field (campaign, "report.revision");
  g_autofree char *replaces = field (campaign, "report.replaces");
  g_autofree char *maker = field (campaign, "robot.maker");
  g_autofree char *model = field (campaign, "robot.model");
  g_autofree char *serial = field (campaign, "robot.serial");
  g_autofree char *robot = NULL, *shown_id = NULL;

  /* 7.8.2.1 d: the identifier on every page; a revision is part of it. */
  if (id != NULL)
    shown_id = revision != NULL ? g_strdup_printf (nb_tr (lang, "%s, revision %s"), id, revision)
                                : g_strdup (id);
  nb_document_set_identifier (doc, shown_id);
  title_item (campaign, lang, doc, "report.id");
  /* 7.8.8: an amended report is a new revision saying what it replaces. */
  if (revision != NULL && g_strcmp0 (revision, "1") != 0)
    {
      g_autofree char *line = NULL;

      if (replaces == NULL)
        {
          nb_protocol_missing (doc, lang, nb_tr (lang, "What this revision replaces"), R17025 ("7.8.8"));
          line = g_strdup_printf (nb_tr (lang, "%s; ⚠ what it replaces is not stated"), revision);
        }
      else
        line = g_strdup_printf (nb_tr (lang, "%s, replaces %s"), revision, replaces);
      nb_document_add_title_field (doc, nb_tr (lang, "Revision"), line);
    }
  else
    nb_document_add_title_field (doc, nb_tr (lang, "Revision"), nb_tr (lang, "1 (original issue)"));
  nb_document_add_title_field (doc, nb_tr (lang, "Campaign"), name);
  title_item (campaign, lang, doc, "lab.name");
  title_item (campaign, lang, doc, "lab.address");
  title_item (campaign, lang, doc, "test.location");
  title_item (campaign, lang, doc, "customer.name");
  title_item (campaign, lang, doc, "customer.address");
  /* 7.8.2.1 g: the item, identified unambiguously, and its condition. */
  robot = g_strdup_printf ("%s %s%s%s", maker ? maker : "", model ? model : "",
                           serial ? nb_tr (lang, ", s/n ") : "", serial ? serial : "");
  g_strstrip (robot);
  if (maker == NULL || model == NULL || serial == NULL)
    {
      g_autofree char *shown = g_strdup_printf (nb_tr (lang, "%s ⚠ (manufacturer, model or serial number "
                                                  "not stated)"), robot);

      nb_document_add_title_field (doc, nb_tr (lang, "Robot under test"), shown);
    }
  else
    nb_document_add_title_field (doc, nb_tr (lang, "Robot under test"), robot);
  title_item (campaign, lang, doc, "item.condition");
  title_item (campaign, lang, doc, "item.received");
  title_item (campaign, lang, doc, "test.dates");
  title_item (campaign, lang, doc, "report.issued");
  /* 7.8.2.1 f: the method, as the standard names itself. */
  nb_document_add_title_field (doc, nb_tr (lang, "Method"),
                               nb_tr (lang, "ISO 18646-2:2024 Robotics — Performance criteria and related "
                                 "test methods for service robots — Part 2: Navigation"));
  title_item (campaign, lang, doc, "method.deviations");
  title_item (campaign, lang, doc, "operator");
}

/* 4.2, 4.3: the conditions are the test's, not one value for a campaign:
 * a condition set more than once has its values by period, each from the
 * time it was recorded (the audit trail), each checked against its range. */
static void
conditions_by_period (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc,
                      gboolean outdoor)
{
  g_autoptr (GArray) events = nb_campaign_list_events (campaign, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      const NbProtocolItem *it = &items[i];
      g_autoptr (GString) line = NULL;
      guint n = 0;

      if (!g_str_has_prefix (it->key, "conditions.") || events == NULL)
        continue;
      line = g_string_new (NULL);
      for (guint k = 0; k < events->len; k++)
        {
          const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, k);
          g_autofree char *range = NULL;
          char when[17];

          if (g_strcmp0 (e->what, "field set") != 0 || g_strcmp0 (e->subject, it->key) != 0 ||
              e->new_value == NULL)
            continue;
          /* "2026-11-02T08:10:00Z" → "2026-11-02 08:10" */
          g_strlcpy (when, e->time ? e->time : "", sizeof when);
          if (strlen (when) > 10)
            when[10] = ' ';
          range = nb_condition_check (lang, it->key, g_ascii_strtod (e->new_value, NULL), outdoor);
          g_string_append_printf (line, "%s%s %s %s%s", n ? "; " : "", e->new_value,
                                  nb_tr (lang, "from"), when, range ? " ⚠" : "");
          n++;
        }
      if (n > 1)
        {
          g_autofree char *note = g_strdup_printf (
            nb_tr (lang, "%s by period (each value from the time it was recorded, UTC; the "
                   "audit trail): %s."), nb_tr (lang, it->label), line->str);

          nb_document_add_paragraph (doc, note);
        }
    }
}

/* Annex A.4: satellite positioning as the measurement system of clause 5,
 * acceptable with a linear measurement error within ±0.5 %. */
static void
gnss_measurement_system (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc)
{
  g_autofree char *kind = field (campaign, "instrument.kind");
  g_autofree char *error = field (campaign, "instrument.linear_error_pct");
  g_autofree char *text = NULL;

  if (!nb_clause_pose_is_gnss (kind))
    return;
  if (error == NULL)
    {
      text = g_strdup_printf (nb_tr (lang, "⚠ Annex A.4: the measurement system is satellite "
                                     "positioning (%s); its linear measurement error is not "
                                     "stated (A.4 accepts it for clause 5 within ±%g %%)."),
                              kind, NB_GNSS_LINEAR_ERROR_PCT);
      nb_document_add_warning (doc, text);
      nb_protocol_missing (doc, lang, nb_tr (lang, "Linear measurement error of the satellite "
                                             "positioning system"), "A.4");
    }
  else if (nb_clause_pose_gnss_accepted (g_ascii_strtod (error, NULL)))
    {
      text = g_strdup_printf (nb_tr (lang, "Annex A.4: the measurement system is satellite "
                                     "positioning (%s) with a linear measurement error of %s %%, "
                                     "within the ±%g %% that makes it suitable for clause 5."),
                              kind, error, NB_GNSS_LINEAR_ERROR_PCT);
      nb_document_add_paragraph (doc, text);
    }
  else
    {
      text = g_strdup_printf (nb_tr (lang, "⚠ Annex A.4: the measurement system is satellite "
                                     "positioning (%s) with a linear measurement error of %s %%, "
                                     "beyond the ±%g %% that makes it suitable for clause 5."),
                              kind, error, NB_GNSS_LINEAR_ERROR_PCT);
      nb_document_add_warning (doc, text);
    }
}

void
nb_protocol_clause_4 (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc,
                      double lu_mm, gboolean *outdoor)
{
  NbTable *t = nb_table_new (nb_tr (lang, "Robot under test, test conditions and measurement system"));
  g_autofree char *env = field (campaign, "conditions.environment");
  GPtrArray *warnings = g_ptr_array_new_with_free_func (g_free);

  *outdoor = g_strcmp0 (env, "outdoor") == 0;
  nb_table_add_column (t, "item", nb_tr (lang, "Item"), NULL, 0);
  nb_table_add_column (t, "value", nb_tr (lang, "Value"), NULL, 0);
  nb_table_add_column (t, "clause", nb_ptr (lang, "subclause", "Clause"), NULL, 0);
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      const NbProtocolItem *it = &items[i];
      gboolean flagged;
      g_autofree char *v = NULL, *range = NULL;
      guint row;

      if (it->place != NB_ITEM_CLAUSE_4)
        continue;
      v = value_or_flag (campaign, lang, doc, it, &flagged);
      /* 4.1 before this field existed: the old yes/no, with what is missing. */
      if (flagged && g_str_equal (it->key, "robot.preparation"))
        {
          g_autofree char *done = nb_protocol_item_value (campaign, lang, "robot.preparation_done");

          if (done != NULL)
            {
              g_free (v);
              v = g_strdup_printf (nb_tr (lang, "%s; what was done is not stated"), done);
            }
        }
      row = nb_table_add_row (t);
      nb_table_set_text (t, row, 0, nb_tr (lang, it->label));
      nb_table_set_text (t, row, 1, v);
      /* The column is narrow: "17025 6.5" for ISO/IEC 17025's clauses. */
      nb_table_set_text (t, row, 2, it->reference && g_str_has_prefix (it->reference, "ISO/IEC ")
                                    ? it->reference + strlen ("ISO/IEC ") : it->reference);
      if (flagged)
        nb_table_flag_cell (t, row, 1);
      range = v != NULL && !flagged
              ? nb_condition_check (lang, it->key, g_ascii_strtod (v, NULL), *outdoor) : NULL;
      if (range != NULL)
        {
          nb_table_flag_cell (t, row, 1);
          g_ptr_array_add (warnings, g_strdup_printf (nb_tr (lang, "Out of range: %s; the value is "
                                                        "accepted and flagged."), range));
        }
      if (g_str_equal (it->key, "robot.width_mm"))
        {
          g_autofree char *lu = isfinite (lu_mm) ? g_strdup_printf ("%g", lu_mm) : NULL;

          row = nb_table_add_row (t);
          nb_table_set_text (t, row, 0, nb_tr (lang, "Length unit LU, mm"));
          nb_table_set_text (t, row, 1, lu);
          nb_table_set_text (t, row, 2, "4.5");
          if (lu == NULL)
            nb_table_flag_cell (t, row, 1);
        }
    }
  for (guint i = 0; i < warnings->len; i++)
    nb_document_add_warning (doc, g_ptr_array_index (warnings, i));
  g_ptr_array_unref (warnings);
  nb_document_add_table (doc, t);
  conditions_by_period (campaign, lang, doc, *outdoor);
  gnss_measurement_system (campaign, lang, doc);
  if (*outdoor)
    {
      g_autofree char *set = field (campaign, "conditions.set");

      nb_document_add_paragraph (doc, nb_tr (lang, "Outdoor tests (annex A): the environment and the surface "
                                        "are those of normal use; the ranges of 4.2 and 4.3 do not "
                                        "apply (4.4: the characteristics are measured outside the "
                                        "normal conditions of 4.2 and 4.3)."));
      /* A.5.3: clauses 6 and 7 are repeated under every declared condition;
       * decided: one campaign, and one protocol, per condition. */
      if (set != NULL)
        {
          g_autofree char *line = g_strdup_printf (
            nb_tr (lang, "Annex A.5.3: the tests of 6.3 and 7.3 are repeated under every declared "
                   "environmental condition and surface, each with its own campaign and "
                   "protocol; this protocol is for: %s."), set);

          nb_document_add_paragraph (doc, line);
        }
      else
        {
          nb_document_add_warning (doc, nb_tr (lang, "⚠ Annex A.5.3: which of the declared "
                                               "environmental conditions and surfaces this "
                                               "protocol is for is not stated."));
          nb_protocol_missing (doc, lang, nb_tr (lang, "Environmental condition and surface of "
                                                 "this protocol"), "A.5.3");
        }
    }
}

void
nb_protocol_back_matter (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc)
{
  g_autofree char *id = field (campaign, "report.id");
  NbTable *t = nb_table_new (nb_tr (lang, "Signature block"));
  static const char *const keys[] = { "signatory.name", "signatory.function" };
  g_autofree char *end = NULL;

  nb_document_add_heading (doc, 1, NULL, nb_tr (lang, "Authorisation"));
  /* 7.8.2.1 l. */
  nb_document_add_paragraph (doc, nb_tr (lang, "The results relate only to the item tested."));
  nb_table_add_column (t, "item", nb_tr (lang, "Item"), NULL, 0);
  nb_table_add_column (t, "value", nb_tr (lang, "Value"), NULL, 0);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const NbProtocolItem *it = item (keys[i]);
      gboolean flagged;
      g_autofree char *v = value_or_flag (campaign, lang, doc, it, &flagged);
      guint row = nb_table_add_row (t);

      nb_table_set_text (t, row, 0, nb_tr (lang, it->label));
      nb_table_set_text (t, row, 1, v);
      if (flagged)
        nb_table_flag_cell (t, row, 1);
    }
  {
    guint row = nb_table_add_row (t);

    /* The signature block: signed on paper or with the lab's signature. */
    nb_table_set_text (t, row, 0, nb_tr (lang, "Signature"));
    nb_table_set_text (t, row, 1, "________________________________");
    row = nb_table_add_row (t);
    nb_table_set_text (t, row, 0, nb_tr (lang, "Date"));
    nb_table_set_text (t, row, 1, "________________");
  }
  nb_document_add_table (doc, t);
  /* 7.8.2.1 d: the end of the report is marked. */
  end = id ? g_strdup_printf (nb_tr (lang, "— End of test report %s —"), id)
           : g_strdup (nb_tr (lang, "— End of test report —"));
  nb_document_add_paragraph (doc, end);
}
