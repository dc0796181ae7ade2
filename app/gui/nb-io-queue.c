#include "nb-io-queue.h"

struct _NbIoQueue {
  GThreadPool *pool;            /* one thread: jobs in order */
  guint pending;                /* touched on the main context only */
  gboolean closing;
};

typedef struct {
  NbIoQueue *queue;
  GMainContext *context;
  GObject *owner;
  NbIoWork work;
  NbIoDone done;
  gpointer data;
  GDestroyNotify data_free, result_free;
  gpointer result;
  GError *error;
} Job;

static void
job_free (Job *job)
{
  if (job->result != NULL && job->result_free != NULL)
    job->result_free (job->result);
  if (job->data_free != NULL)
    job->data_free (job->data);
  g_clear_error (&job->error);
  g_clear_object (&job->owner);
  g_main_context_unref (job->context);
  g_free (job);
}

static gboolean
job_done (gpointer user_data)
{
  Job *job = user_data;

  job->queue->pending--;
  if (!job->queue->closing && job->done != NULL)
    job->done (job->owner, &job->result, job->error, job->data);
  job_free (job);
  return G_SOURCE_REMOVE;
}

static void
job_run (gpointer item, gpointer user_data)
{
  Job *job = item;

  GSource *source;

  job->result = job->work (job->data, &job->error);
  /* Not g_main_context_invoke: when no thread owns the context (the GTK
   * thread busy outside the main loop) it acquires it and runs done here,
   * in the queue's thread, touching widgets off the GTK thread. */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, job_done, job, NULL);
  g_source_set_static_name (source, "nb-io-queue done");
  g_source_attach (source, job->context);
  g_source_unref (source);
}

NbIoQueue *
nb_io_queue_new (void)
{
  NbIoQueue *q = g_atomic_rc_box_new0 (NbIoQueue);

  q->pool = g_thread_pool_new (job_run, q, 1, FALSE, NULL);
  return q;
}

NbIoQueue *
nb_io_queue_ref (NbIoQueue *queue)
{
  return g_atomic_rc_box_acquire (queue);
}

static void
queue_clear (gpointer p)
{
  NbIoQueue *q = p;

  /* Every job keeps its owner, and owners keep the queue until they are
   * finalized: nothing is pending here. */
  g_warn_if_fail (q->pending == 0);
  q->closing = TRUE;
  g_thread_pool_free (q->pool, FALSE, TRUE);
}

void
nb_io_queue_unref (NbIoQueue *queue)
{
  g_atomic_rc_box_release_full (queue, queue_clear);
}

void
nb_io_queue_push (NbIoQueue *queue, GObject *owner, NbIoWork work, NbIoDone done, gpointer data,
                  GDestroyNotify data_free, GDestroyNotify result_free)
{
  Job *job = g_new0 (Job, 1);

  job->queue = queue;
  job->context = g_main_context_ref_thread_default ();
  job->owner = owner ? g_object_ref (owner) : NULL;
  job->work = work;
  job->done = done;
  job->data = data;
  job->data_free = data_free;
  job->result_free = result_free;
  queue->pending++;
  g_thread_pool_push (queue->pool, job, NULL);
}

guint
nb_io_queue_pending (NbIoQueue *queue)
{
  return queue->pending;
}

NbLoadJob *
nb_load_job_new (const char *path, guint generation)
{
  NbLoadJob *job = g_new0 (NbLoadJob, 1);

  job->path = g_strdup (path);
  job->generation = generation;
  return job;
}

void
nb_load_job_free (gpointer p)
{
  NbLoadJob *job = p;

  g_free (job->path);
  g_free (job);
}

gpointer
nb_io_change_campaign (const char *path, NbCampaignChange change, gpointer data, GError **error)
{
  g_autoptr (NbCampaign) campaign = nb_campaign_open (path, 0, error);

  if (campaign == NULL || !change (campaign, data, error) ||
      !nb_campaign_close (g_steal_pointer (&campaign), error))
    return NULL;
  return GINT_TO_POINTER (1);
}
