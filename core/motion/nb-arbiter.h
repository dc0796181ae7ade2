/* nb-arbiter.h — motion arbitration: the priority lease, the gizmo epoch,
 * the priority hand-over between trajectory goals and gizmo goals, the stop
 *
 * seeds/001 (Motion Arbitration) as a pure state machine: no threads, no
 * I/O, no sleeping.  The caller (the HTTP server on a GLib main loop) sends
 * goals to the controller, reports their terminal results and asks the
 * arbiter what to do next; time comes only from the injected wall clock, so
 * every rule below is testable with a fake clock.  One NbArbiter per motion
 * stack; not thread-safe (one main loop drives it).
 *
 * Rules, with the seed requirement each one implements:
 *
 * Priority lease — seeds/001 «Аренда приоритета» (/cobot/tcp_gizmo/priority):
 *   L1  A lease is a named owner for a TTL in (0, 60] s by the wall clock.
 *       Empty (or NULL) owner, TTL ≤ 0, TTL > 60 or TTL not finite →
 *       NB_ERROR_INPUT, nothing changes (scenario «Некорректный TTL»).
 *       0 is rejected, 60 accepted, 60.000001 rejected.
 *   L2  Acquire by the holder of a valid lease renews it: it then expires at
 *       now + TTL (a shorter TTL shortens it; the TTL is what the holder asks
 *       for from now on).
 *   L3  Acquire by another owner while a lease is valid → NB_ERROR_FAILED
 *       naming the holder; once the lease has expired anyone may acquire.
 *   L4  A lease granted at g with TTL t is valid for g ≤ now < g + t: at the
 *       exact expiry instant it is gone.  (Decision: the seed says “by the
 *       wall clock”, and a wall clock can be stepped backwards; a clock now
 *       earlier than the grant instant ends the lease, failing safe — the
 *       holder acquires again — rather than stretching it by the step.)
 *   L5  Release by the holder ends the lease.  Release by another owner while
 *       the lease is valid → NB_ERROR_FAILED naming the holder.  Release when
 *       no valid lease exists succeeds and changes nothing (decision: the
 *       state the caller asked for already holds; idempotent over HTTP).
 *   L6  Decision: the TTL is rounded to whole microseconds, at least 1 µs.
 *       Owners are names echoed in error messages and published reasons, so
 *       they must also be valid UTF-8 without control characters and at most
 *       NB_ARBITER_OWNER_MAX bytes (NB_ERROR_INPUT otherwise) — the seed only
 *       names the empty owner.
 *   L7  Decision: lease changes (acquire, renew, release, expiry) do not
 *       change the epoch: the lease says who may command the gizmo, not what
 *       state the robot is in; it is checked on its own at every gizmo goal.
 *
 * Gizmo state and epoch — seeds/001 «Одна команда на жест»:
 *   E1  The epoch (published in GizmoState) starts at 1 and increments by
 *       exactly one at: every terminal result of the active goal (any
 *       priority), every change of feedback availability (setting the same
 *       value again is not a change), every stop (also when idle).  Nothing
 *       else changes it: not submissions, not goals starting, not lease
 *       changes, not rejections.  (Decision: a goal starting is not counted —
 *       while any goal runs, gizmo goals are refused anyway, and every goal
 *       that starts ends in a terminal result that increments the epoch.)
 *   E2  Feedback starts unavailable (decision: fail safe until the server
 *       reports joint feedback).
 *
 * Goals — seeds/001 «Приоритет обычного движения», «Безопасный переход
 * приоритета», «Одна команда на жест», «Аренда приоритета»:
 *   G1  At most one goal is active (sent to the controller and not yet
 *       terminal).  Only HIGH goals wait; they wait in FIFO order.  Waiting
 *       goals exist only while a goal is active.
 *   G2  HIGH: SEND when no goal is active, else WAIT — in particular when a
 *       LOW goal is active: the HIGH goal waits for the controller's
 *       confirmed terminal result of the gizmo trajectory already sent
 *       (scenario «Низкая цель ещё исполняется»).  The arbiter does not
 *       preempt the LOW goal itself (the seed only says the HIGH goal waits);
 *       a caller that wants a quicker hand-over cancels it on the controller
 *       and reports the terminal result as usual.  Owner and epoch are
 *       ignored.  A HIGH goal that would be waiting behind
 *       NB_ARBITER_MAX_WAITING others → NB_ERROR_FAILED, not published as a
 *       gizmo reason (decision: a bound on what HTTP clients can queue).
 *   G3  LOW (one TCP goal per gesture): first, an empty, NULL or malformed
 *       owner (L6) is NB_ERROR_INPUT.  Then it is rejected with
 *       NB_ERROR_FAILED when, checked in this order (the first that applies
 *       is the reason):
 *         a. a HIGH goal is waiting or active: “blocked until the
 *            controller's terminal result” (scenario «Цель MoveIt при
 *            активности гизмы»);
 *         b. no valid lease held by `owner` (none, expired, another holder);
 *         c. joint feedback unavailable;
 *         d. the epoch differs from the published one (scenario «Устаревшая
 *            эпоха»);
 *         e. a LOW goal is still active (decision: a new gesture neither
 *            queues nor preempts the previous gizmo trajectory).
 *       Every rejection, the input error included, publishes its reason
 *       (nb_arbiter_last_rejection) and sends nothing; the epoch is unchanged.
 *       Otherwise SEND, and the published rejection is cleared.
 *   G4  Terminal result of the active goal: the epoch increments (E1) and the
 *       oldest waiting HIGH goal, if any, becomes active; its id is returned
 *       for the caller to send now.  A terminal result for any other id
 *       (unknown, waiting, already finished) is ignored and returns 0.
 *   G5  Lease loss — scenario «Потеря аренды»: while a LOW goal is active,
 *       nb_arbiter_check_lease() returns its id once the lease is no longer
 *       held by the goal's owner (expired — at the exact instant —, released,
 *       taken), publishing the reason; the caller aborts the goal with a
 *       priority error.  It returns the id once; the goal stays active until
 *       the controller's terminal result (safe hand-over, G2).  A stop does
 *       not suppress it: a lease lost while a stopped gizmo goal still runs
 *       is reported too (the caller's second abort is harmless).
 *   G6  Ids are > 0 and unique among all goals of one arbiter (a 32-bit
 *       counter; should it wrap after 4 294 967 295 goals, ids still in use
 *       are skipped).  A rejected goal gets no id.
 *
 * Stop — seeds/001 «Общая остановка» (/cobot/stop):
 *   S1  Cancels the current operation and invalidates pending ones: every
 *       waiting goal is removed and its id appended to cancelled_ids (the
 *       caller answers them); the active goal's id is returned for the caller
 *       to cancel on the controller.  The active goal stays active until its
 *       terminal result (a stopping arm is still moving).  The epoch
 *       increments (E1), which invalidates every gizmo command composed
 *       before the stop.
 *   S2  Decision: a stop does not release the priority lease: the lease is
 *       who may command the gizmo, a stop is about motion; the holder keeps
 *       its lease and must still use the new epoch.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_ARBITER_TTL_MAX_S 60.0     /* seeds/001: TTL in (0, 60] s */
#define NB_ARBITER_OWNER_MAX 256      /* bytes of an owner name (L6) */
#define NB_ARBITER_MAX_WAITING 64     /* waiting HIGH goals (G2) */

/* Wall clock in microseconds (the g_get_real_time time base). */
typedef gint64 (*NbClockFunc) (gpointer data);

typedef struct NbArbiter NbArbiter;

typedef enum {
  NB_PRIORITY_HIGH,  /* ordinary trajectory goals: MoveIt, HTTP motion, the sequence runner */
  NB_PRIORITY_LOW,   /* the TCP gizmo */
} NbPriority;

typedef enum {
  NB_GOAL_SEND,  /* send to the controller now */
  NB_GOAL_WAIT,  /* queued: returned by nb_arbiter_terminal() when it is to be sent */
} NbGoalDecision;

/* clock NULL → g_get_real_time. */
NbArbiter  *nb_arbiter_new (NbClockFunc clock, gpointer clock_data);
void        nb_arbiter_free (NbArbiter *a);  /* NULL is fine */

/* The priority lease (L1–L7).  *expires_us (may be NULL) is the wall-clock
 * instant the lease ends. */
gboolean    nb_arbiter_lease_acquire (NbArbiter *a, const char *owner, double ttl_s,
                                      gint64 *expires_us, GError **error);
gboolean    nb_arbiter_lease_release (NbArbiter *a, const char *owner, GError **error);
/* NULL when none or expired now; valid until the next lease call. */
const char *nb_arbiter_lease_holder (NbArbiter *a);
/* The expiry instant of the valid lease, 0 when none. */
gint64      nb_arbiter_lease_expires (NbArbiter *a);

/* The published gizmo state (E1, E2). */
guint64     nb_arbiter_epoch (NbArbiter *a);
void        nb_arbiter_set_feedback (NbArbiter *a, gboolean available);
gboolean    nb_arbiter_feedback (NbArbiter *a);
/* The reason last published for a refused or aborted gizmo goal, NULL when
 * none (or after an accepted gizmo goal); valid until the next call that
 * may publish.  The count tells a repeated identical reason apart. */
const char *nb_arbiter_last_rejection (NbArbiter *a);
guint64     nb_arbiter_rejection_count (NbArbiter *a);
/* Whether new gizmo goals are blocked by a HIGH goal (G3a). */
gboolean    nb_arbiter_gizmo_blocked (NbArbiter *a);

/* Submit a goal (G1–G3, G6).  Returns its id (> 0) and *decision, or 0 with
 * error (*decision untouched).  owner and epoch are used for LOW only. */
guint       nb_arbiter_submit (NbArbiter *a, NbPriority priority, const char *owner,
                               guint64 epoch, NbGoalDecision *decision, GError **error);
/* The controller's terminal result of the active goal (G4).  Returns the id
 * of the next goal to send now, 0 when none. */
guint       nb_arbiter_terminal (NbArbiter *a, guint goal_id);
/* While a LOW goal is active (G5): the id of the goal to abort with a
 * priority error, once; 0 otherwise. */
guint       nb_arbiter_check_lease (NbArbiter *a);
/* /cobot/stop (S1, S2).  cancelled_ids (GArray of guint, may be NULL)
 * receives the waiting goals now cancelled; returns the active id, 0 none. */
guint       nb_arbiter_stop (NbArbiter *a, GArray *cancelled_ids);
/* Withdraw a waiting goal (its client went away before it was sent): TRUE
 * when it was waiting.  The active goal cannot be withdrawn — it ends only
 * by its terminal result.  The epoch is unchanged (nothing moved). */
gboolean    nb_arbiter_withdraw (NbArbiter *a, guint goal_id);

guint       nb_arbiter_active (NbArbiter *a);        /* 0 when idle */
NbPriority  nb_arbiter_active_priority (NbArbiter *a); /* meaningful when active */
guint       nb_arbiter_n_waiting (NbArbiter *a);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbArbiter, nb_arbiter_free)

G_END_DECLS
