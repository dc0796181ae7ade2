/* libFuzzer target: the trajectory readers (TUM and CSV track, format
 * recognised or forced) on arbitrary bytes, from memory and from a file:
 * either a trajectory whose stamps increase and whose quaternions are unit,
 * or an error — never both, never a crash.  The same bytes as a --transform
 * file (nb_sim3_parse: an empty one overflowed its row buffer, #21): a rigid
 * transform or an error. */
#include "nb-traj-align.h"
#include "nb-tum-reader.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check (NbTraj *traj, GError *error)
{
  g_assert ((traj == NULL) == (error != NULL));
  if (traj != NULL)
    {
      g_assert (traj->n > 0);
      for (guint k = 0; k < traj->n; k++)
        {
          const double *q = traj->q + 4 * k;

          g_assert (k == 0 || traj->t[k] > traj->t[k - 1]);
          g_assert (fabs (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1) < 1e-9);
        }
      nb_traj_free (traj);
    }
  g_clear_error (&error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static char *path;
  NbTrajReadInfo info;

  if (path == NULL)
    path = g_strdup_printf ("%s/nb-fuzz-%d.tum", g_get_tmp_dir (), (int) getpid ());
  g_assert (g_file_set_contents (path, (const char *) data, (gssize) size, NULL));
  for (int f = NB_TRAJ_FORMAT_AUTO; f <= NB_TRAJ_FORMAT_CSV; f++)
    {
      GError *error = NULL;
      NbTraj *traj = nb_traj_read_data ("fuzz", (const char *) data, size, f, &info, &error);

      check (traj, error);
      /* The reader's result first, then its error: in one call's arguments
       * their order of evaluation is unspecified (GCC reads error first). */
      error = NULL;
      traj = nb_traj_read_path (path, f, &info, &error);
      check (traj, error);
    }
  {
    g_autofree char *text = g_strndup ((const char *) data, size);
    GError *error = NULL;
    NbSim3 x;
    gboolean ok = nb_sim3_parse ("fuzz", text, &x, &error);

    g_assert (ok == (error == NULL));
    if (ok)
      g_assert (fabs (x.s - 1.0) < 1e-12 && isfinite (x.t[0] + x.t[1] + x.t[2]));
    g_clear_error (&error);
  }
  return 0;
}
