/* Toasts whose dismissal waits for the end of their show (nb-toasts.h). */
#include "nb-toasts.h"

/* The overlay's toasts in the order it shows them: the head is on screen
 * (or hiding), the others wait in its queue (normal priority: first in,
 * first shown). */
typedef struct {
  AdwToastOverlay *overlay;     /* not a reference: this is its data */
  GQueue toasts;                /* AdwToast, a reference each */
  gint64 shown_us;              /* when the head was shown (monotonic clock) */
  gboolean settled;             /* a frame NB_TOASTS_SHOW_US after it drawn */
  gboolean held;                /* the head's dismissal held back */
  guint tick;
  guint redismiss;
} Toasts;

static void on_dismissed (AdwToast *toast, Toasts *t);

static void
toasts_free (gpointer data)
{
  Toasts *t = data;
  AdwToast *toast;

  g_clear_handle_id (&t->redismiss, g_source_remove);
  /* The tick callback went with the overlay's realization. */
  while ((toast = g_queue_pop_head (&t->toasts)) != NULL)
    {
      g_signal_handlers_disconnect_by_func (toast, on_dismissed, t);
      g_object_unref (toast);
    }
  g_free (t);
}

static gboolean
redismiss (gpointer data)
{
  Toasts *t = data;
  AdwToast *head = g_queue_peek_head (&t->toasts);

  t->redismiss = 0;
  /* adw_toast_dismiss does nothing now: the toast's own handler forgot
   * the overlay when the first emission began. */
  if (head != NULL)
    g_signal_emit_by_name (head, "dismissed");
  return G_SOURCE_REMOVE;
}

static gboolean
tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  Toasts *t = data;

  /* Frame times are on the monotonic clock, as shown_us; the show
   * animation's own tick in this frame ends it (at the latest). */
  if (gdk_frame_clock_get_frame_time (clock) < t->shown_us + NB_TOASTS_SHOW_US)
    return G_SOURCE_CONTINUE;
  t->settled = TRUE;
  t->tick = 0;
  /* After this frame, not inside it: the frame's other tick callbacks
   * (the show's among them) run first. */
  if (t->held && t->redismiss == 0)
    t->redismiss = g_idle_add (redismiss, t);
  return G_SOURCE_REMOVE;
}

/* The head has just been shown (its show animation starts now). */
static void
head_shown (Toasts *t)
{
  t->shown_us = g_get_monotonic_time ();
  t->settled = FALSE;
  t->held = FALSE;
  if (t->tick == 0)
    t->tick = gtk_widget_add_tick_callback (GTK_WIDGET (t->overlay), tick, t, NULL);
}

static void
on_dismissed (AdwToast *toast, Toasts *t)
{
  GList *link = g_queue_find (&t->toasts, toast);
  gboolean head = link != NULL && link == t->toasts.head;

  if (link == NULL)
    return;
  /* Unmapped, the overlay skipped the show animation (and the window
   * being destroyed dismisses its toasts so). */
  if (head && !t->settled && gtk_widget_get_mapped (GTK_WIDGET (t->overlay)))
    {
      g_signal_stop_emission_by_name (toast, "dismissed");
      t->held = TRUE;
      if (t->tick == 0)
        t->tick = gtk_widget_add_tick_callback (GTK_WIDGET (t->overlay), tick, t, NULL);
      return;
    }
  g_queue_delete_link (&t->toasts, link);
  g_signal_handlers_disconnect_by_func (toast, on_dismissed, t);
  g_object_unref (toast);
  /* The overlay's handler, after this one, shows the next now. */
  if (head && t->toasts.head != NULL)
    head_shown (t);
}

void
nb_toasts_add (AdwToastOverlay *overlay, AdwToast *toast)
{
  Toasts *t = g_object_get_data (G_OBJECT (overlay), "nb-toasts");

  g_return_if_fail (adw_toast_get_priority (toast) == ADW_TOAST_PRIORITY_NORMAL);
  if (t == NULL)
    {
      t = g_new0 (Toasts, 1);
      t->overlay = overlay;
      g_queue_init (&t->toasts);
      g_object_set_data_full (G_OBJECT (overlay), "nb-toasts", t, toasts_free);
    }
  g_queue_push_tail (&t->toasts, g_object_ref (toast));
  /* Before the overlay's own handler, which add_toast connects. */
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_dismissed), t);
  if (t->toasts.length == 1)
    head_shown (t);
  adw_toast_overlay_add_toast (overlay, toast);
}
