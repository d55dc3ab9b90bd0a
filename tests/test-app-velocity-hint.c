/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A scene whose layer's gradient overflows a float once rasterised (the
 * velocity +inf below some depth) loads, and its solve is refused, as
 * before; the refusal the app shows now names the scene's settings to
 * check, as foldray-cli --scene does (fr_model_check_velocity, shared by
 * both), where it gave the solver's words alone ("velocity holds an
 * infinite value at node (ix=0, iz=9)").  The SPR solve and a fold that
 * folds through the model's velocity both say it, through the app's
 * solver thread; in Spanish and Bokmål too. */
#include <locale.h>
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fr-fold-state.h"
#include "fr-i18n.h"
#include "fr-scene.h"
#include "fr-solver-i18n.h"
#include "fr-solver-thread.h"
#include "test-catalogue.h"

/* 21 × 11 nodes at 0.1, a layer from z = 0.5 down whose dv/dz of 1e39
 * passes float's largest, 3.4e38, from z = 0.9 down. */
static const char scene_json[] =
  "{\"format\": \"foldray-scene\", \"version\": 1, \"title\": \"overflow\", "
  "\"grid\": {\"nx\": 21, \"nz\": 11, \"spacing\": [0.1, 0.1]}, "
  "\"layers\": [{\"velocity\": 1.5, \"dvdz\": 1e39, \"interface\": [[0, 0.5], [2, 0.5]]}], "
  "\"sources\": [[0, 0]]}";

static const char says[] =
  "velocity holds an infinite value at node (ix=0, iz=9) once rasterised; check the grid's "
  "“spacing” and the layers' “velocity”, “dvdz” and “dvdx”";

static FrScene *
load_scene (void)
{
  g_autoptr(FrSceneDoc) doc = NULL;
  g_autoptr(GError) error = NULL;
  FrScene *scene = fr_scene_new ();

  doc = fr_scene_doc_parse (scene_json, -1, "overflow.json", g_get_tmp_dir (), &error);
  g_assert_no_error (error);
  g_assert_true (fr_scene_load_doc (scene, doc, &error));
  g_assert_no_error (error);
  return scene;
}

static void
result_cb (FrSolverThread *solver,
           FrResult       *result,
           FrResult      **out)
{
  g_clear_pointer (out, fr_result_unref);
  *out = fr_result_ref (result);
}

/* job's result from a solver thread running the app's solve. */
static FrResult *
solve (FrJob *job)
{
  FrSolverThread *solver = fr_solver_thread_new ();
  FrResult *result = NULL;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  job->threads = 1;
  g_signal_connect (solver, "result", G_CALLBACK (result_cb), &result);
  fr_solver_thread_submit (solver, job);
  while (fr_solver_thread_is_busy (solver) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (fr_solver_thread_is_busy (solver));
  g_assert_finalize_object (solver);
  g_assert_nonnull (result);
  return result;
}

/* A fold from a horizon, at the model's velocity (or at a constant
 * speed, which reads no velocity). */
static FrJob *
make_fold_job (FrScene  *scene,
               gboolean  from_grid)
{
  static const FrPoint horizon[] = { { 0.0, 0.2 }, { 2.0, 0.2 } };
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();

  fr_fold_state_set_horizon (fold, horizon, G_N_ELEMENTS (horizon));
  fr_fold_state_set_speed (fold, from_grid, 1.0);
  fr_fold_state_set_grid_min_speed (fold, 1.5);
  fr_fold_state_set_backend (fold, FR_FOLD_CPU);
  return fr_fold_state_make_job (fold, scene);
}

static void
test_spr (void)
{
  g_autoptr(FrScene) scene = load_scene ();
  g_autoptr(FrJob) job = fr_scene_make_job (scene, fr_radius_square (1), FR_SPR_CPU);
  g_autoptr(FrResult) result = solve (job);

  g_assert_false (result->ok);
  g_assert_cmpstr (result->error, ==, says);
}

static void
test_fold (void)
{
  g_autoptr(FrScene) scene = load_scene ();
  g_autoptr(FrJob) job = make_fold_job (scene, TRUE);
  g_autoptr(FrJob) constant = make_fold_job (scene, FALSE);
  g_autoptr(FrResult) result = solve (job);
  g_autoptr(FrResult) solved = solve (constant);

  g_assert_false (result->ok);
  g_assert_cmpstr (result->error, ==, says);
  /* At a constant speed the model's velocity is not read: it folds. */
  g_assert_true (solved->ok);
  g_assert_null (solved->error);
}

/* The hint in the app's language; the solver's words before it stay as
 * the solver gives them. */
static void
test_translated (void)
{
  static const struct { const char *language, *hint; } cases[] = {
    { "es", " una vez rasterizada; revise el «spacing» de la malla y el «velocity», el «dvdz» y "
            "el «dvdx» de las capas" },
    { "nb", " etter rastreringen; kontroller «spacing» for gitteret og «velocity», «dvdz» og "
            "«dvdx» for lagene" },
  };
  TestCatalogue saved;

  test_catalogue_begin (&saved);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(FrScene) scene = load_scene ();
      g_autoptr(FrJob) job = make_fold_job (scene, TRUE);
      g_autoptr(FrResult) result = NULL;
      g_autofree char *want = NULL;

      test_catalogue_use (cases[i].language);
      result = solve (job);
      want = g_strconcat ("velocity holds an infinite value at node (ix=0, iz=9)", cases[i].hint, NULL);
      g_assert_cmpstr (result->error, ==, want);
    }
  test_catalogue_end (&saved);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/velocity-hint/spr", test_spr);
  g_test_add_func ("/app/velocity-hint/fold", test_fold);
  g_test_add_func ("/app/velocity-hint/translated", test_translated);
  return g_test_run ();
}
