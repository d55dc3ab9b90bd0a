/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-solver-thread"

#include "config.h"

#include "fr-fold-job.h"
#include "fr-model.h"
#include "fr-solver-thread.h"

struct _FrSolverThread
{
  GObject          parent_instance;

  /* Main thread only. */
  GMainContext    *main_context;
  guint            latest_serial;     /* newest job submitted */
  guint            delivered_serial;  /* newest result emitted */
  guint            n_dropped;         /* stale results thrown away */

  /* Fixed before the worker starts. */
  FrSolveFunc      solve;
  gpointer         solve_data;
  GDestroyNotify   solve_destroy;

  /* Shared with the worker, under mutex. */
  GMutex           mutex;
  GCond            cond;
  GThread         *thread;
  FrJob           *pending;
  guint            running_serial;    /* 0 when idle */
  fr_cancel       *cancel;
  gboolean         quit;
  guint            n_cancelled;
};

G_DEFINE_FINAL_TYPE (FrSolverThread, fr_solver_thread, G_TYPE_OBJECT)

enum {
  RESULT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  GWeakRef  self;
  FrResult *result;
} Delivery;

/* $FOLDRAY_DEBUG_SOLVE_DELAY_MS: every solve starts that much later, so
 * that the GUI tests can act while one runs (a real solve is too quick on
 * one machine, or too slow on another, to be timed). */
static guint
debug_delay_ms (void)
{
  static gsize once = 0;
  static guint ms = 0;

  if (g_once_init_enter (&once))
    {
      const char *v = g_getenv ("FOLDRAY_DEBUG_SOLVE_DELAY_MS");

      ms = v != NULL ? (guint) MIN (g_ascii_strtoull (v, NULL, 10), 60000) : 0;
      g_once_init_leave (&once, 1);
    }
  return ms;
}

/* A solve refused for its velocity, which in the app is always a drawn
 * model's rasterisation, says which of the model's settings made it (a
 * layer's gradient of 1e38 overflows a float), as foldray-cli --scene
 * does, where the solver's words named only the node. */
static void
explain_velocity (FrResult *result)
{
  FrJob *job = result->job;
  g_autoptr(GError) error = NULL;

  if (result->ok || job->velocity == NULL ||
      (job->kind == FR_JOB_FOLD && !job->fold.speed_from_grid))
    return;
  if (!fr_model_check_velocity (&job->grid, job->velocity, "velocity", &error))
    {
      g_free (result->error);
      result->error = g_strdup (error->message);
    }
}

static FrResult *
default_solve (FrJob           *job,
               const fr_cancel *cancel,
               gboolean        *cancelled,
               gpointer         user_data)
{
  FrResult *result;

  /* A fold job that only contours a solved T again, or a job that takes
   * every shot's solve from the last result, solves nothing. */
  for (guint t = 0; !fr_fold_job_reuses_solve (job) && !fr_job_reuses_solve (job) &&
                    t < debug_delay_ms () &&
                    !fr_cancel_raised (cancel); t += 10)
    g_usleep (10 * 1000);
  result = fr_job_run (job, cancel, cancelled);
  if (result != NULL)
    explain_velocity (result);
  return result;
}

static void
delivery_free (gpointer data)
{
  Delivery *d = data;

  g_weak_ref_clear (&d->self);
  g_clear_pointer (&d->result, fr_result_unref);
  g_free (d);
}

/* Main thread: emit the result only when it belongs to the newest job. */
static gboolean
deliver_cb (gpointer data)
{
  Delivery *d = data;
  g_autoptr(FrSolverThread) self = g_weak_ref_get (&d->self);

  if (self == NULL)
    return G_SOURCE_REMOVE;

  if (d->result->serial != self->latest_serial ||
      d->result->serial <= self->delivered_serial)
    {
      self->n_dropped++;
      g_debug ("dropped stale result %u (newest job %u)",
               d->result->serial, self->latest_serial);
      return G_SOURCE_REMOVE;
    }

  self->delivered_serial = d->result->serial;
  g_signal_emit (self, signals[RESULT], 0, d->result);
  return G_SOURCE_REMOVE;
}

/* Worker thread: never touches GTK; it only posts to the main context. */
static gpointer
worker_main (gpointer data)
{
  FrSolverThread *self = data;

  g_mutex_lock (&self->mutex);
  for (;;)
    {
      g_autoptr(FrJob) job = NULL;
      FrResult *result;
      gboolean cancelled = FALSE;

      while (!self->quit && self->pending == NULL)
        g_cond_wait (&self->cond, &self->mutex);
      if (self->quit)
        break;

      job = g_steal_pointer (&self->pending);
      self->running_serial = job->serial;
      fr_cancel_reset (self->cancel);
      g_mutex_unlock (&self->mutex);

      result = self->solve (job, self->cancel, &cancelled, self->solve_data);

      g_mutex_lock (&self->mutex);
      self->running_serial = 0;
      if (cancelled || result == NULL)
        {
          self->n_cancelled++;
          g_clear_pointer (&result, fr_result_unref);
          continue;
        }
      if (!self->quit)
        {
          Delivery *d = g_new0 (Delivery, 1);
          GSource *source;

          g_weak_ref_init (&d->self, self);
          d->result = result;
          source = g_idle_source_new ();
          g_source_set_priority (source, G_PRIORITY_DEFAULT);
          g_source_set_callback (source, deliver_cb, d, delivery_free);
          g_source_set_static_name (source, "[foldray] solver result");
          g_source_attach (source, self->main_context);
          g_source_unref (source);
        }
      else
        fr_result_unref (result);
    }
  g_mutex_unlock (&self->mutex);
  return NULL;
}

static void
fr_solver_thread_dispose (GObject *object)
{
  FrSolverThread *self = (FrSolverThread *)object;

  /* Stop the worker at its next check and wait for it: after this no
   * result can be posted. */
  g_mutex_lock (&self->mutex);
  self->quit = TRUE;
  if (self->cancel != NULL)
    fr_cancel_raise (self->cancel);
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->mutex);

  if (self->thread != NULL)
    g_thread_join (g_steal_pointer (&self->thread));

  g_clear_pointer (&self->pending, fr_job_unref);

  G_OBJECT_CLASS (fr_solver_thread_parent_class)->dispose (object);
}

static void
fr_solver_thread_finalize (GObject *object)
{
  FrSolverThread *self = (FrSolverThread *)object;

  if (self->solve_destroy != NULL)
    self->solve_destroy (self->solve_data);
  g_clear_pointer (&self->cancel, fr_cancel_free);
  g_clear_pointer (&self->main_context, g_main_context_unref);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (fr_solver_thread_parent_class)->finalize (object);
}

static void
fr_solver_thread_class_init (FrSolverThreadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fr_solver_thread_dispose;
  object_class->finalize = fr_solver_thread_finalize;

  /**
   * FrSolverThread::result:
   * @result: the newest job's result (owned by the emitter)
   *
   * Emitted on the main context, at most once per job, and only for the
   * newest job submitted.
   */
  signals[RESULT] =
    g_signal_new ("result",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1,
                  FR_TYPE_RESULT | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
fr_solver_thread_init (FrSolverThread *self)
{
  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  self->cancel = fr_cancel_new ();
  self->main_context = g_main_context_ref_thread_default ();
  self->solve = default_solve;
}

/* A solver thread posting to the calling thread's default main context. */
FrSolverThread *
fr_solver_thread_new (void)
{
  return g_object_new (FR_TYPE_SOLVER_THREAD, NULL);
}

/* Replaces the solve (tests use a fake slow one).  Only before the first
 * submit. */
void
fr_solver_thread_set_solve_func (FrSolverThread *self,
                                 FrSolveFunc     func,
                                 gpointer        user_data,
                                 GDestroyNotify  destroy)
{
  g_return_if_fail (FR_IS_SOLVER_THREAD (self));
  g_return_if_fail (func != NULL);
  g_return_if_fail (self->thread == NULL);

  if (self->solve_destroy != NULL)
    self->solve_destroy (self->solve_data);
  self->solve = func;
  self->solve_data = user_data;
  self->solve_destroy = destroy;
}

/* Queues job (which takes its serial now and must not change afterwards),
 * replacing any queued job and cancelling the running one.  Returns the
 * serial.  Never blocks beyond a short lock. */
guint
fr_solver_thread_submit (FrSolverThread *self,
                         FrJob          *job)
{
  g_return_val_if_fail (FR_IS_SOLVER_THREAD (self), 0);
  g_return_val_if_fail (job != NULL, 0);
  g_return_val_if_fail (self->cancel != NULL, 0);

  job->serial = ++self->latest_serial;

  g_mutex_lock (&self->mutex);
  if (self->thread == NULL)
    self->thread = g_thread_new ("foldray-solver", worker_main, self);
  if (self->pending != NULL)
    self->n_cancelled++;   /* replaced before it ran */
  g_clear_pointer (&self->pending, fr_job_unref);
  self->pending = fr_job_ref (job);
  if (self->running_serial != 0)
    fr_cancel_raise (self->cancel);
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->mutex);

  return job->serial;
}

/* TRUE while the newest job's result has not come back yet. */
gboolean
fr_solver_thread_is_busy (FrSolverThread *self)
{
  g_return_val_if_fail (FR_IS_SOLVER_THREAD (self), FALSE);
  return self->latest_serial != self->delivered_serial;
}

guint
fr_solver_thread_get_latest_serial (FrSolverThread *self)
{
  g_return_val_if_fail (FR_IS_SOLVER_THREAD (self), 0);
  return self->latest_serial;
}

/* Results that came back after a newer job was submitted. */
guint
fr_solver_thread_get_n_dropped (FrSolverThread *self)
{
  g_return_val_if_fail (FR_IS_SOLVER_THREAD (self), 0);
  return self->n_dropped;
}

/* Jobs replaced in the queue or stopped by their cancel flag. */
guint
fr_solver_thread_get_n_cancelled (FrSolverThread *self)
{
  guint n;

  g_return_val_if_fail (FR_IS_SOLVER_THREAD (self), 0);

  g_mutex_lock (&self->mutex);
  n = self->n_cancelled;
  g_mutex_unlock (&self->mutex);
  return n;
}
