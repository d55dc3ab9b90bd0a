/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-kept-solve"

#include "config.h"

#include <math.h>
#include <string.h>

#include "fr-device.h"
#include "fr-kept-solve.h"
#include "fr-memory.h"

/* Bytes a kept solve of grid holds, node by node: T in double (8) and in
 * single precision (4), the predecessor (4) and the rays' copy of the
 * velocity (4).  The rays' stencils are a few thousand offsets and left
 * out. */
gsize
fr_kept_solve_size (const fr_grid *grid)
{
  g_return_val_if_fail (grid != NULL, 0);

  return fr_grid_count (grid) * (sizeof (double) + sizeof (float) + sizeof (int32_t) + sizeof (float));
}

/* Whether a solve of bytes may be kept beside held bytes already kept:
 * within FR_KEPT_SOLVES_MAX_BYTES, and only while the memory this process
 * may still use leaves room for the next solve beside it (twice its
 * size; the solve's own check refuses one that does not fit, but a kept
 * solve should never be the reason). */
gboolean
fr_kept_solve_fits (gsize held,
                    gsize bytes)
{
  double available;

  if (held > FR_KEPT_SOLVES_MAX_BYTES || bytes > FR_KEPT_SOLVES_MAX_BYTES - held)
    return FALSE;
  available = fr_memory_available ();
  return available <= 0.0 || available >= 2.0 * (double) bytes;
}

static void
kept_solve_clear (gpointer data)
{
  FrKeptSolve *solve = data;

  g_free (solve->sources);
  g_free (solve->time);
  fr_spr_result_clear (&solve->res);
}

/* A kept solve that takes res's contents (res is left empty), solved from
 * n_sources sources, with T in single precision beside; a device copy of
 * T still in res is freed.  NULL, res untouched, where memory for that
 * copy is short. */
FrKeptSolve *
fr_kept_solve_new (const double  *sources,
                   guint          n_sources,
                   fr_spr_result *res)
{
  FrKeptSolve *solve;
  size_t count;
  float *time;
  float time_max = 0.0f;

  g_return_val_if_fail (n_sources > 0 && sources != NULL, NULL);
  g_return_val_if_fail (res != NULL && res->time != NULL, NULL);

  count = fr_grid_count (&res->grid);
  if ((time = g_try_new (float, count)) == NULL)
    return NULL;
  for (size_t i = 0; i < count; i++)
    {
      time[i] = (float) res->time[i];
      if (isfinite (time[i]) && time[i] > time_max)
        time_max = time[i];
    }
  solve = g_atomic_rc_box_new0 (FrKeptSolve);
  solve->sources = g_memdup2 (sources, sizeof (double) * 2 * n_sources);
  solve->n_sources = n_sources;
  solve->time = time;
  solve->time_max = time_max;
  solve->res = *res;
  memset (res, 0, sizeof *res);
  g_clear_pointer (&solve->res.device_time, fr_spr_device_free);
  solve->bytes = fr_kept_solve_size (&solve->res.grid);
  return solve;
}

FrKeptSolve *
fr_kept_solve_ref (FrKeptSolve *solve)
{
  g_return_val_if_fail (solve != NULL, NULL);
  return g_atomic_rc_box_acquire (solve);
}

/* NULL is let be: a result's solves hold it for a shot not kept. */
void
fr_kept_solve_unref (FrKeptSolve *solve)
{
  if (solve != NULL)
    g_atomic_rc_box_release_full (solve, kept_solve_clear);
}

/* Whether solve was solved from exactly these sources, in this order (a
 * job lists them in the scene's order, which moves none without an edit). */
gboolean
fr_kept_solve_is_from (const FrKeptSolve *solve,
                       const double      *sources,
                       guint              n_sources)
{
  g_return_val_if_fail (solve != NULL, FALSE);

  return solve->n_sources == n_sources &&
         memcmp (solve->sources, sources, sizeof (double) * 2 * n_sources) == 0;
}

/* Bytes a kept fold solve of grid holds, node by node: T in double (8),
 * the characteristics' copy of the speed (4) and the frozen-node mask
 * (1). */
gsize
fr_kept_fold_size (const fr_grid *grid)
{
  g_return_val_if_fail (grid != NULL, 0);

  return fr_grid_count (grid) * (sizeof (double) + sizeof (float) + sizeof (guint8));
}

static void
kept_fold_clear (gpointer data)
{
  FrKeptFold *fold = data;

  fr_fold_result_clear (&fold->res);
}

/* A kept fold solve that takes res's contents (res is left empty); a
 * device copy of T still in res is freed. */
FrKeptFold *
fr_kept_fold_new (fr_fold_result *res)
{
  FrKeptFold *fold;

  g_return_val_if_fail (res != NULL && res->time != NULL, NULL);

  fold = g_atomic_rc_box_new0 (FrKeptFold);
  fold->res = *res;
  memset (res, 0, sizeof *res);
  fr_device_free (fr_fold_result_take_device_time (&fold->res));
  fold->bytes = fr_kept_fold_size (&fold->res.grid);
  return fold;
}

/* NULL is let be, as for fr_kept_solve_unref. */
void
fr_kept_fold_unref (FrKeptFold *fold)
{
  if (fold != NULL)
    g_atomic_rc_box_release_full (fold, kept_fold_clear);
}
