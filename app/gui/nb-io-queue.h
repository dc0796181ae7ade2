/* nb-io-queue.h — the window's campaign I/O, one job at a time off the GTK thread
 *
 * The campaign file admits one writer (an flock held from open to close), so
 * the form's saves, the loads and the run's start go through one serial
 * queue: a job that opens the file for writing never meets another of the
 * window's.  Work runs in the queue's thread; done runs on the main context
 * of the caller of push, in order.  A run itself holds the lock in the
 * runner's worker: the form is insensitive meanwhile (nb-window.c).
 */
#pragma once

#include <glib-object.h>

#include "nb-campaign.h"

G_BEGIN_DECLS

typedef struct _NbIoQueue NbIoQueue;

/* Runs in the queue's thread; returns the result (freed with result_free
 * when done does not steal it) or NULL with error. */
typedef gpointer (*NbIoWork) (gpointer data, GError **error);
/* On the main context; result is NULL when error is set.  Take result by
 * setting *result to NULL. */
typedef void     (*NbIoDone) (GObject *owner, gpointer *result, const GError *error,
                              gpointer data);

NbIoQueue *nb_io_queue_new   (void);
NbIoQueue *nb_io_queue_ref   (NbIoQueue *queue);
/* Owners release the queue when they are finalized (not disposed): a job
 * keeps its owner, so the last unref finds no job pending. */
void       nb_io_queue_unref (NbIoQueue *queue);

/* owner (required: it holds a reference to the queue) is kept alive until
 * done has run. */
void       nb_io_queue_push  (NbIoQueue *queue, GObject *owner, NbIoWork work, NbIoDone done,
                              gpointer data, GDestroyNotify data_free,
                              GDestroyNotify result_free);
/* Jobs pushed and not yet done. */
guint      nb_io_queue_pending (NbIoQueue *queue);

/* A page's load of its campaign, at path, the generation-th the page was
 * given: done drops it when the page has been given another since. */
typedef struct {
  char *path;
  guint generation;
} NbLoadJob;

NbLoadJob *nb_load_job_new  (const char *path, guint generation);
void       nb_load_job_free (gpointer job);

/* A change to the campaign, in the queue's thread. */
typedef gboolean (*NbCampaignChange) (NbCampaign *campaign, gpointer data, GError **error);
/* For an NbIoWork: the campaign at path opened for writing, change run on
 * it, the file closed (the change is kept only if the close succeeds);
 * non-NULL when done, NULL with error. */
gpointer   nb_io_change_campaign (const char *path, NbCampaignChange change, gpointer data,
                                  GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbIoQueue, nb_io_queue_unref)

G_END_DECLS
