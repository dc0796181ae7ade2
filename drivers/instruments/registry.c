/* registry.c — every instrument driver navbench has: adding one is a folder
 * and a line here. */
#include "nb-driver.h"

extern const NbDriver nb_driver_nmea;
extern const NbDriver nb_driver_sim;
extern const NbDriver nb_driver_csv;
extern const NbDriver nb_driver_tum;
extern const NbDriver nb_driver_natnet;
extern const NbDriver nb_driver_geocom;

static const NbDriver *const drivers[] = {
  &nb_driver_sim,
  &nb_driver_nmea,
  &nb_driver_csv,
  &nb_driver_tum,
  &nb_driver_natnet,
  &nb_driver_geocom,
};

const NbDriver *
nb_driver_find (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (drivers); i++)
    if (g_str_equal (drivers[i]->name, name))
      return drivers[i];
  return NULL;
}

const NbDriver *const *
nb_driver_list (guint *n)
{
  *n = G_N_ELEMENTS (drivers);
  return drivers;
}
