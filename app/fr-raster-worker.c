/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-raster-worker"

#include "config.h"

#include "fr-raster-worker.h"

/* One rasterisation.  The worker thread writes the results and sets done
 * under lock; everything else is the main thread's. */
typedef struct
{
  gatomicrefcount  ref;
  FrRasterWorker  *worker;     /* NULL once dropped or taken by finish */
  FrRasteriseFunc  rasterise;
  FrModel         *model;      /* the snapshot it rasterises */
  GBytes          *velocity;
  char            *warning;
  GError          *error;
  GMutex           lock;
  GCond            cond;
  gboolean         done;
} Run;

struct _FrRasterWorker
{
  FrRasteriseFunc rasterise;
  FrRasterLanded  landed;
  gpointer        user_data;
  GThreadPool    *pool;        /* one thread, made at the first push */
  Run            *running;     /* handed to the pool, not yet landed */
  FrModel        *waiting;     /* the newest model pushed while one ran */
};

static Run *
run_new (FrRasterWorker *worker,
         FrModel        *model)
{
  Run *run = g_new0 (Run, 1);

  g_atomic_ref_count_init (&run->ref);
  run->worker = worker;
  run->rasterise = worker->rasterise;
  run->model = model;
  g_mutex_init (&run->lock);
  g_cond_init (&run->cond);
  return run;
}

static Run *
run_ref (Run *run)
{
  g_atomic_ref_count_inc (&run->ref);
  return run;
}

static void
run_unref (gpointer data)
{
  Run *run = data;

  if (!g_atomic_ref_count_dec (&run->ref))
    return;
  fr_model_free (run->model);
  g_clear_pointer (&run->velocity, g_bytes_unref);
  g_free (run->warning);
  g_clear_error (&run->error);
  g_mutex_clear (&run->lock);
  g_cond_clear (&run->cond);
  g_free (run);
}

/* Waits for the worker thread to finish run. */
static void
run_wait (Run *run)
{
  g_mutex_lock (&run->lock);
  while (!run->done)
    g_cond_wait (&run->cond, &run->lock);
  g_mutex_unlock (&run->lock);
}

static void start (FrRasterWorker *worker, FrModel *model);

/* Main thread: a run's result, posted by the worker thread. */
static gboolean
land_cb (gpointer data)
{
  Run *run = data;
  FrRasterWorker *worker = run->worker;

  if (worker == NULL)
    return G_SOURCE_REMOVE;   /* dropped, or finish took it */
  g_assert (worker->running == run);
  run->worker = NULL;
  worker->running = NULL;
  /* The next one runs while the main thread shows this one. */
  if (worker->waiting != NULL)
    start (worker, g_steal_pointer (&worker->waiting));
  worker->landed (run->model, run->velocity, run->warning, run->error, worker->user_data);
  run_unref (run);   /* worker->running's reference */
  return G_SOURCE_REMOVE;
}

/* Worker thread. */
static void
rasterise_in_thread (gpointer data,
                     gpointer pool_data)
{
  Run *run = data;
  g_autofree char *warning = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *velocity = run->rasterise (run->model, &warning, &error);

  g_mutex_lock (&run->lock);
  run->velocity = velocity;
  run->warning = g_steal_pointer (&warning);
  run->error = g_steal_pointer (&error);
  run->done = TRUE;
  g_cond_signal (&run->cond);
  g_mutex_unlock (&run->lock);
  /* The pool's reference passes to the idle. */
  g_idle_add_full (G_PRIORITY_DEFAULT, land_cb, run, run_unref);
}

static void
start (FrRasterWorker *worker,
       FrModel        *model)
{
  g_autoptr(GError) error = NULL;

  g_assert (worker->running == NULL);
  if (worker->pool == NULL)
    {
      worker->pool = g_thread_pool_new (rasterise_in_thread, NULL, 1, TRUE, &error);
      if (worker->pool == NULL)
        {
          /* No thread to be had: rasterise here, as before. */
          Run *run = run_new (worker, model);

          g_warning ("rasterising on the main thread: %s", error->message);
          run->worker = NULL;   /* until it is worker->running */
          rasterise_in_thread (run_ref (run), NULL);
          run->worker = worker;
          worker->running = run;
          return;
        }
    }
  worker->running = run_new (worker, model);
  g_thread_pool_push (worker->pool, run_ref (worker->running), NULL);
}

/* rasterise runs in the worker thread (and in finish); landed is called
 * on the main thread for each result that lands. */
FrRasterWorker *
fr_raster_worker_new (FrRasteriseFunc rasterise,
                      FrRasterLanded  landed,
                      gpointer        user_data)
{
  FrRasterWorker *worker;

  g_return_val_if_fail (rasterise != NULL && landed != NULL, NULL);

  worker = g_new0 (FrRasterWorker, 1);
  worker->rasterise = rasterise;
  worker->landed = landed;
  worker->user_data = user_data;
  return worker;
}

/* Drops what is waiting or running, and waits for the thread to end. */
void
fr_raster_worker_free (FrRasterWorker *worker)
{
  if (worker == NULL)
    return;
  fr_raster_worker_drop (worker);
  if (worker->pool != NULL)
    g_thread_pool_free (worker->pool, FALSE, TRUE);
  g_free (worker);
}

/* Rasterises a copy of model in the worker thread, after the one running. */
void
fr_raster_worker_push (FrRasterWorker *worker,
                       const FrModel  *model)
{
  g_return_if_fail (worker != NULL);
  g_return_if_fail (model != NULL);

  if (worker->running == NULL)
    start (worker, fr_model_copy (model));
  else
    {
      fr_model_free (worker->waiting);
      worker->waiting = fr_model_copy (model);
    }
}

/* Forgets every model pushed: nothing more lands (the model was replaced
 * or rasterised on the main thread). */
void
fr_raster_worker_drop (FrRasterWorker *worker)
{
  g_return_if_fail (worker != NULL);

  g_clear_pointer (&worker->waiting, fr_model_free);
  if (worker->running != NULL)
    {
      worker->running->worker = NULL;
      g_clear_pointer (&worker->running, run_unref);
    }
}

/* Brings the newest model pushed to its result now, on the main thread:
 * waits for the running one when it is the newest, else rasterises the
 * newest here and drops the running one.  Nothing lands after it.  FALSE
 * when nothing was pending (the outputs are left alone); else velocity
 * (NULL on error), warning and error as fr_model_rasterise gives them. */
gboolean
fr_raster_worker_finish (FrRasterWorker  *worker,
                         GBytes         **velocity,
                         char           **warning,
                         GError         **error)
{
  Run *run;

  g_return_val_if_fail (worker != NULL, FALSE);
  g_return_val_if_fail (velocity != NULL && warning != NULL, FALSE);

  if (worker->waiting != NULL)
    {
      g_autoptr(FrModel) model = g_steal_pointer (&worker->waiting);

      fr_raster_worker_drop (worker);
      *velocity = worker->rasterise (model, warning, error);
      return TRUE;
    }
  if (worker->running == NULL)
    return FALSE;
  run = g_steal_pointer (&worker->running);
  run->worker = NULL;
  run_wait (run);
  *velocity = run->velocity != NULL ? g_bytes_ref (run->velocity) : NULL;
  *warning = g_strdup (run->warning);
  if (run->error != NULL)
    g_propagate_error (error, g_error_copy (run->error));
  run_unref (run);
  return TRUE;
}
