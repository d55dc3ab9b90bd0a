/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-model-memory"

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "fr-memory.h"
#include "fr-model-memory.h"

/* FR_MODEL_MEMORY_BYTES_PER_NODE, value by value (float32 each):
 *   4  the scene's velocity (fr-scene.c)
 *   4  a drag's next velocity, rasterised in the worker while the scene
 *      still holds the last (fr-raster-worker.c)
 *   8  the result's T shown and the next one's (fr-job.c, fr-fold-job.c)
 *   8  the solver's T in double, while the result's float copy is made
 *   8  the canvas's velocity and T textures, which a software renderer
 *      (llvmpipe) keeps in this process
 *   4  the background grid a drawn model is rasterised from
 *   4  Folds mode's speed grid of a constant F over a model with
 *      impermeable obstacles (fr_scene_get_constant_speed)
 * The solve's own grids come on top and are checked by the solver when it
 * runs; a refused solve is a message, not a crash.  So do the solves a
 * result keeps for the next job (fr-kept-solve.c), which it keeps only
 * while the memory left holds another solve beside them. */
G_STATIC_ASSERT (FR_MODEL_MEMORY_BYTES_PER_NODE == 4 + 4 + 8 + 8 + 8 + 4 + 4);

/* Bytes the app needs to show model: per node of its grid, and a
 * background on a grid of its own (already read) is held as well. */
double
fr_model_memory_need (const FrModel *model)
{
  double need;

  g_return_val_if_fail (model != NULL, 0.0);

  need = FR_MODEL_MEMORY_BYTES_PER_NODE * (double) model->grid.nx * (double) model->grid.nz;
  if (model->background != NULL && !fr_model_grids_equal (&model->grid, &model->background->grid))
    need += (double) g_bytes_get_size (model->background->values);
  return need;
}

/* FALSE, with G_IO_ERROR_NO_SPACE and fr_memory_check's message, when the
 * app could not hold model in the memory this process may use (the
 * machine's, its cgroup's limit, ulimit -v or -d). */
gboolean
fr_model_memory_check (const FrModel  *model,
                       GError        **error)
{
  g_autofree char *what = NULL;
  fr_error err = { 0 };

  g_return_val_if_fail (model != NULL, FALSE);

  /* Translators: the subject of "… needs about N GB of memory, this
   * machine has M GB"; the numbers are the grid's nodes along x and z. */
  what = g_strdup_printf (_("A %zu × %zu grid"), model->grid.nx, model->grid.nz);
  if (fr_memory_check (fr_model_memory_need (model), what, &err) == FR_OK)
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, err.message);
  return FALSE;
}
