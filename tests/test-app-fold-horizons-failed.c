/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A fold solve whose folded horizons cannot be traced (here a Δ so large,
 * as a scene file may give it, that a level k·Δ is not finite) keeps its
 * T, so the isochrons still show, and says why the horizons are missing:
 * the result keeps the tracer's reason, and the window's status line
 * (fr_fold_result_horizons_failure) says it, in the app's language.  It
 * was a g_warning on the terminal, and the status bar counted no level. */
#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fr-fold-job.h"
#include "fr-fold-state.h"
#include "fr-i18n.h"
#include "fr-scene.h"
#include "fr-solver-i18n.h"
#include "test-catalogue.h"
#include "test-fold-submit.h"

static const FrPoint horizon[] = { { 0.0, 1.0 }, { 1.0, 0.7 }, { 2.0, 1.1 }, { 3.0, 0.9 } };

/* A 3 × 2 model of speed 1. */
static void
set_model (FrScene *scene)
{
  fr_grid g = fr_grid_2d (31, 21, 0.1, 0.1, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = 1.0f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "horizons-failed", &g, bytes, NULL));
}

static FrFoldState *
make_fold (double delta,
           int    count)
{
  FrFoldState *fold = fr_fold_state_new ();

  fr_fold_state_set_horizon (fold, horizon, G_N_ELEMENTS (horizon));
  fr_fold_state_set_speed (fold, TRUE, 1.0);
  fr_fold_state_set_grid_min_speed (fold, 1.0);
  fr_fold_state_set_backend (fold, FR_FOLD_CPU);
  fr_fold_state_set_levels (fold, delta, count);
  return fold;
}

/* T solved and kept, no horizon, and the reason on the result. */
static void
assert_failed (FrResult *result)
{
  size_t count = fr_grid_count (&result->job->grid);
  size_t finite = 0;

  g_assert_true (result->ok);
  g_assert_nonnull (result->time);
  for (size_t i = 0; i < count; i++)
    finite += isfinite (result->time[i]);
  g_assert_cmpuint (finite, ==, count);
  g_assert_cmpfloat (result->time_max, >, 0.5);
  g_assert_nonnull (result->horizons);
  g_assert_cmpuint (result->horizons->len, ==, 0);
  g_assert_cmpstr (result->horizons_error, ==, "contour level 2 of 2 is not finite");
}

/* 1e308: the second level, 2e308, is +inf in a double. */
static void
test_solve (void)
{
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = make_fold (1e308, 2);
  g_autoptr(FrResult) result = NULL;
  g_autofree char *status = NULL;

  set_model (scene);
  result = test_fold_submit (fold, scene, NULL, NULL);
  assert_failed (result);
  status = fr_fold_result_horizons_failure (result);
  g_assert_cmpstr (status, ==, "The folded horizons could not be drawn: contour level 2 of 2 is not finite");
}

/* Contoured again from a good solve: the same; and a good Δ after it
 * draws them again, with no reason left over. */
static void
test_recontour (void)
{
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = make_fold (0.2, 3);
  g_autoptr(FrResult) solved = NULL, failed = NULL, again = NULL;

  set_model (scene);
  solved = test_fold_submit (fold, scene, NULL, NULL);
  g_assert_true (solved->ok);
  g_assert_cmpuint (solved->horizons->len, >, 0);
  g_assert_null (solved->horizons_error);
  g_assert_null (fr_fold_result_horizons_failure (solved));

  fr_fold_state_set_levels (fold, 1e308, 2);
  failed = test_fold_submit (fold, scene, solved, NULL);
  g_assert_true (fr_fold_job_reuses_solve (failed->job));
  assert_failed (failed);

  fr_fold_state_set_levels (fold, 0.25, 3);
  again = test_fold_submit (fold, scene, failed, NULL);
  g_assert_true (fr_fold_job_reuses_solve (again->job));
  g_assert_cmpuint (again->horizons->len, >, 0);
  g_assert_null (again->horizons_error);
  g_assert_null (fr_fold_result_horizons_failure (again));
}

/* In Spanish and Bokmål, the line and its reason both. */
static void
test_translated (void)
{
  static const struct { const char *language, *says; } cases[] = {
    { "es", "No se pudieron dibujar los horizontes plegados: el nivel de contorno 2 de 2 no es finito" },
    { "nb", "De foldede horisontene kunne ikke tegnes: konturnivå 2 av 2 er ikke endelig" },
  };
  TestCatalogue saved;

  test_catalogue_begin (&saved);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(FrScene) scene = fr_scene_new ();
      g_autoptr(FrFoldState) fold = make_fold (1e308, 2);
      g_autoptr(FrResult) result = NULL;
      g_autofree char *status = NULL;

      test_catalogue_use (cases[i].language);
      set_model (scene);
      result = test_fold_submit (fold, scene, NULL, NULL);
      status = fr_fold_result_horizons_failure (result);
      g_assert_cmpstr (status, ==, cases[i].says);
    }
  test_catalogue_end (&saved);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/fold-horizons-failed/solve", test_solve);
  g_test_add_func ("/app/fold-horizons-failed/recontour", test_recontour);
  g_test_add_func ("/app/fold-horizons-failed/translated", test_translated);
  return g_test_run ();
}
