/* nb-test-campaign.h — reading back what a test wrote into a campaign file
 * (the ISO 9283 cycles: test-gui-setup and test-gui-iso9283 compare what the
 * window stored with what the CLI stores) */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-campaign-iso9283.h"

#include <math.h>

/* The campaign at db, read-only; the test fails when it cannot be opened. */
static inline NbCampaign *
nb_test_campaign_open_ro (const char *db)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);

  g_assert_no_error (error);
  return c;
}

/* The trials of a configuration (found by clause and name into *config), in
 * their order; they clear themselves with the array. */
static inline GArray *
nb_test_campaign_trials (NbCampaign *c, guint clause, const char *name, NbCampaignConfig *config)
{
  g_autoptr (GError) error = NULL;
  GArray *trials;

  g_assert_true (nb_campaign_find_config (c, clause, name, config, &error));
  trials = nb_campaign_list_trials (c, config->id, &error);
  g_assert_no_error (error);
  g_array_set_clear_func (trials, (GDestroyNotify) nb_campaign_trial_clear);
  return trials;
}

/* An ISO 9283 configuration's stored cycles in db (NbIso9283Trial: each its
 * command and data), in their order. */
static inline GPtrArray *
nb_test_iso9283_trials (const char *db, const char *config)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  GPtrArray *t;

  g_assert_no_error (error);
  t = nb_campaign_iso9283_trials (c, config, &error);
  g_assert_no_error (error);
  return t;
}

/* a and b (a cycle's stored values, the window's and the CLI's) equal to
 * tol, NaN equal to NaN; else the test fails naming the cycle and index. */
static inline void
nb_test_assert_same_doubles (GArray *a, GArray *b, double tol, const char *what, guint cycle)
{
  g_assert_cmpuint (a->len, ==, b->len);
  g_assert_cmpuint (a->len, >, 0);
  for (guint i = 0; i < a->len; i++)
    {
      double x = g_array_index (a, double, i), y = g_array_index (b, double, i);

      if (!(fabs (x - y) <= tol) && !(x == y) && !(isnan (x) && isnan (y)))
        g_error ("cycle %u %s[%u]: the window stored %.17g, the CLI %.17g (tolerance %g)", cycle,
                 what, i, x, y, tol);
    }
}
