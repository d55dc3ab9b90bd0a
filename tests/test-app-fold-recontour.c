/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A fold job that differs from the last one only in the folded horizons'
 * spacing Δ, their Count or the characteristics' points contours that
 * one's T again, and traces the characteristics from the solve kept,
 * instead of solving (fr_fold_job_reuse, as the window does), sharing that T;
 * anything the solve reads solves again.  The horizons, rays and exports it gives are those
 * of a fresh solve with that Δ and Count. */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "fr-fold-job.h"
#include "fr-fold-state.h"
#include "fr-kept-solve.h"
#include "fr-scene.h"
#include "test-fold-submit.h"

static const FrPoint horizon[] = { { 0.0, 1.0 }, { 1.0, 0.7 }, { 2.0, 1.1 }, { 3.0, 0.9 } };

/* A 3 × 2 model in two layers (1 above z = 1, 1.5 below). */
static void
set_model (FrScene *scene)
{
  fr_grid g = fr_grid_2d (61, 41, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = i / g.nx < 20 ? 1.0f : 1.5f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "recontour", &g, bytes, NULL));
}

static FrFoldState *
make_fold (void)
{
  FrFoldState *fold = fr_fold_state_new ();

  fr_fold_state_set_horizon (fold, horizon, G_N_ELEMENTS (horizon));
  fr_fold_state_set_speed (fold, TRUE, 1.0);
  fr_fold_state_set_grid_min_speed (fold, 1.0);
  fr_fold_state_set_psi_a (fold, 0.3, -0.2);
  fr_fold_state_set_backend (fold, FR_FOLD_CPU);
  fr_fold_state_set_levels (fold, 0.2, 3);
  fr_fold_state_add_ray_point (fold, 2.0, 0.2);
  fr_fold_state_add_ray_point (fold, 0.6, 1.8);
  return fold;
}

static void
assert_lines_equal (GPtrArray *a,
                    GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      GArray *la = g_ptr_array_index (a, i), *lb = g_ptr_array_index (b, i);

      g_assert_cmpuint (la->len, ==, lb->len);
      for (guint p = 0; p < la->len; p++)
        g_assert_cmpfloat_with_epsilon (g_array_index (la, double, p), g_array_index (lb, double, p), 1e-12);
    }
}

static char *
export_text (FrResult   *result,
             gboolean    vtp,
             const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (fr_fold_result_write_horizons (result, vtp, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

/* Δ 0.2 → 0.15 and Count 3 → 5: no solve, and the same horizons, rays,
 * CSV and .vtp as a fresh solve at 0.15 and 5. */
static void
test_levels_recontour (void)
{
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = make_fold ();
  g_autoptr(FrResult) solved = NULL, again = NULL, fresh = NULL, again2 = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-recontour-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "h.csv", NULL);
  g_autofree char *vtp = g_build_filename (dir, "h.vtp", NULL);
  size_t count;
  gboolean reused = TRUE;

  set_model (scene);
  count = fr_grid_count (fr_scene_get_grid (scene));
  solved = test_fold_submit (fold, scene, NULL, &reused);
  g_assert_false (reused);
  g_assert_cmpuint (solved->horizons->len, >, 0);

  fr_fold_state_set_levels (fold, 0.15, 5);
  again = test_fold_submit (fold, scene, solved, &reused);
  g_assert_true (reused);
  g_assert_true (again->job->fold.solved == solved);
  g_assert_true (again->time == solved->time);   /* shared, not copied */
  fresh = test_fold_submit (fold, scene, NULL, NULL);
  g_assert_cmpmem (again->time, count * sizeof (float), fresh->time, count * sizeof (float));
  g_assert_cmpfloat (again->time_max, ==, fresh->time_max);
  g_assert_cmpuint (again->horizons->len, >, solved->horizons->len);
  assert_lines_equal (again->horizons, fresh->horizons);
  g_assert_cmpmem (again->horizon_levels->data, again->horizon_levels->len * sizeof (int),
                   fresh->horizon_levels->data, fresh->horizon_levels->len * sizeof (int));
  assert_lines_equal (again->rays, fresh->rays);
  g_assert_cmpstr (again->backend, ==, fresh->backend);
  g_assert_cmpstr (again->method, ==, fresh->method);
  {
    g_autofree char *a = export_text (again, FALSE, csv);
    g_autofree char *b = export_text (fresh, FALSE, csv);

    g_assert_cmpstr (a, ==, b);
    g_assert_nonnull (strstr (a, ",5,0.75,"));   /* k = 5, T = 5 × 0.15 */
  }
  {
    g_autofree char *a = export_text (again, TRUE, vtp);
    g_autofree char *b = export_text (fresh, TRUE, vtp);

    g_assert_cmpstr (a, ==, b);
  }

  /* Reusing a reused result reuses the solve itself: nothing chains. */
  fr_fold_state_set_levels (fold, 0.1, 2);
  again2 = test_fold_submit (fold, scene, again, &reused);
  g_assert_true (reused);
  g_assert_true (again2->job->fold.solved == solved);
  g_assert_null (solved->job->fold.solved);

  g_remove (csv);
  g_remove (vtp);
  g_rmdir (dir);
}

/* The reused T is the earlier solve's, not solved again: T doubled in
 * the solved result gives, at Δ, the horizons a fresh solve gives at Δ/2. */
static void
test_levels_no_solve (void)
{
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = make_fold ();
  g_autoptr(FrResult) solved = NULL, again = NULL, fresh = NULL;
  size_t count;

  set_model (scene);
  count = fr_grid_count (fr_scene_get_grid (scene));
  solved = test_fold_submit (fold, scene, NULL, NULL);
  for (size_t i = 0; i < count; i++)
    solved->time[i] *= 2.0f;
  solved->time_max *= 2.0f;

  fr_fold_state_set_levels (fold, 0.3, 4);
  again = test_fold_submit (fold, scene, solved, NULL);
  fr_fold_state_set_levels (fold, 0.15, 4);
  fresh = test_fold_submit (fold, scene, NULL, NULL);
  assert_lines_equal (again->horizons, fresh->horizons);
}

/* Whatever the solve reads solves again; Δ, Count, the characteristics'
 * points and an undo of them do not. */
static void
test_what_solves (void)
{
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = make_fold ();
  g_autoptr(FrResult) solved = NULL;
  FrPoint moved[G_N_ELEMENTS (horizon)];
  fr_fold_method method;
  gboolean reused;

  set_model (scene);
  solved = test_fold_submit (fold, scene, NULL, NULL);

#define EXPECT_REUSE(want)                                                   \
  G_STMT_START {                                                             \
    g_autoptr(FrResult) r = test_fold_submit (fold, scene, solved, &reused); \
    (void) r;                       /* held only to be freed (clang warns) */ \
    g_assert_cmpint (reused, ==, (want));                                    \
  } G_STMT_END

  fr_fold_state_begin_edit (fold);
  fr_fold_state_set_levels (fold, 0.25, 3);
  fr_fold_state_end_edit (fold, "Δ");
  EXPECT_REUSE (TRUE);
  fr_fold_state_set_levels (fold, 0.25, 7);
  EXPECT_REUSE (TRUE);
  fr_fold_state_set_bands (fold, TRUE);
  EXPECT_REUSE (TRUE);
  g_assert_true (fr_undo_undo (fr_fold_state_get_undo (fold)));
  EXPECT_REUSE (TRUE);

  fr_fold_state_set_psi_a (fold, 0.3, -0.25);
  EXPECT_REUSE (FALSE);
  fr_fold_state_set_psi_a (fold, 0.3, -0.2);
  EXPECT_REUSE (TRUE);

  memcpy (moved, horizon, sizeof horizon);
  moved[1].z += 0.05;
  fr_fold_state_set_horizon (fold, moved, G_N_ELEMENTS (moved));
  EXPECT_REUSE (FALSE);
  fr_fold_state_set_horizon (fold, horizon, G_N_ELEMENTS (horizon));
  EXPECT_REUSE (TRUE);

  method = fr_fold_state_get_method (fold);
  fr_fold_state_set_method (fold, method == FR_FOLD_LAS ? FR_FOLD_SOLAS : FR_FOLD_LAS);
  EXPECT_REUSE (FALSE);
  fr_fold_state_set_method (fold, method);
  fr_fold_state_set_backend (fold, FR_FOLD_BACKEND_AUTO);
  EXPECT_REUSE (FALSE);
  fr_fold_state_set_backend (fold, FR_FOLD_CPU);
  fr_fold_state_set_speed (fold, FALSE, 1.0);
  EXPECT_REUSE (FALSE);
  fr_fold_state_set_speed (fold, TRUE, 1.0);
  EXPECT_REUSE (TRUE);
  /* A characteristic's point added: traced from the solve kept. */
  fr_fold_state_add_ray_point (fold, 1.0, 1.0);
  EXPECT_REUSE (TRUE);

  /* The model: the same velocities again are a new model all the same. */
  fr_fold_state_clear_ray_points (fold);
  fr_fold_state_add_ray_point (fold, 2.0, 0.2);
  fr_fold_state_add_ray_point (fold, 0.6, 1.8);
  EXPECT_REUSE (TRUE);
  set_model (scene);
  EXPECT_REUSE (FALSE);

  /* A failed solve or a mode's other result gives nothing to reuse. */
  {
    g_autoptr(FrJob) job = fr_fold_state_make_job (fold, scene);

    g_assert_false (fr_fold_job_reuse (job, NULL));
    g_assert_null (job->fold.solved);
  }
#undef EXPECT_REUSE
}

/* Characteristics' points added, moved and removed: no solve, T shared,
 * and each characteristic point by point a fresh solve's; it starts on
 * the horizon and ends at its point.  Without the solve kept (memory),
 * other points solve again and the same points still take T. */
static void
test_points_traced (void)
{
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = make_fold ();
  g_autoptr(FrResult) solved = NULL, again = NULL, fresh = NULL, again2 = NULL, fresh2 = NULL;
  gboolean reused = FALSE;

  set_model (scene);
  solved = test_fold_submit (fold, scene, NULL, &reused);
  g_assert_false (reused);
  g_assert_nonnull (solved->kept_fold);
  g_assert_cmpuint (solved->kept_fold->bytes, ==, 61 * 41 * 13);
  g_assert_null (solved->kept_fold->res.device_time);

  fr_fold_state_add_ray_point (fold, 2.7, 0.3);
  fr_fold_state_add_ray_point (fold, 1.3, 1.9);
  again = test_fold_submit (fold, scene, solved, &reused);
  g_assert_true (reused);
  g_assert_true (again->time == solved->time);
  g_assert_null (again->kept_fold);
  g_assert_cmpuint (again->rays->len, ==, 4);
  fresh = test_fold_submit (fold, scene, NULL, NULL);
  assert_lines_equal (again->rays, fresh->rays);
  for (guint r = 0; r < again->rays->len; r++)
    {
      GArray *ray = g_ptr_array_index (again->rays, r);
      const double *xz = (const double *) ray->data;
      const guint n = ray->len / 2;

      g_assert_cmpuint (n, >=, 2);
      g_assert_cmpfloat_with_epsilon (xz[2 * n - 2], again->job->receivers[2 * r], 1e-9);
      g_assert_cmpfloat_with_epsilon (xz[2 * n - 1], again->job->receivers[2 * r + 1], 1e-9);
    }

  /* From a reused result, the solve itself: the third point gone. */
  fr_fold_state_clear_ray_points (fold);
  fr_fold_state_add_ray_point (fold, 2.0, 0.2);
  fr_fold_state_add_ray_point (fold, 1.3, 1.9);
  again2 = test_fold_submit (fold, scene, again, &reused);
  g_assert_true (reused);
  g_assert_true (again2->job->fold.solved == solved);
  fresh2 = test_fold_submit (fold, scene, NULL, NULL);
  assert_lines_equal (again2->rays, fresh2->rays);

  g_clear_pointer (&solved->kept_fold, fr_kept_fold_unref);
  {
    g_autoptr(FrResult) r = test_fold_submit (fold, scene, solved, &reused);

    g_assert_false (reused);
    assert_lines_equal (r->rays, fresh2->rays);
  }
  fr_fold_state_clear_ray_points (fold);
  fr_fold_state_add_ray_point (fold, 2.0, 0.2);
  fr_fold_state_add_ray_point (fold, 0.6, 1.8);
  {
    g_autoptr(FrResult) r = test_fold_submit (fold, scene, solved, &reused);

    g_assert_true (reused);
    assert_lines_equal (r->rays, solved->rays);
  }
}

/* The CUDA back end, where a device is usable: the solve kept on the
 * host (its T handed to the canvas on the device) traces a point added
 * without solving, to that point, and as the CPU's solve traces it to
 * float rounding. */
static void
test_points_traced_cuda (void)
{
  g_autoptr(FrScene) scene = NULL;
  g_autoptr(FrFoldState) fold = NULL;
  g_autoptr(FrResult) solved = NULL, again = NULL, cpu = NULL;
  gboolean reused = FALSE;

  if (!fr_cuda_usable ())
    {
      g_test_skip ("no usable CUDA device");
      return;
    }
  scene = fr_scene_new ();
  fold = make_fold ();
  set_model (scene);
  fr_fold_state_set_backend (fold, FR_FOLD_CUDA);
  solved = test_fold_submit (fold, scene, NULL, NULL);
  g_assert_cmpstr (solved->backend, ==, "cuda");
  g_assert_nonnull (solved->device_time);
  g_assert_nonnull (solved->kept_fold);
  g_assert_null (solved->kept_fold->res.device_time);
  fr_fold_state_add_ray_point (fold, 2.7, 0.3);
  again = test_fold_submit (fold, scene, solved, &reused);
  g_assert_true (reused);
  g_assert_true (again->time == solved->time);
  fr_fold_state_set_backend (fold, FR_FOLD_CPU);
  cpu = test_fold_submit (fold, scene, NULL, NULL);
  g_assert_cmpuint (again->rays->len, ==, 3);
  for (guint r = 0; r < again->rays->len; r++)
    {
      GArray *a = g_ptr_array_index (again->rays, r), *c = g_ptr_array_index (cpu->rays, r);
      const double *xa = (const double *) a->data, *xc = (const double *) c->data;

      g_assert_cmpuint (a->len, >=, 4);
      g_assert_cmpuint (c->len, >=, 4);
      /* Both end at the point and start on the horizon within a cell. */
      g_assert_cmpfloat (fabs (xa[a->len - 2] - xc[c->len - 2]), <, 1e-9);
      g_assert_cmpfloat (fabs (xa[a->len - 1] - xc[c->len - 1]), <, 1e-9);
      g_assert_cmpfloat (hypot (xa[0] - xc[0], xa[1] - xc[1]), <, 0.05);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/fold-recontour/levels", test_levels_recontour);
  g_test_add_func ("/app/fold-recontour/no-solve", test_levels_no_solve);
  g_test_add_func ("/app/fold-recontour/what-solves", test_what_solves);
  g_test_add_func ("/app/fold-recontour/points-traced", test_points_traced);
  g_test_add_func ("/app/fold-recontour/points-traced-cuda", test_points_traced_cuda);
  return g_test_run ();
}
