/* The campaign store (core/nb-campaign.c): round trip of every field,
 * migration from the first schema, files that are not campaigns, the writer
 * lock between two processes, bounded batches, recovery, audit trail, and an
 * open that does not read the samples. */
#include "nb-campaign.h"
#include "nb-error.h"
#include "nb-test.h"
#include "nb-test-tmp.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);

  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
  return path;
}

static NbCampaign *
create (const char *path)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = nb_campaign_create (path, "test campaign", &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  return c;
}

static NbCampaign *
reopen (const char *path, NbCampaignOpenFlags flags)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = nb_campaign_open (path, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  return c;
}

static void
close_ok (NbCampaign *c)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_campaign_close (c, &error));
  g_assert_no_error (error);
}

/* Raw SQL on a file, beside the library (what another tool would do). */
static void
raw_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *msg = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &msg) != SQLITE_OK)
    g_error ("%s: %s", sql, msg);
  sqlite3_close (db);
}

static gint64
raw_int (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  gint64 v;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &s, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  v = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  sqlite3_close (db);
  return v;
}

static gboolean
same_double (double a, double b)
{
  return (isnan (a) && isnan (b)) || memcmp (&a, &b, sizeof a) == 0;
}

static gboolean
has_event (NbCampaign *c, const char *what, const char *subject, const char *old_value,
           const char *new_value)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) events = nb_campaign_list_events (c, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < events->len; i++)
    {
      NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      if (g_str_equal (e->what, what) && g_strcmp0 (e->subject, subject) == 0 &&
          g_strcmp0 (e->old_value, old_value) == 0 && g_strcmp0 (e->new_value, new_value) == 0)
        return TRUE;
    }
  return FALSE;
}

/* ----------------------------------------------------------- fields -- */

/* A valid value for each type, different per field so a mix-up shows. */
static char *
value_for (const NbCampaignField *f, guint i)
{
  switch (f->type)
    {
    case NB_FIELD_TEXT:
      return g_strdup_printf ("text %u, \"quoted\" ; DROP TABLE trial; — ü", i);
    case NB_FIELD_NUMBER:
      return g_strdup_printf ("-%u.25", i);
    case NB_FIELD_POSITIVE:
      return g_strdup_printf ("%u.5", 600 + i);
    case NB_FIELD_PERCENT:
      return g_strdup_printf ("%u", (40 + i) % 100);
    case NB_FIELD_BOOL:
      return g_strdup (i % 2 ? "yes" : "no");
    case NB_FIELD_ENVIRONMENT:
      return g_strdup (i % 2 ? "outdoor" : "indoor");
    case NB_FIELD_DATE:
      return g_strdup_printf ("2026-02-%02u", 1 + i % 28);
    case NB_FIELD_DATES:
      return g_strdup_printf ("2026-03-%02u/2026-04-%02u", 1 + i % 28, 1 + i % 28);
    case NB_FIELD_COVERAGE:
      return g_strdup (i % 2 ? "rectangular" : "1.96");
    case NB_FIELD_DECISION_RULE:
      return g_strdup (i % 2 ? "guarded-w=U" : "simple-acceptance");
    }
  g_assert_not_reached ();
}

static void
test_fields_round_trip (void)
{
  g_autofree char *path = tmp_path ("fields.nbc");
  g_autoptr (GError) error = NULL;
  NbCampaign *c = create (path);
  guint n;
  const NbCampaignField *fields = nb_campaign_fields (&n);
  g_autofree char *name = NULL;
  double lu;

  g_assert_cmpuint (n, >=, 20);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *v = value_for (&fields[i], i);

      g_assert_true (nb_campaign_set_field (c, fields[i].key, v, &error));
      g_assert_no_error (error);
    }
  close_ok (c);

  c = reopen (path, NB_CAMPAIGN_OPEN_READ_ONLY);
  name = nb_campaign_get_name (c, &error);
  g_assert_cmpstr (name, ==, "test campaign");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *want = value_for (&fields[i], i);
      g_autofree char *got = nb_campaign_get_field (c, fields[i].key, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (got, ==, want);
    }
  /* ISO 18646-2 4.5: w = 600 + i + 0.5 mm for robot.width_mm → LU = 1000 mm. */
  g_assert_true (nb_campaign_get_lu_mm (c, &lu, &error));
  nb_assert_abs (lu, 1000.0, 0.0, "LU from the stored width");
  nb_campaign_free (c);

  /* A change keeps the old value in the log; a bad value changes nothing. */
  c = reopen (path, 0);
  g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "1200", &error));
  g_assert_true (nb_campaign_get_lu_mm (c, &lu, &error));
  nb_assert_abs (lu, 1500.0, 0.0, "LU of a 1200 mm robot");
  {
    guint w = 0;
    g_autofree char *old = NULL;

    while (!g_str_equal (fields[w].key, "robot.width_mm"))
      w++;
    old = value_for (&fields[w], w);
    g_assert_true (has_event (c, "field set", "robot.width_mm", old, "1200"));
  }
  g_assert_false (nb_campaign_set_field (c, "robot.width_mm", "-3", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_campaign_set_field (c, "conditions.humidity_pct", "101", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_campaign_set_field (c, "conditions.environment", "space", &error));
  g_clear_error (&error);
  /* Dates are ISO 8601 calendar days; an interval runs forward. */
  {
    static const char *const bad[][2] = {
      { "report.issued", "2026-02-30" }, { "report.issued", "2026-2-3" },
      { "report.issued", "02.11.2026" }, { "item.received", "2026-11-02x" },
      { "test.dates", "2026-11-05/2026-11-02" }, { "test.dates", "2026-11-02/" },
      { "test.dates", "2026-11-02/2026-11-03/2026-11-04" },
    };

    for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
      {
        g_assert_false (nb_campaign_set_field (c, bad[k][0], bad[k][1], &error));
        g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
        g_assert_nonnull (strstr (error->message, bad[k][0]));
        g_clear_error (&error);
      }
    g_assert_true (nb_campaign_set_field (c, "test.dates", "2026-11-02/2026-11-05", &error));
    g_assert_true (nb_campaign_set_field (c, "report.issued", "2024-02-29", &error));
    g_assert_no_error (error);
  }
  g_assert_false (nb_campaign_set_field (c, "robot.colour", "red", &error));
  g_assert_nonnull (strstr (error->message, "unknown field 'robot.colour'"));
  g_clear_error (&error);
  g_assert_false (nb_campaign_set_field (c, "robot.lu_mm", "500", &error));
  g_assert_nonnull (strstr (error->message, "derived"));
  g_clear_error (&error);
  {
    g_autofree char *w = nb_campaign_get_field (c, "robot.width_mm", &error);

    g_assert_cmpstr (w, ==, "1200");
  }
  /* Unset. */
  g_assert_true (nb_campaign_set_field (c, "notes", "", &error));
  {
    g_autofree char *notes = nb_campaign_get_field (c, "notes", &error);

    g_assert_null (notes);
  }
  close_ok (c);
}

/* ------------------------------------------------ configs, trials, samples -- */

static void
fill_samples (NbTrackSample *s, gsize n, gsize first, double scale)
{
  for (gsize i = 0; i < n; i++)
    {
      gsize k = first + i;

      s[i].t_s = k * 0.001;
      s[i].x_mm = scale * k + 0.1;
      s[i].y_mm = -1.0 / (k + 1.0);
      s[i].theta_deg = (k % 7 == 0) ? NAN : fmod (k * 0.37, 360.0) - 180.0;
      s[i].quality = (k % 5 == 0) ? NAN : (float) k / 3.0f;
    }
}

typedef struct {
  GArray *got;
} Collect;

static gboolean
collect (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  g_array_append_vals (((Collect *) user_data)->got, s, n);
  return TRUE;
}

static void
test_trials_round_trip (void)
{
  g_autofree char *path = tmp_path ("trials.nbc");
  g_autoptr (GError) error = NULL;
  NbCampaign *c = create (path);
  NbCampaignConfig cfg, back;
  NbCampaignTrial t;
  g_autofree NbTrackSample *samples = g_new (NbTrackSample, 10000);
  gint64 trial_id;

  nb_campaign_config_init (&cfg);
  cfg.clause = 8;
  cfg.name = g_strdup ("straight, 0.5 m/s; 'loaded'");
  cfg.route = g_strdup ("straight");
  cfg.load_kg = 12.5;
  cfg.obstacle = g_strdup ("none");
  cfg.behaviour = g_strdup ("stop");
  cfg.parameters = g_strdup ("{\"speed_mm_s\": 500}");
  cfg.command = (NbPose) { 1.5, -2.25, 90.0 };
  cfg.from_mm[0] = 0.0, cfg.from_mm[1] = 0.1;
  cfg.to_mm[0] = 5000.0, cfg.to_mm[1] = -0.1;
  for (guint k = 0; k < 4; k++)
    cfg.truth_mm[k][0] = k * 1000.0 + 0.5, cfg.truth_mm[k][1] = -(double) k;
  g_assert_true (nb_campaign_add_config (c, &cfg, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cfg.id, >, 0);

  /* The same name twice in one clause is refused. */
  {
    NbCampaignConfig dup;

    nb_campaign_config_init (&dup);
    dup.clause = 8;
    dup.name = g_strdup (cfg.name);
    g_assert_false (nb_campaign_add_config (c, &dup, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
    g_clear_error (&error);
    nb_campaign_config_clear (&dup);
  }

  nb_campaign_trial_init (&t);
  t.number = 7;
  t.label = g_strdup ("trial A");
  t.kind = g_strdup ("obstacle");
  t.start_time = 100.125;
  g_assert_true (nb_campaign_begin_trial (c, cfg.id, &t, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (t.seq, ==, 1);
  trial_id = t.id;
  /* 10000 samples in uneven pieces: chunks of 4096 and a rest. */
  fill_samples (samples, 10000, 0, 0.5);
  for (gsize done = 0; done < 10000;)
    {
      gsize piece = MIN (10000 - done, 1 + (done * 7919) % 1500);

      g_assert_true (nb_campaign_add_samples (c, trial_id, samples + done, piece, &error));
      g_assert_no_error (error);
      done += piece;
    }
  t.end_time = 160.5;
  t.outcome = NB_TRIAL_FAILED;
  t.reason = g_strdup ("bumped the wall");
  t.time_s = 60.375;
  t.command = (NbPose) { 1.0, 2.0, 3.0 };
  t.attained = (NbPose) { 1.25, 2.5, -179.75 };
  t.angle_deg = 45.0;
  t.true_mm = 1500.0;
  t.measured_mm = NAN;
  t.detected = TRUE;
  for (guint k = 0; k < 4; k++)
    t.corners_mm[k][0] = k + 0.25, t.corners_mm[k][1] = k - 0.75;
  g_assert_true (nb_campaign_end_trial (c, &t, &error));
  g_assert_no_error (error);
  /* Samples go only to a trial in flight. */
  g_assert_false (nb_campaign_add_samples (c, trial_id, samples, 1, &error) &&
                  nb_campaign_flush (c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  close_ok (c);

  c = reopen (path, NB_CAMPAIGN_OPEN_READ_ONLY);
  g_assert_true (nb_campaign_find_config (c, 8, cfg.name, &back, &error));
  g_assert_cmpint (back.id, ==, cfg.id);
  g_assert_cmpuint (back.clause, ==, 8);
  g_assert_cmpstr (back.name, ==, cfg.name);
  g_assert_cmpstr (back.route, ==, "straight");
  g_assert_cmpstr (back.obstacle, ==, "none");
  g_assert_cmpstr (back.behaviour, ==, "stop");
  g_assert_cmpstr (back.parameters, ==, cfg.parameters);
  g_assert_true (same_double (back.load_kg, 12.5));
  g_assert_true (same_double (back.command.x_mm, 1.5) && same_double (back.command.y_mm, -2.25) &&
                 same_double (back.command.theta_deg, 90.0));
  g_assert_true (same_double (back.from_mm[1], 0.1) && same_double (back.to_mm[0], 5000.0) &&
                 same_double (back.to_mm[1], -0.1));
  g_assert_cmpmem (back.truth_mm, sizeof back.truth_mm, cfg.truth_mm, sizeof cfg.truth_mm);
  nb_campaign_config_clear (&back);
  /* #14: "not found" is an error of its own code, not FALSE without one. */
  g_assert_false (nb_campaign_find_config (c, 5, cfg.name, &back, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_NOT_FOUND);
  g_clear_error (&error);
  nb_campaign_config_clear (&back);

  {
    g_autoptr (GArray) trials = nb_campaign_list_trials (c, cfg.id, &error);
    NbCampaignTrial *b;
    Collect got = { g_array_new (FALSE, FALSE, sizeof (NbTrackSample)) };

    g_assert_cmpuint (trials->len, ==, 1);
    b = &g_array_index (trials, NbCampaignTrial, 0);
    g_assert_cmpint (b->id, ==, trial_id);
    g_assert_cmpuint (b->seq, ==, 1);
    g_assert_cmpuint (b->number, ==, 7);
    g_assert_cmpstr (b->label, ==, "trial A");
    g_assert_cmpstr (b->kind, ==, "obstacle");
    g_assert_cmpint (b->outcome, ==, NB_TRIAL_FAILED);
    g_assert_cmpstr (b->reason, ==, "bumped the wall");
    g_assert_true (same_double (b->start_time, 100.125) && same_double (b->end_time, 160.5));
    g_assert_true (same_double (b->time_s, 60.375));
    g_assert_true (same_double (b->command.theta_deg, 3.0));
    g_assert_true (same_double (b->attained.x_mm, 1.25) && same_double (b->attained.y_mm, 2.5) &&
                   same_double (b->attained.theta_deg, -179.75));
    g_assert_true (same_double (b->angle_deg, 45.0) && same_double (b->true_mm, 1500.0));
    g_assert_true (isnan (b->measured_mm));
    g_assert_true (b->detected);
    g_assert_cmpmem (b->corners_mm, sizeof b->corners_mm, t.corners_mm, sizeof t.corners_mm);
    g_assert_cmpuint (b->n_samples, ==, 10000);

    g_assert_true (nb_campaign_foreach_samples (c, trial_id, collect, &got, &error));
    g_assert_cmpuint (got.got->len, ==, 10000);
    for (guint i = 0; i < 10000; i++)
      {
        NbTrackSample *a = &g_array_index (got.got, NbTrackSample, i), *e = &samples[i];

        if (!same_double (a->t_s, e->t_s) || !same_double (a->x_mm, e->x_mm) ||
            !same_double (a->y_mm, e->y_mm) || !same_double (a->theta_deg, e->theta_deg) ||
            !(isnan (a->quality) ? isnan (e->quality) : a->quality == e->quality))
          g_error ("sample %u differs after the round trip", i);
      }
    g_array_unref (got.got);
  }
  /* 10000 = 4096 + 4096 + 1808: three chunks, not a row per sample. */
  {
    NbCampaignCounts counts;

    g_assert_true (nb_campaign_get_counts (c, &counts, &error));
    g_assert_cmpuint (counts.configs, ==, 1);
    g_assert_cmpuint (counts.trials, ==, 1);
    g_assert_cmpuint (counts.samples, ==, 10000);
    g_assert_cmpuint (counts.chunks, ==, 3);
  }
  g_assert_true (has_event (c, "trial recorded", "clause 8 'straight, 0.5 m/s; 'loaded'' trial 1",
                            NULL, "failed"));
  nb_campaign_trial_clear (&t);
  nb_campaign_config_clear (&cfg);
  nb_campaign_free (c);
}

/* The packed format is a file format: pinned to the byte. */
static void
test_chunk_format (void)
{
  NbTrackSample s[2] = { { 1.0, -2.0, 0.5, NAN, 0.25f }, { 2.0, 3.0, 0.0, 90.0, 1.0f } };
  guint8 packed[NB_CHUNK_HEADER_BYTES + 2 * NB_SAMPLE_PACKED_BYTES];
  NbTrackSample back[4];
  gsize n;
  g_autoptr (GError) error = NULL;
  /* 1.0 = 0x3FF0000000000000, little-endian; 0.25f = 0x3E800000. */
  static const guint8 one_le[8] = { 0, 0, 0, 0, 0, 0, 0xF0, 0x3F };
  static const guint8 quarter_le[4] = { 0, 0, 0x80, 0x3E };

  g_assert_cmpuint (nb_sample_chunk_size (2), ==, sizeof packed);
  nb_sample_chunk_pack (s, 2, packed);
  g_assert_cmpmem (packed, 4, "NBS1", 4);
  g_assert_cmpuint (packed[4], ==, 2);
  g_assert_cmpuint (packed[5] | packed[6] | packed[7], ==, 0);
  /* t column first: t[0] = 1.0. */
  g_assert_cmpmem (packed + 8, 8, one_le, 8);
  /* quality column last: q[0] = 0.25f at 8 + 4·2·8. */
  g_assert_cmpmem (packed + 8 + 64, 4, quarter_le, 4);

  g_assert_true (nb_sample_chunk_unpack (packed, sizeof packed, back, 4, &n, &error));
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (isnan (back[0].theta_deg));
  nb_assert_abs (back[1].theta_deg, 90.0, 0.0, "theta");
  nb_assert_abs (back[0].y_mm, 0.5, 0.0, "y");
  /* A chunk whose size disagrees with its count is refused. */
  g_assert_false (nb_sample_chunk_unpack (packed, sizeof packed - 1, back, 4, &n, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_sample_chunk_unpack (packed, sizeof packed, back, 1, &n, &error));
  g_clear_error (&error);
}

/* -------------------------------------------------------- migration -- */

/* The first campaign schema exactly as navbench 0.1 shipped it (user_version 1). */
static const char v1_schema[] =
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
  "CREATE TABLE field (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
  "CREATE TABLE config (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  clause INTEGER NOT NULL CHECK (clause BETWEEN 5 AND 10),\n"
  "  name TEXT NOT NULL,\n"
  "  route TEXT, load_kg REAL, obstacle TEXT, behaviour TEXT, parameters TEXT,\n"
  "  command_x_mm REAL, command_y_mm REAL, command_theta_deg REAL,\n"
  "  from_x_mm REAL, from_y_mm REAL, to_x_mm REAL, to_y_mm REAL,\n"
  "  truth BLOB,\n"
  "  created TEXT NOT NULL,\n"
  "  UNIQUE (clause, name));\n"
  "CREATE TABLE trial (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  config_id INTEGER NOT NULL REFERENCES config (id),\n"
  "  seq INTEGER NOT NULL,\n"
  "  number INTEGER NOT NULL DEFAULT 0,\n"
  "  label TEXT, kind TEXT,\n"
  "  start_time REAL, end_time REAL,\n"
  "  outcome TEXT NOT NULL\n"
  "    CHECK (outcome IN ('running', 'ok', 'failed', 'aborted', 'incomplete')),\n"
  "  time_s REAL,\n"
  "  command_x_mm REAL, command_y_mm REAL, command_theta_deg REAL,\n"
  "  attained_x_mm REAL, attained_y_mm REAL, attained_theta_deg REAL,\n"
  "  angle_deg REAL, true_mm REAL, measured_mm REAL, detected INTEGER,\n"
  "  corners BLOB,\n"
  "  n_samples INTEGER NOT NULL DEFAULT 0,\n"
  "  UNIQUE (config_id, seq));\n"
  "CREATE TABLE sample_chunk (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  trial_id INTEGER NOT NULL REFERENCES trial (id),\n"
  "  seq INTEGER NOT NULL,\n"
  "  n INTEGER NOT NULL,\n"
  "  t_first REAL, t_last REAL,\n"
  "  data BLOB NOT NULL,\n"
  "  UNIQUE (trial_id, seq));\n"
  "CREATE TABLE event (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  time TEXT NOT NULL, who TEXT NOT NULL, what TEXT NOT NULL,\n"
  "  subject TEXT, old_value TEXT, new_value TEXT, note TEXT);\n"
  "CREATE TRIGGER event_no_update BEFORE UPDATE ON event\n"
  "  BEGIN SELECT RAISE (ABORT, 'the event log is append-only'); END;\n"
  "CREATE TRIGGER event_no_delete BEFORE DELETE ON event\n"
  "  BEGIN SELECT RAISE (ABORT, 'the event log is append-only'); END;\n";

static void
build_v1 (const char *path)
{
  g_autofree char *sql = NULL;
  NbTrackSample s[3];
  guint8 packed[NB_CHUNK_HEADER_BYTES + 3 * NB_SAMPLE_PACKED_BYTES];
  g_autoptr (GString) hex = g_string_new (NULL);

  fill_samples (s, 3, 0, 2.0);
  nb_sample_chunk_pack (s, 3, packed);
  for (guint i = 0; i < sizeof packed; i++)
    g_string_append_printf (hex, "%02X", packed[i]);
  sql = g_strdup_printf (
    "BEGIN;\n%s"
    "PRAGMA application_id = %d; PRAGMA user_version = 1;\n"
    "INSERT INTO meta VALUES ('format', 'navbench campaign'), ('name', 'old campaign'), "
    "  ('created', '2026-01-02T03:04:05Z');\n"
    "INSERT INTO field VALUES ('robot.width_mm', '700'), ('conditions.surface', 'linoleum');\n"
    "INSERT INTO config (id, clause, name, command_x_mm, command_y_mm, command_theta_deg, created) "
    "  VALUES (1, 5, 'old pose', 1000, 0, 0, '2026-01-02T03:04:05Z');\n"
    "INSERT INTO trial (id, config_id, seq, outcome, attained_x_mm, attained_y_mm, "
    "  attained_theta_deg, n_samples) VALUES (1, 1, 1, 'ok', 1001, 2, 0.5, 3), "
    "  (2, 1, 2, 'running', NULL, NULL, NULL, 0);\n"
    "INSERT INTO sample_chunk (trial_id, seq, n, t_first, t_last, data) "
    "  VALUES (1, 1, 3, 0, 0.002, X'%s');\n"
    "INSERT INTO event (time, who, what, subject) "
    "  VALUES ('2026-01-02T03:04:05Z', 'old', 'campaign created', 'old campaign');\n"
    "COMMIT;\n"
    "PRAGMA journal_mode = WAL;\n", v1_schema, NB_CAMPAIGN_APPLICATION_ID, hex->str);
  raw_exec (path, sql);
}

static void
test_migration_from_v1 (void)
{
  g_autofree char *path = tmp_path ("v1.nbc");
  g_autoptr (GError) error = NULL;
  NbCampaign *c;
  g_autofree char *surface = NULL, *result = NULL;

  build_v1 (path);
  g_assert_cmpint (raw_int (path, "PRAGMA user_version"), ==, 1);

  c = reopen (path, 0);
  g_assert_cmpuint (nb_campaign_get_opened_version (c), ==, 1);
  /* The trial the v1 writer left in flight is recovered too. */
  g_assert_cmpuint (nb_campaign_get_recovered_trials (c), ==, 1);
  {
    /* From 1 to the newest schema in one step of the log. */
    g_autofree char *newest = g_strdup_printf ("%u", NB_CAMPAIGN_SCHEMA_VERSION);

    g_assert_true (has_event (c, "schema migrated", NULL, "1", newest));
  }
  surface = nb_campaign_get_field (c, "conditions.surface", &error);
  g_assert_cmpstr (surface, ==, "linoleum");
  {
    g_autoptr (GArray) trials = nb_campaign_list_trials (c, 1, &error);
    NbCampaignTrial *t0, *t1;
    Collect got = { g_array_new (FALSE, FALSE, sizeof (NbTrackSample)) };

    g_assert_cmpuint (trials->len, ==, 2);
    t0 = &g_array_index (trials, NbCampaignTrial, 0);
    t1 = &g_array_index (trials, NbCampaignTrial, 1);
    g_assert_cmpint (t0->outcome, ==, NB_TRIAL_OK);
    nb_assert_abs (t0->attained.x_mm, 1001.0, 0.0, "attained x");
    g_assert_null (t0->reason);         /* the v2 column, empty for old trials */
    g_assert_cmpint (t1->outcome, ==, NB_TRIAL_INCOMPLETE);
    g_assert_nonnull (strstr (t1->reason, "interrupted"));
    g_assert_true (nb_campaign_foreach_samples (c, 1, collect, &got, &error));
    g_assert_cmpuint (got.got->len, ==, 3);
    nb_assert_abs (g_array_index (got.got, NbTrackSample, 2).x_mm, 4.1, 0.0, "v1 sample");
    g_array_unref (got.got);
  }
  /* What v2 added works on the migrated file. */
  g_assert_true (nb_campaign_store_result (c, 5, "[]", &error));
  g_assert_no_error (error);
  g_assert_true (nb_campaign_edit_trial (c, 1, "reason", "re-measured", "typo", &error));
  g_assert_no_error (error);
  close_ok (c);
  g_assert_cmpint (raw_int (path, "PRAGMA user_version"), ==, NB_CAMPAIGN_SCHEMA_VERSION);
  g_assert_cmpstr (raw_int (path, "SELECT count(*) FROM result") == 1 ? "ok" : "no", ==, "ok");
  /* v3's ISO 9283 tables are there, empty. */
  g_assert_cmpint (raw_int (path, "SELECT count(*) FROM iso9283_run"), ==, 0);
  g_assert_cmpint (raw_int (path, "SELECT count(*) FROM iso9283_pose"), ==, 0);
  g_assert_cmpint (raw_int (path, "SELECT count(*) FROM pragma_integrity_check "
                          "WHERE integrity_check = 'ok'"), ==, 1);
  c = reopen (path, NB_CAMPAIGN_OPEN_READ_ONLY);
  result = nb_campaign_get_result (c, 5, &error);
  g_assert_cmpstr (result, ==, "[]");
  nb_campaign_free (c);
}

/* -------------------------------------------- files that are not campaigns -- */

static void
assert_refused (const char *path, NbCampaignOpenFlags flags, const char *phrase)
{
  g_autoptr (GBytes) before = nb_test_read_file (path);
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GError) error = NULL;
  NbCampaign *c = nb_campaign_open (path, flags, &error);

  g_assert_null (c);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (error->message, phrase) == NULL || strstr (error->message, path) == NULL)
    g_error ("'%s' does not name the file and say '%s'", error->message, phrase);
  after = nb_test_read_file (path);
  g_assert_true (g_bytes_equal (before, after));
}

static void
write_file (const char *path, const void *data, gsize len)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, data, (gssize) len, &error));
}

static GBytes *
finished_campaign (const char *path)
{
  NbCampaign *c = create (path);
  NbCampaignConfig cfg;
  g_autoptr (GError) error = NULL;

  nb_campaign_config_init (&cfg);
  cfg.clause = 9;
  cfg.name = g_strdup ("door");
  g_assert_true (nb_campaign_add_config (c, &cfg, &error));
  for (guint i = 0; i < 200; i++)
    {
      NbCampaignTrial t;
      g_autofree char *label = g_strdup_printf ("a long label to fill pages %u", i);

      nb_campaign_trial_init (&t);
      t.label = label;
      t.outcome = NB_TRIAL_OK;
      t.time_s = i;
      g_assert_true (nb_campaign_record_trial (c, cfg.id, &t, &error));
      t.label = NULL;
    }
  nb_campaign_config_clear (&cfg);
  close_ok (c);
  return nb_test_read_file (path);
}

static void
test_foreign_files (void)
{
  g_autofree char *text = tmp_path ("notes.txt");
  g_autofree char *empty = tmp_path ("empty.nbc");
  g_autofree char *other = tmp_path ("other.sqlite");
  g_autofree char *newer = tmp_path ("newer.nbc");
  g_autofree char *missing = tmp_path ("missing.nbc");
  g_autoptr (GError) error = NULL;
  NbCampaign *c;

  write_file (text, "x_mm,y_mm\n1,2\n", 14);
  assert_refused (text, 0, "not a navbench campaign (not a SQLite database)");
  assert_refused (text, NB_CAMPAIGN_OPEN_READ_ONLY, "not a SQLite database");
  write_file (empty, "", 0);
  assert_refused (empty, 0, "an empty file, not a navbench campaign");

  raw_exec (other, "CREATE TABLE t (a); INSERT INTO t VALUES (1);");
  assert_refused (other, 0, "a SQLite database, but not a navbench campaign");

  /* A file from a newer navbench is left as it is. */
  {
    g_autoptr (GBytes) ignored = finished_campaign (newer);
  }
  raw_exec (newer, "PRAGMA user_version = 99");
  assert_refused (newer, 0, "written by a newer navbench (campaign schema 99");

  c = nb_campaign_open (missing, 0, &error);
  g_assert_null (c);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "no such campaign"));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* create never overwrites. */
  g_assert_null (nb_campaign_create (text, "x", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "already exists"));
}

static void
test_truncated_and_corrupt (void)
{
  g_autofree char *path = tmp_path ("good.nbc");
  g_autofree char *cut = tmp_path ("truncated.nbc");
  g_autofree char *bad1 = tmp_path ("corrupt-schema.nbc");
  g_autofree char *bad2 = tmp_path ("corrupt-table.nbc");
  g_autofree char *tiny = tmp_path ("tiny.nbc");
  g_autoptr (GBytes) good = finished_campaign (path);
  gsize len;
  const guint8 *data = g_bytes_get_data (good, &len);
  g_autofree guint8 *copy = g_memdup2 (data, len);

  /* The page size, from the header (big-endian at offset 16). */
  gsize page = ((gsize) data[16] << 8) | data[17];

  g_assert_cmpuint (page, >=, 512);
  g_assert_cmpuint (len, >=, 4 * page);
  {
    /* Closed cleanly: the WAL is checkpointed into the file and removed. */
    g_autofree char *wal = g_strconcat (path, "-wal", NULL);

    g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  }

  /* Half the file: the header promises more pages than there are. */
  write_file (cut, data, len / 2 / page * page);
  assert_refused (cut, 0, "truncated");
  write_file (tiny, data, 60);
  assert_refused (tiny, 0, "truncated");

  /* Garbage over the schema table (page 1 after the file header). */
  memset (copy + 100, 0xA5, page - 100);
  write_file (bad1, copy, len);
  assert_refused (bad1, 0, "damaged");

  /* Garbage over page 2, the root of the first table. */
  memcpy (copy, data, len);
  memset (copy + page, 0x5A, page);
  write_file (bad2, copy, len);
  assert_refused (bad2, 0, "damaged");
  assert_refused (bad2, NB_CAMPAIGN_OPEN_READ_ONLY, "damaged");
}

/* ----------------------------------------------------------- the lock -- */

static void
test_two_writers (void)
{
  g_autofree char *path = tmp_path ("locked.nbc");
  g_autoptr (GError) error = NULL;
  int ready[2], stop[2];
  pid_t pid;
  char byte = 0;
  NbCampaign *c;
  int status;

  close_ok (create (path));
  g_assert_cmpint (pipe (ready), ==, 0);
  g_assert_cmpint (pipe (stop), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* The other navbench: holds the campaign open for writing. */
      NbCampaign *mine = nb_campaign_open (path, 0, NULL);

      if (mine == NULL || !nb_campaign_set_field (mine, "operator", "child", NULL))
        _exit (1);
      if (write (ready[1], "r", 1) != 1 || read (stop[0], &byte, 1) != 1)
        _exit (2);
      nb_campaign_close (mine, NULL);
      _exit (0);
    }
  g_assert_cmpint (read (ready[0], &byte, 1), ==, 1);

  c = nb_campaign_open (path, 0, &error);
  g_assert_null (c);
  g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "campaign is open in another navbench"));
  g_clear_error (&error);
  /* Reading beside a live writer is allowed (WAL); writing through it is not. */
  c = reopen (path, NB_CAMPAIGN_OPEN_READ_ONLY);
  {
    g_autofree char *op = nb_campaign_get_field (c, "operator", &error);

    g_assert_cmpstr (op, ==, "child");
  }
  g_assert_false (nb_campaign_set_field (c, "operator", "parent", &error));
  g_assert_nonnull (strstr (error->message, "read-only"));
  g_clear_error (&error);
  nb_campaign_free (c);

  g_assert_cmpint (write (stop[1], "s", 1), ==, 1);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  c = reopen (path, 0);
  g_assert_true (nb_campaign_set_field (c, "operator", "parent", &error));
  close_ok (c);
  close (ready[0]), close (ready[1]), close (stop[0]), close (stop[1]);

  /* A writer killed outright leaves no stale lock (the kernel drops flock). */
  pid = fork ();
  if (pid == 0)
    {
      NbCampaign *mine = nb_campaign_open (path, 0, NULL);

      if (mine == NULL)
        _exit (1);
      for (;;)
        pause ();
    }
  for (int tries = 0; tries < 500; tries++)
    {
      /* Wait until the child holds the lock. */
      NbCampaign *probe = nb_campaign_open (path, 0, NULL);

      if (probe == NULL)
        break;
      nb_campaign_free (probe);
      g_usleep (10000);
    }
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  close_ok (reopen (path, 0));
}

/* -------------------------------------------- batches, recovery, audit -- */

static void
test_batch_bound_and_recovery (void)
{
  g_autofree char *path = tmp_path ("batch.nbc");
  g_autoptr (GError) error = NULL;
  NbCampaign *c = create (path);
  NbCampaignConfig cfg;
  NbCampaignTrial t;
  NbTrackSample s[20];

  nb_campaign_config_init (&cfg);
  cfg.clause = 8;
  cfg.name = g_strdup ("slow stream");
  g_assert_true (nb_campaign_add_config (c, &cfg, &error));
  nb_campaign_trial_init (&t);
  g_assert_true (nb_campaign_begin_trial (c, cfg.id, &t, &error));
  fill_samples (s, 20, 0, 1.0);

  /* A slow stream (a few samples per call): nothing is committed before the
   * batch is 100 ms old... */
  g_assert_true (nb_campaign_add_samples (c, t.id, s, 10, &error));
  g_assert_cmpint (raw_int (path, "SELECT n_samples FROM trial"), ==, 0);
  /* ...and everything is once it is. */
  g_usleep (NB_BATCH_MAX_US + 20000);
  g_assert_true (nb_campaign_add_samples (c, t.id, s + 10, 5, &error));
  g_assert_cmpint (raw_int (path, "SELECT n_samples FROM trial"), ==, 15);
  g_assert_cmpint (raw_int (path, "SELECT count(*) FROM sample_chunk"), ==, 1);
  /* These 5 are the batch in flight when the writer dies. */
  g_assert_true (nb_campaign_add_samples (c, t.id, s + 15, 5, &error));
  nb_campaign_free (c);

  c = reopen (path, 0);
  g_assert_cmpuint (nb_campaign_get_recovered_trials (c), ==, 1);
  {
    g_autoptr (GArray) trials = nb_campaign_list_trials (c, cfg.id, &error);
    NbCampaignTrial *b = &g_array_index (trials, NbCampaignTrial, 0);

    g_assert_cmpint (b->outcome, ==, NB_TRIAL_INCOMPLETE);
    g_assert_cmpuint (b->n_samples, ==, 15);
  }
  g_assert_true (has_event (c, "trial marked incomplete", "clause 8 'slow stream' trial 1",
                            "running", "incomplete"));
  /* The recovery is done once. */
  close_ok (c);
  c = reopen (path, 0);
  g_assert_cmpuint (nb_campaign_get_recovered_trials (c), ==, 0);
  close_ok (c);
  nb_campaign_config_clear (&cfg);
}

static void
test_audit_trail (void)
{
  g_autofree char *path = tmp_path ("audit.nbc");
  g_autoptr (GError) error = NULL;
  NbCampaign *c = create (path);
  NbCampaignConfig cfg;
  NbCampaignTrial t, running;
  sqlite3 *db;

  nb_campaign_set_who (c, "inspector");
  nb_campaign_config_init (&cfg);
  cfg.clause = 5;
  cfg.name = g_strdup ("P1");
  g_assert_true (nb_campaign_add_config (c, &cfg, &error));
  nb_campaign_trial_init (&t);
  t.outcome = NB_TRIAL_OK;
  t.attained = (NbPose) { 1000.5, 2.0, 0.25 };
  g_assert_true (nb_campaign_record_trial (c, cfg.id, &t, &error));

  g_assert_false (nb_campaign_edit_trial (c, t.id, "attained_x_mm", "1000.75", "", &error));
  g_assert_nonnull (strstr (error->message, "needs a reason"));
  g_clear_error (&error);
  g_assert_false (nb_campaign_edit_trial (c, t.id, "seq", "3", "why", &error));
  g_clear_error (&error);
  g_assert_true (nb_campaign_edit_trial (c, t.id, "attained_x_mm", "1000.75",
                                         "the prism was misread", &error));
  g_assert_no_error (error);
  g_assert_true (has_event (c, "trial value edited: attained_x_mm", "clause 5 'P1' trial 1",
                            "1000.5", "1000.75"));
  g_assert_cmpstr (raw_int (path, "SELECT count(*) FROM event WHERE who = 'inspector' "
                            "AND note = 'the prism was misread'") == 1 ? "logged" : "not", ==,
                   "logged");
  /* A trial in flight is not edited. */
  nb_campaign_trial_init (&running);
  g_assert_true (nb_campaign_begin_trial (c, cfg.id, &running, &error));
  g_assert_false (nb_campaign_edit_trial (c, running.id, "time_s", "3", "why", &error));
  g_assert_nonnull (strstr (error->message, "in flight"));
  g_clear_error (&error);
  running.outcome = NB_TRIAL_ABORTED;
  running.reason = g_strdup ("e-stop");
  g_assert_true (nb_campaign_end_trial (c, &running, &error));
  close_ok (c);

  /* The log only grows, even for someone with plain SQL. */
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE event SET who = 'nobody'", NULL, NULL, NULL), !=,
                   SQLITE_OK);
  g_assert_nonnull (strstr (sqlite3_errmsg (db), "append-only"));
  g_assert_cmpint (sqlite3_exec (db, "DELETE FROM event", NULL, NULL, NULL), !=, SQLITE_OK);
  sqlite3_close (db);
  nb_campaign_trial_clear (&running);
  nb_campaign_config_clear (&cfg);
}

/* --------------------------------------------------- open does not scan -- */

/* Bytes this process has read through read(2)/pread(2) so far. */
static guint64
read_chars (void)
{
  g_autofree char *io = NULL;
  const char *p;

  g_assert_true (g_file_get_contents ("/proc/self/io", &io, NULL, NULL));
  p = strstr (io, "rchar:");
  g_assert_nonnull (p);
  return g_ascii_strtoull (p + 6, NULL, 10);
}

/* Opening reads a handful of pages whatever the size of the samples: the
 * 1 GB campaign of tests/bench/bench-ingest opens in the same time as a
 * small one.  Measured with the bytes read, which do not depend on the
 * machine's speed. */
static void
test_open_does_not_read_samples (void)
{
  g_autofree char *path = tmp_path ("big.nbc");
  g_autoptr (GError) error = NULL;
  g_autofree NbTrackSample *s = g_new (NbTrackSample, 4096);
  NbCampaign *c = create (path);
  NbCampaignConfig cfg;
  NbCampaignCounts counts;
  const guint n_chunks = 256;           /* 1 M samples, 38 MB */
  guint64 before, read_bytes;
  gint64 t0;
  GStatBuf st;

  nb_campaign_config_init (&cfg);
  cfg.clause = 8;
  cfg.name = g_strdup ("long run");
  g_assert_true (nb_campaign_add_config (c, &cfg, &error));
  for (guint trial = 0; trial < 4; trial++)
    {
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      g_assert_true (nb_campaign_begin_trial (c, cfg.id, &t, &error));
      for (guint k = 0; k < n_chunks / 4; k++)
        {
          fill_samples (s, 4096, k * 4096, 1.0);
          g_assert_true (nb_campaign_add_samples (c, t.id, s, 4096, &error));
        }
      t.outcome = NB_TRIAL_OK;
      g_assert_true (nb_campaign_end_trial (c, &t, &error));
    }
  close_ok (c);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, (goffset) n_chunks * 4096 * NB_SAMPLE_PACKED_BYTES);

  before = read_chars ();
  t0 = g_get_monotonic_time ();
  c = reopen (path, 0);
  g_assert_true (nb_campaign_get_counts (c, &counts, &error));
  close_ok (c);
  read_bytes = read_chars () - before;
  g_test_message ("opened a %.1f MB campaign in %.2f ms, reading %" G_GUINT64_FORMAT " bytes",
                  st.st_size / 1e6, (g_get_monotonic_time () - t0) / 1e3, read_bytes);
  g_assert_cmpuint (counts.samples, ==, (guint64) n_chunks * 4096);
  g_assert_cmpuint (counts.chunks, ==, n_chunks);
  /* 1/100 of the file at most: the trial, chunk index and schema pages. */
  g_assert_cmpuint (read_bytes, <, (guint64) st.st_size / 100);
  nb_campaign_config_clear (&cfg);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/campaign/fields-round-trip", test_fields_round_trip);
  g_test_add_func ("/campaign/trials-round-trip", test_trials_round_trip);
  g_test_add_func ("/campaign/chunk-format", test_chunk_format);
  g_test_add_func ("/campaign/migration-from-v1", test_migration_from_v1);
  g_test_add_func ("/campaign/foreign-files", test_foreign_files);
  g_test_add_func ("/campaign/truncated-and-corrupt", test_truncated_and_corrupt);
  g_test_add_func ("/campaign/two-writers", test_two_writers);
  g_test_add_func ("/campaign/batch-bound-and-recovery", test_batch_bound_and_recovery);
  g_test_add_func ("/campaign/audit-trail", test_audit_trail);
  g_test_add_func ("/campaign/open-does-not-read-samples", test_open_does_not_read_samples);
  status = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return status;
}
