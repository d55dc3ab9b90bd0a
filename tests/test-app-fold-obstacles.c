/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Folds mode at a constant Speed F goes round the model's impermeable
 * obstacles, as the rays do and as it does at the model's velocities: F
 * in the rock, 0 where the model's velocity is 0 (fr_model_constant_speed).
 * The constant went straight through every wall, so the folded horizons
 * crossed the hatched obstacles as if they were not there. */
#include <math.h>
#include <sys/resource.h>

#include <gio/gio.h>
#include <glib.h>

#include "fr-fold-job.h"
#include "fr-fold-state.h"
#include "fr-model.h"
#include "fr-scene.h"
#include "test-fold-submit.h"
#include "test-rlimit.h"

/* 3 × 2 at 0.05, velocity 2 (never the fold's speed), a wall of velocity
 * 0 along z = 1 from x = 0.5 to 2.5, and a slow (not impermeable) block. */
#define NX 61
#define NZ 41
#define H 0.05

static gboolean
in_wall (size_t ix, size_t iz)
{
  return iz == 20 && ix >= 10 && ix <= 50;
}

static GBytes *
model_velocity (gboolean with_wall)
{
  float *v = g_new (float, NX * NZ);

  for (size_t iz = 0; iz < NZ; iz++)
    for (size_t ix = 0; ix < NX; ix++)
      v[iz * NX + ix] = with_wall && in_wall (ix, iz) ? 0.0f
                        : iz >= 30 && ix >= 50 ? 0.3f : 2.0f;
  return g_bytes_new_take (v, NX * NZ * sizeof (float));
}

static FrResult *
fold_at_constant_speed (gboolean with_wall)
{
  static const FrPoint horizon[] = { { 0.0, 0.2 }, { 3.0, 0.2 } };
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  g_autoptr(GBytes) v = model_velocity (with_wall);
  fr_grid g = fr_grid_2d (NX, NZ, H, H, 0.0, 0.0);

  g_assert_true (fr_scene_set_model (scene, "wall", &g, v, NULL));
  fr_fold_state_set_horizon (fold, horizon, G_N_ELEMENTS (horizon));
  fr_fold_state_set_speed (fold, FALSE, 1.0);
  fr_fold_state_set_backend (fold, FR_FOLD_CPU);
  fr_fold_state_set_levels (fold, 0.2, 5);
  fr_fold_state_add_ray_point (fold, 1.5, 1.5);
  return test_fold_submit (fold, scene, NULL, NULL);
}

static float
time_at (const FrResult *r, double x, double z)
{
  return r->time[(size_t) lround (z / H) * NX + (size_t) lround (x / H)];
}

/* The speed grid: NULL without an impermeable cell (the solve takes the
 * constant), else F in every cell but the walls', the slow block's too. */
static void
test_constant_speed_grid (void)
{
  g_autoptr(GBytes) open = model_velocity (FALSE), walled = model_velocity (TRUE);
  g_autoptr(GBytes) none = fr_model_constant_speed (open, 1.5, NULL);
  g_autoptr(GBytes) f = fr_model_constant_speed (walled, 1.5, NULL);
  const float *fv;

  g_assert_null (none);
  g_assert_nonnull (f);
  g_assert_cmpuint (g_bytes_get_size (f), ==, NX * NZ * sizeof (float));
  fv = g_bytes_get_data (f, NULL);
  for (size_t iz = 0; iz < NZ; iz++)
    for (size_t ix = 0; ix < NX; ix++)
      g_assert_cmpfloat (fv[iz * NX + ix], ==, in_wall (ix, iz) ? 0.0f : 1.5f);
}

/* Above the wall the front is the flat horizon's, z − 0.2 (a first-order
 * scheme on a flat front is exact); the wall is unreached; below its
 * middle the front arrives round its ends, after at least 0.8 down to
 * the wall's end and 1.14 from there (straight down, 1.3); and the
 * characteristic from there passes a wall's end. */
static void
test_goes_round_wall (void)
{
  g_autoptr(FrResult) open = fold_at_constant_speed (FALSE);
  g_autoptr(FrResult) walled = fold_at_constant_speed (TRUE);
  GArray *ray;
  double xmin = G_MAXDOUBLE, xmax = -G_MAXDOUBLE;

  /* Without a wall the slow block changes nothing: F is constant. */
  g_assert_cmpfloat_with_epsilon (time_at (open, 1.5, 1.5), 1.3, 1e-4);
  g_assert_cmpfloat_with_epsilon (time_at (open, 2.8, 1.8), 1.6, 1e-4);

  g_assert_cmpfloat_with_epsilon (time_at (walled, 1.5, 0.6), 0.4, 1e-4);
  g_assert_cmpfloat_with_epsilon (time_at (walled, 0.2, 1.8), 1.6, 1e-4);
  for (size_t ix = 10; ix <= 50; ix++)
    g_assert_true (isinf (walled->time[20 * NX + ix]));
  g_assert_cmpfloat (time_at (walled, 1.5, 1.5), >, 1.8 + 0.14);
  g_assert_cmpfloat (time_at (walled, 1.5, 1.5), <, 2.2);

  g_assert_cmpuint (walled->rays->len, ==, 1);
  ray = g_ptr_array_index (walled->rays, 0);
  g_assert_cmpuint (ray->len, >=, 4);
  for (guint i = 0; i < ray->len; i += 2)
    {
      xmin = MIN (xmin, g_array_index (ray, double, i));
      xmax = MAX (xmax, g_array_index (ray, double, i));
    }
  g_assert_true (xmin < 0.5 || xmax > 2.5);
}

/* A drag of ψa makes the speed grid once: the jobs share it until F or
 * the model changes; over a model without walls there is none. */
static void
test_speed_grid_kept (void)
{
  static const FrPoint horizon[] = { { 0.0, 0.2 }, { 3.0, 0.2 } };
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  g_autoptr(GBytes) walled = model_velocity (TRUE), open = model_velocity (FALSE);
  g_autoptr(FrJob) a = NULL, b = NULL, c = NULL, d = NULL;
  fr_grid g = fr_grid_2d (NX, NZ, H, H, 0.0, 0.0);

  g_assert_true (fr_scene_set_model (scene, "wall", &g, walled, NULL));
  fr_fold_state_set_horizon (fold, horizon, G_N_ELEMENTS (horizon));
  fr_fold_state_set_speed (fold, FALSE, 1.0);
  a = fr_fold_state_make_job (fold, scene);
  fr_fold_state_set_psi_a (fold, 0.2, 0.1);
  b = fr_fold_state_make_job (fold, scene);
  g_assert_nonnull (a->fold.speed);
  g_assert_true (a->fold.speed == b->fold.speed);

  fr_fold_state_set_speed (fold, FALSE, 2.0);
  c = fr_fold_state_make_job (fold, scene);
  g_assert_true (c->fold.speed != a->fold.speed);
  g_assert_cmpfloat (((const float *) g_bytes_get_data (c->fold.speed, NULL))[0], ==, 2.0f);
  /* The earlier job keeps its own F. */
  g_assert_cmpfloat (((const float *) g_bytes_get_data (a->fold.speed, NULL))[0], ==, 1.0f);

  g_assert_true (fr_scene_set_model (scene, "open", &g, open, NULL));
  d = fr_fold_state_make_job (fold, scene);
  g_assert_null (d->fold.speed);
}

/* Where this process may not have the speed grid's memory (ulimit -v a
 * little above what it maps), the solve fails with why, and the app goes
 * on; it aborted in GLib's allocator. */
static void
speed_grid_refused_child (void)
{
  static const FrPoint horizon[] = { { 0.0, 0.2 }, { 20.0, 0.2 } };
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) result = NULL;
  fr_grid g = fr_grid_2d (2001, 2001, 0.01, 0.01, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  gboolean cancelled = TRUE;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = i < 2001 * 1000 + 100 && i >= 2001 * 1000 ? 0.0f : 1.0f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "wall", &g, bytes, NULL));
  fr_fold_state_set_horizon (fold, horizon, G_N_ELEMENTS (horizon));
  fr_fold_state_set_speed (fold, FALSE, 1.0);
  fr_fold_state_set_backend (fold, FR_FOLD_CPU);

  /* 8 MB to spare; the grid takes 16. */
  g_assert_true (test_limit_memory (RLIMIT_AS, "VmSize:", 8.0 * 1024 * 1024));
  job = fr_fold_state_make_job (fold, scene);
  g_assert_null (job->fold.speed);
  g_assert_cmpstr (job->fold.speed_error, ==,
                   "Not enough memory for the fold's speed grid (4004001 nodes)");
  result = fr_fold_job_run (job, NULL, &cancelled);
  g_assert_false (cancelled);
  g_assert_false (result->ok);
  g_assert_cmpstr (result->error, ==, job->fold.speed_error);
}

static void
test_speed_grid_refused (void)
{
  test_in_limited_child (RLIMIT_AS, speed_grid_refused_child, 60 * G_USEC_PER_SEC);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/fold/constant-speed-grid", test_constant_speed_grid);
  g_test_add_func ("/app/fold/constant-speed-goes-round-obstacles", test_goes_round_wall);
  g_test_add_func ("/app/fold/constant-speed-grid-kept", test_speed_grid_kept);
  g_test_add_func ("/app/fold/constant-speed-grid-refused", test_speed_grid_refused);
  return g_test_run ();
}
