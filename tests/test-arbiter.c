/* Motion arbitration (core/nb-arbiter.h, seeds/001): every seed scenario and
 * every rule with a fake wall clock, and a randomized sequence of operations
 * checked step by step against an independent reference model. */
#include "nb-arbiter.h"
#include "nb-error.h"

#include <math.h>
#include <string.h>

#define S(x) ((gint64) ((x) * 1e6))   /* seconds → µs (exact for these values) */
#define T0 S (1700000000)   /* an arbitrary wall-clock instant */

typedef struct {
  gint64 now;
} FakeClock;

static gint64
fake_now (gpointer data)
{
  return ((FakeClock *) data)->now;
}

/* A fresh arbiter on a fake clock at T0. */
static NbArbiter *
arbiter_at (FakeClock *clock)
{
  clock->now = T0;
  return nb_arbiter_new (fake_now, clock);
}

static void
acquire_ok (NbArbiter *a, const char *owner, double ttl_s, gint64 expected_expiry)
{
  GError *error = NULL;
  gint64 expires = -1;

  g_assert_true (nb_arbiter_lease_acquire (a, owner, ttl_s, &expires, &error));
  g_assert_no_error (error);
  g_assert_cmpint (expires, ==, expected_expiry);
}

static void
acquire_fails (NbArbiter *a, const char *owner, double ttl_s, int code, const char *needle)
{
  GError *error = NULL;
  gint64 expires = -1;

  g_assert_false (nb_arbiter_lease_acquire (a, owner, ttl_s, &expires, &error));
  g_assert_error (error, NB_ERROR, code);
  if (needle != NULL)
    g_assert_nonnull (strstr (error->message, needle));
  g_assert_cmpint (expires, ==, -1);   /* nothing written */
  g_error_free (error);
}

/* A gizmo goal by owner with the published epoch; must be sent. */
static guint
low_send (NbArbiter *a, const char *owner)
{
  GError *error = NULL;
  NbGoalDecision d = NB_GOAL_WAIT;
  guint id = nb_arbiter_submit (a, NB_PRIORITY_LOW, owner, nb_arbiter_epoch (a), &d, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (id, >, 0);
  g_assert_cmpint (d, ==, NB_GOAL_SEND);
  g_assert_cmpuint (nb_arbiter_active (a), ==, id);
  g_assert_null (nb_arbiter_last_rejection (a));
  return id;
}

/* A gizmo goal that must be refused with NB_ERROR_FAILED, the reason
 * published (containing needle), nothing sent and nothing else changed. */
static void
low_rejected (NbArbiter *a, const char *owner, guint64 epoch, const char *needle)
{
  GError *error = NULL;
  NbGoalDecision d = (NbGoalDecision) 42;
  guint active = nb_arbiter_active (a), waiting = nb_arbiter_n_waiting (a);
  guint64 e = nb_arbiter_epoch (a), count = nb_arbiter_rejection_count (a);
  guint id = nb_arbiter_submit (a, NB_PRIORITY_LOW, owner, epoch, &d, &error);

  g_assert_cmpuint (id, ==, 0);
  g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, needle));
  g_assert_cmpint (d, ==, 42);
  g_assert_cmpuint (nb_arbiter_active (a), ==, active);
  g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, waiting);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  g_assert_cmpuint (nb_arbiter_rejection_count (a), ==, count + 1);
  g_assert_nonnull (nb_arbiter_last_rejection (a));
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), needle));
  g_error_free (error);
}

static guint
high (NbArbiter *a, NbGoalDecision expected)
{
  GError *error = NULL;
  NbGoalDecision d = (NbGoalDecision) 42;
  guint id = nb_arbiter_submit (a, NB_PRIORITY_HIGH, NULL, 0, &d, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (id, >, 0);
  g_assert_cmpint (d, ==, expected);
  return id;
}

/* A lease for alice, feedback on: the gizmo may command. */
static NbArbiter *
ready_gizmo (FakeClock *clock)
{
  NbArbiter *a = arbiter_at (clock);

  acquire_ok (a, "alice", 10.0, T0 + S (10));
  nb_arbiter_set_feedback (a, TRUE);
  return a;
}

/* ------------------------------------------------------------ lease -- */

/* seeds/001 «Некорректный TTL»: (0, 60] exactly at the edges. */
static void
test_ttl_bounds (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);

  acquire_fails (a, "alice", 0.0, NB_ERROR_INPUT, "TTL");
  acquire_fails (a, "alice", -0.0, NB_ERROR_INPUT, "TTL");
  acquire_fails (a, "alice", -1.0, NB_ERROR_INPUT, "TTL");
  acquire_fails (a, "alice", 60.000001, NB_ERROR_INPUT, "TTL");
  acquire_fails (a, "alice", nextafter (60.0, 61.0), NB_ERROR_INPUT, "TTL");
  acquire_fails (a, "alice", NAN, NB_ERROR_INPUT, "TTL");
  acquire_fails (a, "alice", INFINITY, NB_ERROR_INPUT, "TTL");
  acquire_fails (a, "alice", -INFINITY, NB_ERROR_INPUT, "TTL");
  g_assert_null (nb_arbiter_lease_holder (a));   /* no rejection granted anything */

  acquire_ok (a, "alice", 60.0, T0 + S (60));
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "alice");
  /* L6: the smallest positive TTL still gives a lease of 1 µs */
  acquire_ok (a, "alice", 1e-12, T0 + 1);
  acquire_ok (a, "alice", 2.5e-6, T0 + 3);   /* rounded to whole µs (2.5 → 3, away from 0) */
  acquire_ok (a, "alice", 0.25, T0 + 250000);
}

/* seeds/001 «Некорректный TTL»: empty owner; L6 malformed owners. */
static void
test_owner_invalid (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  GError *error = NULL;
  char long_owner[NB_ARBITER_OWNER_MAX + 2];

  acquire_fails (a, "", 10.0, NB_ERROR_INPUT, "owner");
  acquire_fails (a, NULL, 10.0, NB_ERROR_INPUT, "owner");
  acquire_fails (a, "al\nice", 10.0, NB_ERROR_INPUT, "control");
  acquire_fails (a, "\xff\xfe", 10.0, NB_ERROR_INPUT, "UTF-8");
  memset (long_owner, 'x', sizeof long_owner - 1);
  long_owner[sizeof long_owner - 1] = '\0';   /* 257 bytes */
  acquire_fails (a, long_owner, 10.0, NB_ERROR_INPUT, "257 bytes");
  g_assert_null (nb_arbiter_lease_holder (a));

  g_assert_false (nb_arbiter_lease_release (a, "", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_arbiter_lease_release (a, NULL, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);

  long_owner[NB_ARBITER_OWNER_MAX] = '\0';   /* 256 bytes: accepted */
  acquire_ok (a, long_owner, 10.0, T0 + S (10));
  clock.now = T0 + S (10);   /* the 256-byte one has expired */
  acquire_ok (a, "Лаборатория-2 gizmo", 10.0, T0 + S (20));
}

/* L2: acquire by the holder renews from now. */
static void
test_renewal_extends (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);

  acquire_ok (a, "alice", 10.0, T0 + S (10));
  clock.now = T0 + S (8);
  acquire_ok (a, "alice", 10.0, T0 + S (18));
  clock.now = T0 + S (12);   /* past the first expiry */
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "alice");
  g_assert_cmpint (nb_arbiter_lease_expires (a), ==, T0 + S (18));
  /* a shorter TTL shortens it: the TTL counts from now */
  acquire_ok (a, "alice", 1.0, T0 + S (13));
  clock.now = T0 + S (13);
  g_assert_null (nb_arbiter_lease_holder (a));
  g_assert_cmpint (nb_arbiter_lease_expires (a), ==, 0);
}

/* L4: valid for granted ≤ now < expires. */
static void
test_expiry_by_clock (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);

  acquire_ok (a, "alice", 5.0, T0 + S (5));
  clock.now = T0 + S (5) - 1;
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "alice");
  clock.now = T0 + S (5);
  g_assert_null (nb_arbiter_lease_holder (a));
  clock.now = T0 + S (500);
  g_assert_null (nb_arbiter_lease_holder (a));
  /* the former holder may take it again like anyone else */
  acquire_ok (a, "alice", 5.0, T0 + S (505));
}

/* L3: another owner is refused, naming the holder, until expiry. */
static void
test_other_owner_blocked (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);

  acquire_ok (a, "alice", 30.0, T0 + S (30));
  clock.now = T0 + S (20);
  acquire_fails (a, "bob", 5.0, NB_ERROR_FAILED, "'alice'");
  acquire_fails (a, "bob", 5.0, NB_ERROR_FAILED, "another 10.000 s");
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "alice");
  g_assert_cmpint (nb_arbiter_lease_expires (a), ==, T0 + S (30));
  clock.now = T0 + S (30) - 1;
  acquire_fails (a, "bob", 5.0, NB_ERROR_FAILED, "'alice'");
  clock.now = T0 + S (30);
  acquire_ok (a, "bob", 5.0, T0 + S (35));
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "bob");
  acquire_fails (a, "alice", 5.0, NB_ERROR_FAILED, "'bob'");
}

/* L5: release by the holder; by another owner refused; idempotent when none. */
static void
test_release (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  GError *error = NULL;

  acquire_ok (a, "alice", 30.0, T0 + S (30));
  g_assert_false (nb_arbiter_lease_release (a, "bob", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "'alice'"));
  g_clear_error (&error);
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "alice");

  g_assert_true (nb_arbiter_lease_release (a, "alice", &error));
  g_assert_no_error (error);
  g_assert_null (nb_arbiter_lease_holder (a));
  /* nothing held: the released state already holds, for anyone */
  g_assert_true (nb_arbiter_lease_release (a, "alice", &error));
  g_assert_true (nb_arbiter_lease_release (a, "bob", &error));
  g_assert_no_error (error);
  acquire_ok (a, "bob", 1.0, T0 + S (1));

  /* release of an expired lease by a stranger is not a refusal either */
  clock.now = T0 + S (2);
  g_assert_true (nb_arbiter_lease_release (a, "carol", &error));
  g_assert_no_error (error);
}

/* L4 decision: a wall clock stepped back before the grant ends the lease. */
static void
test_clock_stepped_back (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);
  guint low = low_send (a, "alice");

  clock.now = T0 - S (3600);
  g_assert_null (nb_arbiter_lease_holder (a));
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, low);
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "stepping back"));
  acquire_ok (a, "alice", 10.0, T0 - S (3590));
}

/* The default clock is the real wall clock. */
static void
test_default_clock (void)
{
  g_autoptr (NbArbiter) a = nb_arbiter_new (NULL, NULL);
  GError *error = NULL;
  gint64 expires = 0, before = g_get_real_time (), after;

  g_assert_true (nb_arbiter_lease_acquire (a, "alice", 60.0, &expires, &error));
  after = g_get_real_time ();
  g_assert_no_error (error);
  g_assert_cmpint (expires, >=, before + S (60));
  g_assert_cmpint (expires, <=, after + S (60));
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "alice");
}

/* ------------------------------------------------------------ goals -- */

/* seeds/001 «Низкая цель ещё исполняется»: a high goal waits for the
 * confirmed terminal result of the gizmo goal already sent. */
static void
test_high_waits_for_low (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);
  guint low = low_send (a, "alice");
  guint hi = high (a, NB_GOAL_WAIT);

  g_assert_cmpuint (hi, !=, low);
  g_assert_cmpuint (nb_arbiter_active (a), ==, low);
  g_assert_cmpint (nb_arbiter_active_priority (a), ==, NB_PRIORITY_LOW);
  g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, 1);
  /* time passes, the lease is renewed: still waiting — only the terminal result hands over */
  clock.now += S (5);
  acquire_ok (a, "alice", 10.0, clock.now + S (10));
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, 0);
  g_assert_cmpuint (nb_arbiter_active (a), ==, low);

  g_assert_cmpuint (nb_arbiter_terminal (a, low), ==, hi);
  g_assert_cmpuint (nb_arbiter_active (a), ==, hi);
  g_assert_cmpint (nb_arbiter_active_priority (a), ==, NB_PRIORITY_HIGH);
  g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, 0);
  g_assert_cmpuint (nb_arbiter_terminal (a, hi), ==, 0);
  g_assert_cmpuint (nb_arbiter_active (a), ==, 0);
}

/* G2: a high goal on an idle arbiter is sent at once; behind another high
 * goal it waits; the queue is FIFO. */
static void
test_high_fifo (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  guint first = high (a, NB_GOAL_SEND);
  guint w1 = high (a, NB_GOAL_WAIT), w2 = high (a, NB_GOAL_WAIT), w3 = high (a, NB_GOAL_WAIT);

  g_assert_cmpuint (nb_arbiter_active (a), ==, first);
  g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, 3);
  g_assert_cmpuint (nb_arbiter_terminal (a, first), ==, w1);
  g_assert_cmpuint (nb_arbiter_terminal (a, w1), ==, w2);
  g_assert_cmpuint (nb_arbiter_terminal (a, w2), ==, w3);
  g_assert_cmpuint (nb_arbiter_terminal (a, w3), ==, 0);
  g_assert_cmpuint (nb_arbiter_active (a), ==, 0);
  g_assert_cmpuint (high (a, NB_GOAL_SEND), >, w3);
}

/* seeds/001 «Цель MoveIt при активности гизмы»: while a high goal waits or
 * runs, new gizmo goals are blocked until the controller's terminal result. */
static void
test_gizmo_blocked_by_high (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);
  const char *why = "blocked until the controller's terminal result";

  /* a high goal waits behind a gizmo goal: blocked */
  guint low = low_send (a, "alice");
  guint hi = high (a, NB_GOAL_WAIT);
  g_assert_true (nb_arbiter_gizmo_blocked (a));
  low_rejected (a, "alice", nb_arbiter_epoch (a), why);
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "waiting"));

  /* the high goal runs: still blocked, with the fresh epoch too */
  g_assert_cmpuint (nb_arbiter_terminal (a, low), ==, hi);
  g_assert_true (nb_arbiter_gizmo_blocked (a));
  low_rejected (a, "alice", nb_arbiter_epoch (a), why);
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "executing"));

  /* the controller's terminal result: accepted again */
  g_assert_cmpuint (nb_arbiter_terminal (a, hi), ==, 0);
  g_assert_false (nb_arbiter_gizmo_blocked (a));
  guint low2 = low_send (a, "alice");
  g_assert_cmpuint (low2, !=, low);

  /* a high goal straight onto an idle arbiter blocks too */
  g_assert_cmpuint (nb_arbiter_terminal (a, low2), ==, 0);
  guint hi2 = high (a, NB_GOAL_SEND);
  low_rejected (a, "alice", nb_arbiter_epoch (a), why);
  nb_arbiter_terminal (a, hi2);
  low_send (a, "alice");
}

/* seeds/001 «Устаревшая эпоха»: a different epoch is refused, the reason
 * published, nothing sent. */
static void
test_stale_epoch (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);
  guint64 e = nb_arbiter_epoch (a);

  low_rejected (a, "alice", e - 1, "stale epoch");
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "published epoch is"));
  low_rejected (a, "alice", e + 1, "stale epoch");
  low_rejected (a, "alice", 0, "stale epoch");
  g_assert_cmpuint (nb_arbiter_active (a), ==, 0);
  g_assert_cmpuint (nb_arbiter_rejection_count (a), ==, 3);

  /* a gesture after a terminal result carries the old epoch: stale */
  guint low = low_send (a, "alice");   /* clears the published reason */
  nb_arbiter_terminal (a, low);
  low_rejected (a, "alice", e, "stale epoch");
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e + 1);
  low_send (a, "alice");
}

/* seeds/001 «Одна команда на жест»: missing feedback is refused. */
static void
test_missing_feedback (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  guint64 e;

  acquire_ok (a, "alice", 10.0, T0 + S (10));
  g_assert_false (nb_arbiter_feedback (a));   /* E2: unavailable until told */
  low_rejected (a, "alice", nb_arbiter_epoch (a), "feedback is unavailable");
  nb_arbiter_set_feedback (a, TRUE);
  e = nb_arbiter_epoch (a);
  guint low = low_send (a, "alice");
  nb_arbiter_terminal (a, low);
  nb_arbiter_set_feedback (a, FALSE);
  low_rejected (a, "alice", nb_arbiter_epoch (a), "feedback is unavailable");
  nb_arbiter_set_feedback (a, TRUE);
  /* feedback back, but a gesture composed before the loss is stale */
  low_rejected (a, "alice", e + 1, "stale epoch");
  low_send (a, "alice");
}

/* G3b: a gizmo goal needs a valid lease held by its owner. */
static void
test_gizmo_needs_lease (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  GError *error = NULL;

  nb_arbiter_set_feedback (a, TRUE);
  low_rejected (a, "alice", nb_arbiter_epoch (a), "'alice' holds no valid priority lease");
  acquire_ok (a, "bob", 10.0, T0 + S (10));
  low_rejected (a, "alice", nb_arbiter_epoch (a), "held by 'bob', not by 'alice'");
  clock.now = T0 + S (10);
  low_rejected (a, "bob", nb_arbiter_epoch (a), "(it expired)");
  acquire_ok (a, "alice", 10.0, T0 + S (20));
  low_send (a, "alice");

  /* an empty owner is bad input, published as well */
  g_assert_cmpuint (nb_arbiter_submit (a, NB_PRIORITY_LOW, "", nb_arbiter_epoch (a), NULL, &error),
                    ==, 0);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "owner is empty"));
}

/* G3e: one gizmo goal at a time; a new gesture neither queues nor preempts. */
static void
test_gizmo_busy (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);
  guint low = low_send (a, "alice");

  low_rejected (a, "alice", nb_arbiter_epoch (a), "still executing");
  g_assert_cmpuint (nb_arbiter_active (a), ==, low);
  g_assert_cmpuint (nb_arbiter_terminal (a, low), ==, 0);
  low_send (a, "alice");
}

/* seeds/001 «Потеря аренды»: the lease expires at the exact instant; the
 * gizmo goal is aborted once, and stays active until its terminal result. */
static void
test_lease_loss_at_expiry (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);   /* expires T0 + 10 s */
  guint low = low_send (a, "alice");
  guint64 count = nb_arbiter_rejection_count (a);

  clock.now = T0 + S (10) - 1;
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, 0);
  g_assert_null (nb_arbiter_last_rejection (a));
  clock.now = T0 + S (10);
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, low);
  g_assert_cmpuint (nb_arbiter_rejection_count (a), ==, count + 1);
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "priority error"));
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "'alice' lost the priority lease (expired)"));
  /* once */
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, 0);
  g_assert_cmpuint (nb_arbiter_rejection_count (a), ==, count + 1);
  /* the aborted goal is still the controller's until its terminal result */
  g_assert_cmpuint (nb_arbiter_active (a), ==, low);
  guint hi = high (a, NB_GOAL_WAIT);
  guint64 e = nb_arbiter_epoch (a);
  g_assert_cmpuint (nb_arbiter_terminal (a, low), ==, hi);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e + 1);
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, 0);   /* a HIGH goal needs no lease */
}

/* G5: released and taken leases; a renewed lease keeps the goal. */
static void
test_lease_loss_released_taken (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);
  GError *error = NULL;
  guint low;

  /* renewed in time (the motion server renewing): no abort past the first expiry */
  low = low_send (a, "alice");
  clock.now = T0 + S (9);
  acquire_ok (a, "alice", 10.0, T0 + S (19));
  clock.now = T0 + S (15);
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, 0);

  /* released */
  g_assert_true (nb_arbiter_lease_release (a, "alice", &error));
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, low);
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "released"));
  nb_arbiter_terminal (a, low);

  /* taken: alice's lease lapses, bob takes it while alice's goal still runs */
  acquire_ok (a, "alice", 1.0, clock.now + S (1));
  low = low_send (a, "alice");
  clock.now += S (1);
  acquire_ok (a, "bob", 10.0, clock.now + S (10));
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, low);
  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "taken by another owner"));
  /* bob cannot command while alice's aborted goal runs */
  low_rejected (a, "bob", nb_arbiter_epoch (a), "still executing");
  nb_arbiter_terminal (a, low);
  low_send (a, "bob");
}

/* seeds/001 «Общая остановка»: /cobot/stop cancels the current operation
 * and invalidates pending ones; the lease is kept (S2). */
static void
test_stop (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = ready_gizmo (&clock);
  g_autoptr (GArray) cancelled = g_array_new (FALSE, FALSE, sizeof (guint));
  guint low = low_send (a, "alice");
  guint h1 = high (a, NB_GOAL_WAIT), h2 = high (a, NB_GOAL_WAIT);
  guint64 e = nb_arbiter_epoch (a);

  g_assert_cmpuint (nb_arbiter_stop (a, cancelled), ==, low);
  g_assert_cmpuint (cancelled->len, ==, 2);
  g_assert_cmpuint (g_array_index (cancelled, guint, 0), ==, h1);
  g_assert_cmpuint (g_array_index (cancelled, guint, 1), ==, h2);
  g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, 0);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e + 1);
  g_assert_cmpuint (nb_arbiter_active (a), ==, low);   /* until the controller confirms */
  g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, "alice");
  /* cancelled goals are gone: their terminal results and withdrawals are ignored */
  g_assert_cmpuint (nb_arbiter_terminal (a, h1), ==, 0);
  g_assert_false (nb_arbiter_withdraw (a, h2));
  g_assert_cmpuint (nb_arbiter_active (a), ==, low);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e + 1);
  /* a gesture composed before the stop is invalid */
  g_assert_cmpuint (nb_arbiter_terminal (a, low), ==, 0);   /* nothing left to send */
  low_rejected (a, "alice", e, "stale epoch");
  low_rejected (a, "alice", e + 1, "stale epoch");
  low_send (a, "alice");

  /* a stop while idle still invalidates, and a NULL array is fine */
  nb_arbiter_terminal (a, nb_arbiter_active (a));
  e = nb_arbiter_epoch (a);
  g_assert_cmpuint (nb_arbiter_stop (a, NULL), ==, 0);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e + 1);
  /* a stop while a high goal runs returns it */
  guint h3 = high (a, NB_GOAL_SEND);
  g_array_set_size (cancelled, 0);
  g_assert_cmpuint (nb_arbiter_stop (a, cancelled), ==, h3);
  g_assert_cmpuint (cancelled->len, ==, 0);
}

/* E1: the epoch changes exactly where documented, by one. */
static void
test_epoch_rules (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  GError *error = NULL;
  guint64 e = nb_arbiter_epoch (a);

  g_assert_cmpuint (e, ==, 1);
  /* lease changes: none */
  acquire_ok (a, "alice", 10.0, T0 + S (10));
  acquire_ok (a, "alice", 20.0, T0 + S (20));
  g_assert_true (nb_arbiter_lease_release (a, "alice", &error));
  acquire_ok (a, "alice", 5.0, T0 + S (5));
  clock.now = T0 + S (6);   /* expiry */
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  acquire_ok (a, "alice", 30.0, T0 + S (36));

  /* feedback: only changes count */
  nb_arbiter_set_feedback (a, FALSE);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  nb_arbiter_set_feedback (a, TRUE);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, ++e);
  nb_arbiter_set_feedback (a, 7);   /* any true value is "available" */
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  nb_arbiter_set_feedback (a, FALSE);
  nb_arbiter_set_feedback (a, TRUE);
  e += 2;
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);

  /* submissions and rejections: none; terminal results: one each */
  guint low = low_send (a, "alice");
  guint hi = high (a, NB_GOAL_WAIT);
  low_rejected (a, "alice", e, "blocked");
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  g_assert_cmpuint (nb_arbiter_terminal (a, low), ==, hi);   /* also starts hi: still one */
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, ++e);
  g_assert_cmpuint (nb_arbiter_terminal (a, 9999), ==, 0);   /* ignored */
  g_assert_cmpuint (nb_arbiter_terminal (a, 0), ==, 0);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  nb_arbiter_terminal (a, hi);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, ++e);

  /* a lease-loss abort: none by itself; its terminal result: one */
  low = low_send (a, "alice");
  g_assert_true (nb_arbiter_lease_release (a, "alice", &error));
  g_assert_cmpuint (nb_arbiter_check_lease (a), ==, low);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  nb_arbiter_terminal (a, low);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, ++e);

  /* stops: one each, twice in a row too */
  nb_arbiter_stop (a, NULL);
  nb_arbiter_stop (a, NULL);
  e += 2;
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  g_assert_no_error (error);
}

/* G4: terminal results for goals other than the active one change nothing. */
static void
test_terminal_other_ids (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  guint h1 = high (a, NB_GOAL_SEND), h2 = high (a, NB_GOAL_WAIT);
  guint64 e = nb_arbiter_epoch (a);

  g_assert_cmpuint (nb_arbiter_terminal (a, h2), ==, 0);   /* waiting, not active */
  g_assert_cmpuint (nb_arbiter_terminal (a, h2 + 100), ==, 0);
  g_assert_cmpuint (nb_arbiter_active (a), ==, h1);
  g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, 1);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  g_assert_cmpuint (nb_arbiter_terminal (a, h1), ==, h2);
  g_assert_cmpuint (nb_arbiter_terminal (a, h1), ==, 0);   /* a repeated result */
  g_assert_cmpuint (nb_arbiter_active (a), ==, h2);
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e + 1);
}

/* Withdrawing a waiting goal; the active one cannot be withdrawn. */
static void
test_withdraw (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  guint h1 = high (a, NB_GOAL_SEND), h2 = high (a, NB_GOAL_WAIT), h3 = high (a, NB_GOAL_WAIT);
  guint64 e = nb_arbiter_epoch (a);

  g_assert_false (nb_arbiter_withdraw (a, h1));
  g_assert_false (nb_arbiter_withdraw (a, 0));
  g_assert_true (nb_arbiter_withdraw (a, h2));
  g_assert_false (nb_arbiter_withdraw (a, h2));
  g_assert_cmpuint (nb_arbiter_epoch (a), ==, e);
  g_assert_cmpuint (nb_arbiter_terminal (a, h1), ==, h3);
}

/* G2: the waiting queue is bounded. */
static void
test_queue_bound (void)
{
  FakeClock clock;
  g_autoptr (NbArbiter) a = arbiter_at (&clock);
  GError *error = NULL;

  high (a, NB_GOAL_SEND);
  for (guint i = 0; i < NB_ARBITER_MAX_WAITING; i++)
    high (a, NB_GOAL_WAIT);
  g_assert_cmpuint (nb_arbiter_submit (a, NB_PRIORITY_HIGH, NULL, 0, NULL, &error), ==, 0);
  g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, NB_ARBITER_MAX_WAITING);
  g_assert_null (nb_arbiter_last_rejection (a));   /* a HIGH refusal is not a gizmo reason */
}

/* ------------------------------------------------- randomized model -- */

/* An independent reference model of the rules, kept as plain data and
 * compared with the arbiter after every operation. */
typedef struct {
  gint64 now;
  char owner[8];             /* "" none */
  gint64 granted, expires;
  gboolean feedback;
  guint64 epoch;
  guint active;
  gboolean active_low;
  char active_owner[8];
  gboolean abort_sent;
  guint waiting[NB_ARBITER_MAX_WAITING + 1];
  guint n_waiting;
} Model;

static gboolean
model_lease_valid (const Model *m)
{
  return m->owner[0] != '\0' && m->granted <= m->now && m->now < m->expires;
}

static void
randomized_run (guint32 seed, guint n_ops)
{
  static const char *const owners[] = { "a", "b" };
  static const double ttls[] = { 0.5, 1.0, 2.0, 4.0, 1.0, 2.0, 60.0, 0.0, -1.0, 61.0 };
  FakeClock clock = { .now = T0 };
  g_autoptr (NbArbiter) a = nb_arbiter_new (fake_now, &clock);
  g_autoptr (GRand) rng = g_rand_new_with_seed (seed);
  g_autoptr (GHashTable) ids = g_hash_table_new (NULL, NULL);
  Model m = { .now = T0, .epoch = 1 };
  guint sent = 0;      /* the caller's view: ids sent and not yet terminal */
  guint sent_id = 0;
  guint n_low_sent = 0, n_high_sent = 0, n_aborts = 0, n_handovers = 0;

  for (guint op = 0; op < n_ops; op++)
    {
      GError *error = NULL;
      const char *owner = owners[g_rand_int_range (rng, 0, 2)];
      /* weights: gizmo goals, terminal results and lease checks most often,
       * so that every path is taken many times in each run */
      static const guint8 kinds[] = { 0, 0, 1, 1, 2, 3, 4, 6, 6, 6, 8, 8, 8, 10, 10, 11 };
      guint kind = kinds[g_rand_int_range (rng, 0, G_N_ELEMENTS (kinds))];

      switch (kind)
        {
        case 0:   /* time passes (0 to 1.5 s, sometimes exactly to the expiry) */
          if (m.owner[0] != '\0' && m.expires > m.now && g_rand_boolean (rng))
            m.now = m.expires;
          else
            m.now += g_rand_int_range (rng, 0, 1500001);
          clock.now = m.now;
          break;

        case 1:   /* acquire */
          {
            double ttl = ttls[g_rand_int_range (rng, 0, G_N_ELEMENTS (ttls))];
            gboolean ok_ttl = ttl > 0.0 && ttl <= 60.0;
            gboolean other = model_lease_valid (&m) && strcmp (m.owner, owner) != 0;
            gint64 exp = 0;
            gboolean ok = nb_arbiter_lease_acquire (a, owner, ttl, &exp, &error);

            g_assert_cmpint (ok, ==, ok_ttl && !other);
            if (ok)
              {
                g_strlcpy (m.owner, owner, sizeof m.owner);
                m.granted = m.now;
                m.expires = m.now + (gint64) llround (ttl * 1e6);
                g_assert_cmpint (exp, ==, m.expires);
              }
            else
              g_assert_error (error, NB_ERROR, ok_ttl ? NB_ERROR_FAILED : NB_ERROR_INPUT);
          }
          break;

        case 2:   /* release */
          {
            gboolean other = model_lease_valid (&m) && strcmp (m.owner, owner) != 0;
            gboolean ok = nb_arbiter_lease_release (a, owner, &error);

            g_assert_cmpint (ok, ==, !other);
            if (ok && model_lease_valid (&m))
              m.owner[0] = '\0';
          }
          break;

        case 3:   /* feedback */
          {
            gboolean f = g_rand_int_range (rng, 0, 4) != 0;

            if (f != m.feedback)
              m.epoch++;
            m.feedback = f;
            nb_arbiter_set_feedback (a, f);
          }
          break;

        case 4:   /* a high goal */
          {
            NbGoalDecision d;
            guint id = nb_arbiter_submit (a, NB_PRIORITY_HIGH, NULL, 0, &d, &error);

            g_assert_no_error (error);
            g_assert_cmpuint (id, >, 0);
            g_assert_false (g_hash_table_contains (ids, GUINT_TO_POINTER (id)));
            g_hash_table_add (ids, GUINT_TO_POINTER (id));
            if (m.active == 0)
              {
                g_assert_cmpint (d, ==, NB_GOAL_SEND);
                m.active = id;
                m.active_low = FALSE;
                m.abort_sent = FALSE;
                g_assert_cmpuint (sent, ==, 0);
                sent++;
                sent_id = id;
                n_high_sent++;
              }
            else
              {
                g_assert_cmpint (d, ==, NB_GOAL_WAIT);
                g_assert_cmpuint (m.n_waiting, <, 20);   /* the random walk stays far from the bound */
                m.waiting[m.n_waiting++] = id;
              }
          }
          break;

        case 6:   /* a gizmo gesture: mostly the published epoch */
          {
            guint64 epoch = m.epoch - (g_rand_int_range (rng, 0, 5) == 0 ? 1 : 0);
            gboolean blocked = (m.active != 0 && !m.active_low) || m.n_waiting > 0;
            gboolean ok = !blocked && model_lease_valid (&m) && strcmp (m.owner, owner) == 0
                          && m.feedback && epoch == m.epoch && m.active == 0;
            guint64 count = nb_arbiter_rejection_count (a);
            NbGoalDecision d = (NbGoalDecision) 42;
            guint id = nb_arbiter_submit (a, NB_PRIORITY_LOW, owner, epoch, &d, &error);

            g_assert_cmpint (id != 0, ==, ok);
            if (ok)
              {
                g_assert_no_error (error);
                g_assert_cmpint (d, ==, NB_GOAL_SEND);
                /* a LOW goal never becomes active while a HIGH one is queued or runs */
                g_assert_cmpuint (m.n_waiting, ==, 0);
                g_assert_cmpuint (sent, ==, 0);
                g_assert_false (g_hash_table_contains (ids, GUINT_TO_POINTER (id)));
                g_hash_table_add (ids, GUINT_TO_POINTER (id));
                m.active = id;
                m.active_low = TRUE;
                m.abort_sent = FALSE;
                g_strlcpy (m.active_owner, owner, sizeof m.active_owner);
                sent++;
                sent_id = id;
                n_low_sent++;
                g_assert_null (nb_arbiter_last_rejection (a));
              }
            else
              {
                g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
                g_assert_cmpint (d, ==, 42);
                g_assert_cmpuint (nb_arbiter_rejection_count (a), ==, count + 1);
                if (blocked)
                  g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "blocked until"));
              }
          }
          break;

        case 8:   /* the controller's terminal result, rarely for a wrong id */
          {
            guint target = g_rand_int_range (rng, 0, 6) == 0
                             ? (m.n_waiting > 0 ? m.waiting[0] : m.active + 1000)
                             : m.active;
            guint next = nb_arbiter_terminal (a, target);

            if (target == 0 || target != m.active)
              {
                g_assert_cmpuint (next, ==, 0);
                break;
              }
            g_assert_cmpuint (sent, ==, 1);
            g_assert_cmpuint (sent_id, ==, target);
            sent--;
            m.epoch++;
            m.active = 0;
            if (m.n_waiting > 0)
              {
                g_assert_cmpuint (next, ==, m.waiting[0]);   /* FIFO */
                memmove (m.waiting, m.waiting + 1, --m.n_waiting * sizeof m.waiting[0]);
                m.active = next;
                m.active_low = FALSE;
                m.abort_sent = FALSE;
                sent++;
                sent_id = next;
                n_handovers++;
              }
            else
              g_assert_cmpuint (next, ==, 0);
          }
          break;

        case 10:   /* the motion server's periodic lease check */
          {
            gboolean lost = m.active != 0 && m.active_low && !m.abort_sent
                            && !(model_lease_valid (&m) && strcmp (m.owner, m.active_owner) == 0);
            guint id = nb_arbiter_check_lease (a);

            g_assert_cmpuint (id, ==, lost ? m.active : 0);
            if (lost)
              {
                m.abort_sent = TRUE;
                n_aborts++;
                g_assert_nonnull (strstr (nb_arbiter_last_rejection (a), "priority error"));
              }
          }
          break;

        case 11:   /* stop (rarely), else withdraw a waiting goal */
          if (g_rand_int_range (rng, 0, 3) == 0)
            {
              g_autoptr (GArray) cancelled = g_array_new (FALSE, FALSE, sizeof (guint));

              g_assert_cmpuint (nb_arbiter_stop (a, cancelled), ==, m.active);
              g_assert_cmpuint (cancelled->len, ==, m.n_waiting);
              for (guint i = 0; i < m.n_waiting; i++)
                g_assert_cmpuint (g_array_index (cancelled, guint, i), ==, m.waiting[i]);
              m.n_waiting = 0;
              m.epoch++;
            }
          else if (m.n_waiting > 0)
            {
              guint i = (guint) g_rand_int_range (rng, 0, (gint32) m.n_waiting);

              g_assert_true (nb_arbiter_withdraw (a, m.waiting[i]));
              memmove (m.waiting + i, m.waiting + i + 1, (m.n_waiting - i - 1) * sizeof m.waiting[0]);
              m.n_waiting--;
            }
          break;

        default:
          g_assert_not_reached ();
        }
      g_clear_error (&error);

      /* Invariants after every operation */
      g_assert_cmpuint (sent, <=, 1);                        /* never two active goals */
      g_assert_cmpuint (nb_arbiter_active (a), ==, m.active);
      g_assert_cmpuint (sent == 1 ? sent_id : 0, ==, m.active);
      if (m.active != 0)
        g_assert_cmpint (nb_arbiter_active_priority (a), ==,
                         m.active_low ? NB_PRIORITY_LOW : NB_PRIORITY_HIGH);
      g_assert_cmpuint (nb_arbiter_n_waiting (a), ==, m.n_waiting);
      g_assert_true (m.n_waiting == 0 || m.active != 0);     /* nobody waits on an idle arbiter */
      g_assert_cmpuint (nb_arbiter_epoch (a), ==, m.epoch);
      g_assert_cmpint (nb_arbiter_feedback (a), ==, m.feedback);
      g_assert_cmpint (nb_arbiter_gizmo_blocked (a), ==,
                       (m.active != 0 && !m.active_low) || m.n_waiting > 0);
      g_assert_cmpstr (nb_arbiter_lease_holder (a), ==, model_lease_valid (&m) ? m.owner : NULL);
    }

  g_test_message ("seed %u: %u low, %u high, %u hand-overs, %u aborts", seed, n_low_sent, n_high_sent, n_handovers, n_aborts);
  /* The walk must have exercised every path it checks. */
  g_assert_cmpuint (n_low_sent, >, 10);
  g_assert_cmpuint (n_high_sent, >, 10);
  g_assert_cmpuint (n_handovers, >, 10);
  g_assert_cmpuint (n_aborts, >, 3);
}

static void
test_randomized (void)
{
  for (guint32 seed = 1; seed <= 40; seed++)
    randomized_run (seed, 5000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/arbiter/lease/ttl-bounds", test_ttl_bounds);
  g_test_add_func ("/arbiter/lease/owner-invalid", test_owner_invalid);
  g_test_add_func ("/arbiter/lease/renewal-extends", test_renewal_extends);
  g_test_add_func ("/arbiter/lease/expiry-by-clock", test_expiry_by_clock);
  g_test_add_func ("/arbiter/lease/other-owner-blocked", test_other_owner_blocked);
  g_test_add_func ("/arbiter/lease/release", test_release);
  g_test_add_func ("/arbiter/lease/clock-stepped-back", test_clock_stepped_back);
  g_test_add_func ("/arbiter/lease/default-clock", test_default_clock);
  g_test_add_func ("/arbiter/goal/high-waits-for-low", test_high_waits_for_low);
  g_test_add_func ("/arbiter/goal/high-fifo", test_high_fifo);
  g_test_add_func ("/arbiter/goal/gizmo-blocked-by-high", test_gizmo_blocked_by_high);
  g_test_add_func ("/arbiter/goal/stale-epoch", test_stale_epoch);
  g_test_add_func ("/arbiter/goal/missing-feedback", test_missing_feedback);
  g_test_add_func ("/arbiter/goal/gizmo-needs-lease", test_gizmo_needs_lease);
  g_test_add_func ("/arbiter/goal/gizmo-busy", test_gizmo_busy);
  g_test_add_func ("/arbiter/goal/lease-loss-at-expiry", test_lease_loss_at_expiry);
  g_test_add_func ("/arbiter/goal/lease-loss-released-taken", test_lease_loss_released_taken);
  g_test_add_func ("/arbiter/goal/terminal-other-ids", test_terminal_other_ids);
  g_test_add_func ("/arbiter/goal/withdraw", test_withdraw);
  g_test_add_func ("/arbiter/goal/queue-bound", test_queue_bound);
  g_test_add_func ("/arbiter/stop", test_stop);
  g_test_add_func ("/arbiter/epoch-rules", test_epoch_rules);
  g_test_add_func ("/arbiter/randomized", test_randomized);
  return g_test_run ();
}
