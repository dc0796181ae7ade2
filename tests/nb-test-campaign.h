/* nb-test-campaign.h — reading back what a test wrote into a campaign file */
#pragma once

#include <glib.h>

#include "nb-campaign.h"

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
