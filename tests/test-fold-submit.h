/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A fold solved as the window submits it (fr-window.c's submit_job): the
 * job made from the fold state and the scene now, reusing last's T when
 * only Δ, Count or the characteristics' points tell them apart (last
 * NULL: a fresh solve), on one thread. */
#pragma once

#include <glib.h>

#include "fr-fold-job.h"
#include "fr-fold-state.h"
#include "fr-scene.h"

/* The result, which must have solved; *reused (may be NULL) says whether
 * it took last's T. */
static inline FrResult *
test_fold_submit (FrFoldState *fold,
                  FrScene     *scene,
                  FrResult    *last,
                  gboolean    *reused)
{
  g_autoptr(FrJob) job = fr_fold_state_make_job (fold, scene);
  gboolean cancelled = TRUE, took;
  FrResult *result;

  job->threads = 1;
  took = fr_fold_job_reuse (job, last);
  if (reused != NULL)
    *reused = took;
  result = fr_fold_job_run (job, NULL, &cancelled);
  g_assert_false (cancelled);
  g_assert_nonnull (result);
  g_assert_true (result->ok);
  return result;
}
