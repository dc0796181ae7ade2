/* nb-arbiter.c — motion arbitration (see nb-arbiter.h for the rules L*, E*, G*, S*) */
#include "nb-arbiter.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

struct NbArbiter {
  NbClockFunc clock;
  gpointer clock_data;

  /* The lease record; it may have expired (lease_valid() decides). */
  char *lease_owner;
  gint64 lease_granted_us;
  gint64 lease_expires_us;

  guint64 epoch;
  gboolean feedback;
  char *last_rejection;
  guint64 n_rejections;

  guint last_id;

  /* The active goal: id 0 when idle. */
  guint active_id;
  NbPriority active_priority;
  char *active_owner;           /* LOW goals: the lease owner it ran under */
  gboolean abort_requested;     /* G5: the lease-loss abort was returned */

  GQueue waiting;               /* HIGH goal ids (GUINT_TO_POINTER), FIFO */
};

static gint64
real_time (gpointer data)
{
  (void) data;
  return g_get_real_time ();
}

NbArbiter *
nb_arbiter_new (NbClockFunc clock, gpointer clock_data)
{
  NbArbiter *a = g_new0 (NbArbiter, 1);

  a->clock = clock != NULL ? clock : real_time;
  a->clock_data = clock != NULL ? clock_data : NULL;
  a->epoch = 1;
  a->feedback = FALSE;   /* E2 */
  g_queue_init (&a->waiting);
  return a;
}

void
nb_arbiter_free (NbArbiter *a)
{
  if (a == NULL)
    return;
  g_free (a->lease_owner);
  g_free (a->last_rejection);
  g_free (a->active_owner);
  g_queue_clear (&a->waiting);
  g_free (a);
}

static gint64
now_us (NbArbiter *a)
{
  return a->clock (a->clock_data);
}

/* L4: valid for granted ≤ now < expires. */
static gboolean
lease_valid_at (const NbArbiter *a, gint64 now)
{
  return a->lease_owner != NULL && now >= a->lease_granted_us && now < a->lease_expires_us;
}

static void
lease_clear (NbArbiter *a)
{
  g_clear_pointer (&a->lease_owner, g_free);
  a->lease_granted_us = a->lease_expires_us = 0;
}

/* L1, L6: a name fit to be echoed in messages and published reasons. */
static gboolean
check_owner (const char *owner, GError **error)
{
  if (owner == NULL || owner[0] == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "priority lease: owner is empty");
      return FALSE;
    }
  gsize len = strlen (owner);
  if (len > NB_ARBITER_OWNER_MAX)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "priority lease: owner is %" G_GSIZE_FORMAT " bytes long (at most %d)",
                   len, NB_ARBITER_OWNER_MAX);
      return FALSE;
    }
  if (!g_utf8_validate (owner, (gssize) len, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "priority lease: owner is not valid UTF-8");
      return FALSE;
    }
  for (const char *p = owner; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_iscntrl (g_utf8_get_char (p)))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "priority lease: owner contains a control character");
        return FALSE;
      }
  return TRUE;
}

/* L1: TTL in (0, 60] s, finite.  L6: rounded to whole µs, at least 1 µs. */
static gboolean
ttl_to_us (double ttl_s, gint64 *ttl_us, GError **error)
{
  if (!isfinite (ttl_s) || !(ttl_s > 0.0) || ttl_s > NB_ARBITER_TTL_MAX_S)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "priority lease: TTL %g s is outside (0, %g] s", ttl_s, NB_ARBITER_TTL_MAX_S);
      return FALSE;
    }
  *ttl_us = MAX ((gint64) llround (ttl_s * 1e6), (gint64) 1);
  return TRUE;
}

gboolean
nb_arbiter_lease_acquire (NbArbiter *a, const char *owner, double ttl_s,
                          gint64 *expires_us, GError **error)
{
  gint64 ttl_us;

  g_return_val_if_fail (a != NULL, FALSE);
  if (!check_owner (owner, error) || !ttl_to_us (ttl_s, &ttl_us, error))
    return FALSE;

  gint64 now = now_us (a);
  if (lease_valid_at (a, now) && strcmp (a->lease_owner, owner) != 0)
    {
      /* L3 */
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "priority lease is held by '%s' for another %.3f s",
                   a->lease_owner, (double) (a->lease_expires_us - now) / 1e6);
      return FALSE;
    }
  /* L2 (the holder renews) or a fresh grant: the same record either way. */
  if (a->lease_owner == NULL || strcmp (a->lease_owner, owner) != 0)
    {
      g_free (a->lease_owner);
      a->lease_owner = g_strdup (owner);
    }
  a->lease_granted_us = now;
  a->lease_expires_us = now + ttl_us;
  if (expires_us != NULL)
    *expires_us = a->lease_expires_us;
  return TRUE;
}

gboolean
nb_arbiter_lease_release (NbArbiter *a, const char *owner, GError **error)
{
  g_return_val_if_fail (a != NULL, FALSE);
  if (!check_owner (owner, error))
    return FALSE;

  gint64 now = now_us (a);
  if (!lease_valid_at (a, now))
    {
      /* L5: nothing held — the released state already holds.  The expired
       * record is kept: G5 reports the loss as an expiry, not a release. */
      return TRUE;
    }
  if (strcmp (a->lease_owner, owner) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "priority lease is held by '%s', not by '%s'", a->lease_owner, owner);
      return FALSE;
    }
  lease_clear (a);
  return TRUE;
}

const char *
nb_arbiter_lease_holder (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, NULL);
  return lease_valid_at (a, now_us (a)) ? a->lease_owner : NULL;
}

gint64
nb_arbiter_lease_expires (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, 0);
  return lease_valid_at (a, now_us (a)) ? a->lease_expires_us : 0;
}

guint64
nb_arbiter_epoch (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, 0);
  return a->epoch;
}

void
nb_arbiter_set_feedback (NbArbiter *a, gboolean available)
{
  g_return_if_fail (a != NULL);
  available = available != FALSE;
  if (available != a->feedback)
    {
      a->feedback = available;
      a->epoch++;   /* E1: a feedback availability change */
    }
}

gboolean
nb_arbiter_feedback (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, FALSE);
  return a->feedback;
}

const char *
nb_arbiter_last_rejection (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, NULL);
  return a->last_rejection;
}

guint64
nb_arbiter_rejection_count (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, 0);
  return a->n_rejections;
}

gboolean
nb_arbiter_gizmo_blocked (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, FALSE);
  /* G1: waiting goals are HIGH only */
  return (a->active_id != 0 && a->active_priority == NB_PRIORITY_HIGH)
         || !g_queue_is_empty (&a->waiting);
}

/* Publish a reason (seeds/001: the reason for a refused command is published). */
static void
publish (NbArbiter *a, char *reason)
{
  g_free (a->last_rejection);
  a->last_rejection = reason;
  a->n_rejections++;
}

/* Publish the error's message as the rejection and hand the error over. */
static guint
reject (NbArbiter *a, GError **error, GError *err)
{
  publish (a, g_strdup_printf ("gizmo goal rejected: %s", err->message));
  g_propagate_error (error, err);
  return 0;
}

static gboolean
id_in_use (const NbArbiter *a, guint id)
{
  return id == a->active_id
         || g_queue_find ((GQueue *) &a->waiting, GUINT_TO_POINTER (id)) != NULL;
}

/* G6 */
static guint
next_id (NbArbiter *a)
{
  do
    {
      a->last_id++;
      if (a->last_id == 0)
        a->last_id = 1;
    }
  while (id_in_use (a, a->last_id));
  return a->last_id;
}

static void
activate (NbArbiter *a, guint id, NbPriority priority, const char *owner)
{
  a->active_id = id;
  a->active_priority = priority;
  g_free (a->active_owner);
  a->active_owner = g_strdup (owner);
  a->abort_requested = FALSE;
}

/* G3: why a LOW goal may not be sent now, or NULL. */
static GError *
low_refusal (NbArbiter *a, const char *owner, guint64 epoch)
{
  GError *err = NULL;

  if (!check_owner (owner, &err))
    return err;
  if (nb_arbiter_gizmo_blocked (a))
    return g_error_new (NB_ERROR, NB_ERROR_FAILED,
                        "a trajectory goal is %s; gizmo goals are blocked until the "
                        "controller's terminal result",
                        a->active_priority == NB_PRIORITY_HIGH && a->active_id != 0
                          ? "executing" : "waiting");
  gint64 now = now_us (a);
  if (!lease_valid_at (a, now))
    return g_error_new (NB_ERROR, NB_ERROR_FAILED,
                        "'%s' holds no valid priority lease%s", owner,
                        a->lease_owner != NULL && strcmp (a->lease_owner, owner) == 0
                          ? " (it expired)" : "");
  if (strcmp (a->lease_owner, owner) != 0)
    return g_error_new (NB_ERROR, NB_ERROR_FAILED,
                        "the priority lease is held by '%s', not by '%s'", a->lease_owner, owner);
  if (!a->feedback)
    return g_error_new (NB_ERROR, NB_ERROR_FAILED, "joint feedback is unavailable");
  if (epoch != a->epoch)
    return g_error_new (NB_ERROR, NB_ERROR_FAILED,
                        "stale epoch %" G_GUINT64_FORMAT " (the published epoch is %"
                        G_GUINT64_FORMAT ")", epoch, a->epoch);
  if (a->active_id != 0)
    return g_error_new (NB_ERROR, NB_ERROR_FAILED,
                        "the previous gizmo goal %u is still executing", a->active_id);
  return NULL;
}

guint
nb_arbiter_submit (NbArbiter *a, NbPriority priority, const char *owner, guint64 epoch,
                   NbGoalDecision *decision, GError **error)
{
  g_return_val_if_fail (a != NULL, 0);

  if (priority == NB_PRIORITY_LOW)
    {
      GError *err = low_refusal (a, owner, epoch);
      if (err != NULL)
        return reject (a, error, err);
      guint id = next_id (a);
      activate (a, id, NB_PRIORITY_LOW, owner);
      g_clear_pointer (&a->last_rejection, g_free);   /* an accepted gesture */
      if (decision != NULL)
        *decision = NB_GOAL_SEND;
      return id;
    }
  if (priority != NB_PRIORITY_HIGH)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "unknown goal priority %d", (int) priority);
      return 0;
    }

  /* G2 */
  if (a->active_id == 0)
    {
      guint id = next_id (a);
      activate (a, id, NB_PRIORITY_HIGH, NULL);
      if (decision != NULL)
        *decision = NB_GOAL_SEND;
      return id;
    }
  if (g_queue_get_length (&a->waiting) >= NB_ARBITER_MAX_WAITING)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "%d trajectory goals are already waiting", NB_ARBITER_MAX_WAITING);
      return 0;
    }
  guint id = next_id (a);
  g_queue_push_tail (&a->waiting, GUINT_TO_POINTER (id));
  if (decision != NULL)
    *decision = NB_GOAL_WAIT;
  return id;
}

guint
nb_arbiter_terminal (NbArbiter *a, guint goal_id)
{
  g_return_val_if_fail (a != NULL, 0);
  if (goal_id == 0 || goal_id != a->active_id)
    return 0;   /* G4: not the active goal — ignored */

  a->epoch++;   /* E1: a terminal result */
  a->active_id = 0;
  g_clear_pointer (&a->active_owner, g_free);
  a->abort_requested = FALSE;
  if (g_queue_is_empty (&a->waiting))
    return 0;
  guint next = GPOINTER_TO_UINT (g_queue_pop_head (&a->waiting));
  activate (a, next, NB_PRIORITY_HIGH, NULL);
  return next;
}

guint
nb_arbiter_check_lease (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, 0);
  if (a->active_id == 0 || a->active_priority != NB_PRIORITY_LOW || a->abort_requested)
    return 0;

  gint64 now = now_us (a);
  const char *why;
  if (lease_valid_at (a, now))
    {
      if (strcmp (a->lease_owner, a->active_owner) == 0)
        return 0;
      why = "taken by another owner";
    }
  else if (a->lease_owner == NULL)
    why = "released";
  else if (strcmp (a->lease_owner, a->active_owner) != 0)
    why = "taken by another owner, which let it expire";
  else
    why = now < a->lease_granted_us ? "ended by the wall clock stepping back" : "expired";

  /* seeds/001 «Потеря аренды»: the renewal was not confirmed */
  publish (a, g_strdup_printf ("gizmo goal %u aborted: priority error: '%s' lost the priority lease (%s)",
                               a->active_id, a->active_owner, why));
  a->abort_requested = TRUE;
  return a->active_id;
}

guint
nb_arbiter_stop (NbArbiter *a, GArray *cancelled_ids)
{
  g_return_val_if_fail (a != NULL, 0);

  /* S1 */
  while (!g_queue_is_empty (&a->waiting))
    {
      guint id = GPOINTER_TO_UINT (g_queue_pop_head (&a->waiting));
      if (cancelled_ids != NULL)
        g_array_append_val (cancelled_ids, id);
    }
  a->epoch++;   /* E1: a stop */
  return a->active_id;
}

gboolean
nb_arbiter_withdraw (NbArbiter *a, guint goal_id)
{
  g_return_val_if_fail (a != NULL, FALSE);
  return goal_id != 0 && g_queue_remove (&a->waiting, GUINT_TO_POINTER (goal_id));
}

guint
nb_arbiter_active (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, 0);
  return a->active_id;
}

NbPriority
nb_arbiter_active_priority (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, NB_PRIORITY_HIGH);
  return a->active_priority;
}

guint
nb_arbiter_n_waiting (NbArbiter *a)
{
  g_return_val_if_fail (a != NULL, 0);
  return g_queue_get_length (&a->waiting);
}
