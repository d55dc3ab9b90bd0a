/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A result keeps the solve of its shot (app/fr-kept-solve.c, fr-job.c), and
 * the next job over the same grid, velocity, radius and back end, from the
 * same sources, takes it instead of solving: receivers moved or added get
 * their rays traced from it.  Against independent truth: a job that took
 * the solve gives, node by node and point by point, what a fresh solve of
 * the same scene gives; in a uniform model each ray's length over the
 * velocity is the traveltime at its receiver (a ray's weights sum to its
 * time).  Never taken where the sources moved or the model changed; kept
 * only within the byte cap and with room for the next solve. */
#include <math.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>

#include "fr-kept-solve.h"
#include "fr-memory.h"
#include "fr-scene.h"
#include "fr-shot-job.h"

#define V 2.5

/* 81 × 41 nodes 0.05 apart at v = 2.5, three surface sources fired
 * together, six receivers at the surface and in depth. */
static FrScene *
make_scene (void)
{
  fr_grid g = fr_grid_2d (81, 41, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  FrScene *scene = fr_scene_new ();
  const double receivers[6][2] = { { 0.2, 0.0 }, { 1.1, 0.4 }, { 2.0, 1.5 }, { 2.9, 0.1 },
                                   { 3.6, 1.9 }, { 3.95, 0.0 } };

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = (float) V;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "kept solve", &g, bytes, NULL));
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.5, 0.0), ==, 0);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 2.0, 0.0), ==, 1);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 3.5, 0.0), ==, 2);
  for (guint r = 0; r < 6; r++)
    g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, receivers[r][0], receivers[r][1]),
                     ==, (int) r);
  return scene;
}

static FrResult *
run (FrJob *job)
{
  gboolean cancelled = TRUE;
  FrResult *result = fr_job_run (job, NULL, &cancelled);

  g_assert_false (cancelled);
  g_assert_nonnull (result);
  g_assert_true (result->ok);
  return result;
}

/* T of result at its receiver r's node. */
static double
node_time (const FrResult *result,
           guint           r)
{
  const FrJob *job = result->job;
  size_t ix, iz;

  g_assert_true (fr_grid_nearest_node (&job->grid, job->receivers[2 * r], 0.0, job->receivers[2 * r + 1],
                                       &ix, NULL, &iz));
  return result->time[fr_grid_index (&job->grid, ix, 0, iz)];
}

/* a and b hold the same T, node by node, and the same rays, point by
 * point. */
static void
assert_same (const FrResult *a,
             const FrResult *b)
{
  const size_t count = fr_grid_count (&a->job->grid);

  g_assert_cmpmem (a->time, count * sizeof (float), b->time, count * sizeof (float));
  g_assert_cmpfloat (a->time_max, ==, b->time_max);
  g_assert_cmpuint (a->rays->len, ==, b->rays->len);
  for (guint r = 0; r < a->rays->len; r++)
    {
      GArray *ra = g_ptr_array_index (a->rays, r), *rb = g_ptr_array_index (b->rays, r);

      g_assert_cmpmem (ra->data, ra->len * sizeof (double), rb->data, rb->len * sizeof (double));
    }
}

/* Each ray of result runs from one of its sources to its receiver's node,
 * and in the uniform model its length over V is T there. */
static void
assert_rays_true (const FrResult *result)
{
  const FrJob *job = result->job;

  for (guint r = 0; r < job->n_receivers; r++)
    {
      GArray *ray = g_ptr_array_index (result->rays, r);
      const double *xz = (const double *) ray->data;
      const guint n = ray->len / 2;
      gboolean at_source = FALSE;
      double length = 0.0;

      g_assert_cmpuint (n, >=, 2);
      for (guint i = 1; i < n; i++)
        length += hypot (xz[2 * i] - xz[2 * i - 2], xz[2 * i + 1] - xz[2 * i - 1]);
      for (guint s = 0; s < job->n_sources; s++)
        at_source = at_source || (fabs (xz[0] - job->sources[2 * s]) < 1e-9 &&
                                  fabs (xz[1] - job->sources[2 * s + 1]) < 1e-9) ||
                    (fabs (xz[2 * n - 2] - job->sources[2 * s]) < 1e-9 &&
                     fabs (xz[2 * n - 1] - job->sources[2 * s + 1]) < 1e-9);
      g_assert_true (at_source);
      g_assert_cmpfloat_with_epsilon (length / V, node_time (result, r), 1e-5 * node_time (result, r));
    }
}

/* Receivers moved and added: the solve is taken, not run again; T and
 * the rays are a fresh solve's. */
static void
test_receivers_moved (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrJob) first_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_autoptr(FrResult) first = run (first_job);
  g_autoptr(FrJob) job = NULL, fresh_job = NULL;
  g_autoptr(FrResult) result = NULL, fresh = NULL;
  const FrKeptSolve *kept;

  g_assert_cmpint (first_job->shot, ==, -1);
  g_assert_cmpuint (first->n_shots_solved, ==, 1);
  g_assert_nonnull (first->solves);
  g_assert_cmpuint (first->solves->len, ==, 1);
  kept = g_ptr_array_index (first->solves, 0);
  g_assert_nonnull (kept);
  g_assert_cmpuint (kept->n_sources, ==, 3);
  g_assert_cmpuint (kept->bytes, ==, fr_kept_solve_size (&first_job->grid));
  g_assert_cmpuint (kept->bytes, ==, 81 * 41 * 20);
  g_assert_null (kept->res.device_time);
  /* The result shows the kept solve's single-precision T, shared. */
  g_assert_true (first->time == kept->time);
  g_assert_true (first->time_solve == kept);
  g_assert_cmpfloat (first->time_max, ==, kept->time_max);
  assert_rays_true (first);

  g_assert_true (fr_scene_move_marker (scene, FR_MARKER_RECEIVER, 1, 1.35, 0.85));
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.05, 1.7), ==, 6);
  job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_true (fr_job_reuse_solves (job, first));
  g_assert_cmpuint (fr_job_n_shots (job), ==, 1);
  g_assert_cmpuint (fr_job_n_solves_kept (job), ==, 1);
  g_assert_true (fr_job_reuses_solve (job));
  result = run (job);
  g_assert_cmpuint (result->n_shots_solved, ==, 0);
  g_assert_cmpfloat (result->solve_ms, ==, 0.0);
  g_assert_cmpstr (result->backend, ==, first->backend);
  g_assert_null (result->shots);
  g_assert_true (g_ptr_array_index (result->solves, 0) == kept);
  g_assert_true (result->time == first->time);   /* the same T: the canvas uploads none */
  g_assert_cmpuint (result->rays->len, ==, 7);

  fresh_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  fresh = run (fresh_job);
  g_assert_cmpuint (fresh->n_shots_solved, ==, 1);
  assert_same (result, fresh);
  assert_rays_true (result);
  /* The new receiver's T: from the nearest source, straight down and across. */
  g_assert_cmpfloat_with_epsilon (node_time (result, 6), hypot (0.45, 1.7) / V, 0.01 * hypot (0.45, 1.7) / V);
}

/* Not taken where the shot differs: a source moved or added, the model
 * edited, another radius; nor from a result that failed or kept none. */
static void
test_not_taken (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrJob) first_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_autoptr(FrResult) first = run (first_job);
  g_autoptr(FrJob) moved_job = NULL, added_job = NULL, model_job = NULL, radius_job = NULL;
  g_autoptr(FrJob) same_job = NULL;
  g_autoptr(FrResult) moved = NULL;

  g_assert_true (fr_scene_move_marker (scene, FR_MARKER_SOURCE, 1, 2.05, 0.0));
  moved_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_false (fr_job_reuse_solves (moved_job, first));
  g_assert_null (moved_job->solves_kept);
  g_assert_false (fr_job_reuses_solve (moved_job));
  moved = run (moved_job);
  g_assert_cmpuint (moved->n_shots_solved, ==, 1);

  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 1.0, 1.0), ==, 3);
  added_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_false (fr_job_reuse_solves (added_job, moved));
  g_assert_true (fr_scene_remove_marker (scene, FR_MARKER_SOURCE, 3));

  radius_job = fr_scene_make_job (scene, fr_radius_square (5), FR_SPR_CPU);
  g_assert_false (fr_job_reuse_solves (radius_job, moved));

  same_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_true (fr_job_reuse_solves (same_job, moved));
  g_clear_pointer (&g_ptr_array_index (moved->solves, 0), fr_kept_solve_unref);
  g_clear_pointer (&same_job->solves_kept, g_ptr_array_unref);
  g_assert_false (fr_job_reuse_solves (same_job, moved));
  moved->ok = FALSE;
  g_assert_false (fr_job_reuse_solves (same_job, moved));

  /* A layer's velocity edited: new velocity bytes, a new solve. */
  {
    fr_grid g = first_job->grid;
    float *v = g_new (float, fr_grid_count (&g));
    g_autoptr(GBytes) bytes = NULL;

    for (size_t i = 0; i < fr_grid_count (&g); i++)
      v[i] = (float) V;
    bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
    model_job = fr_job_new (&g, bytes, first_job->sources, first_job->n_sources, first_job->receivers,
                            first_job->n_receivers, first_job->radius, FR_SPR_CPU);
    g_assert_false (fr_job_reuse_solves (model_job, first));
  }
}

/* One source: its shot fired alone is the shot of the sources together,
 * so switching One shot per source on takes the solve. */
static void
test_one_source_either_way (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrJob) together_job = NULL, alone_job = NULL;
  g_autoptr(FrResult) together = NULL, alone = NULL;

  g_assert_true (fr_scene_remove_marker (scene, FR_MARKER_SOURCE, 2));
  g_assert_true (fr_scene_remove_marker (scene, FR_MARKER_SOURCE, 1));
  together_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  together = run (together_job);
  fr_scene_set_separate_shots (scene, TRUE);
  fr_scene_select (scene, FR_MARKER_SOURCE, 0);
  g_assert_true (fr_scene_get_separate_shots (scene));
  alone_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  alone_job->shot = 0;   /* the scene fires one source as one shot: as a job of one shot */
  g_assert_true (fr_job_reuse_solves (alone_job, together));
  alone = run (alone_job);
  g_assert_cmpuint (alone->n_shots_solved, ==, 0);
  g_assert_nonnull (alone->shots);
  assert_same (alone, together);
  for (guint r = 0; r < 6; r++)
    g_assert_cmpfloat (alone->shots->times[r], ==, node_time (together, r));
}

/* Kept within FR_KEPT_SOLVES_MAX_BYTES, and only with room beside it for
 * another solve of its size in the memory this process may still use. */
static void
test_fits (void)
{
  const gsize max = FR_KEPT_SOLVES_MAX_BYTES;

  g_assert_false (fr_kept_solve_fits (0, max + 1));
  g_assert_false (fr_kept_solve_fits (max, 1));
  g_assert_false (fr_kept_solve_fits (max - 10, 11));
  g_assert_false (fr_kept_solve_fits (G_MAXSIZE, 1));
  if (fr_memory_available () >= 64.0 * 1024 * 1024)
    g_assert_true (fr_kept_solve_fits (max - (16 << 20), 16 << 20));

  if (g_test_subprocess ())
    {
      /* The address space held to 64 MiB past what is mapped now. */
      struct rlimit lim;
      double mapped = 0.0;
      g_autofree char *status = NULL;
      const char *line;

      g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
      line = strstr (status, "VmSize:");
      g_assert_nonnull (line);
      mapped = g_ascii_strtod (line + strlen ("VmSize:"), NULL) * 1024.0;
      g_assert_cmpint (getrlimit (RLIMIT_AS, &lim), ==, 0);
      lim.rlim_cur = (rlim_t) mapped + ((rlim_t) 64 << 20);
      g_assert_cmpint (setrlimit (RLIMIT_AS, &lim), ==, 0);
      g_assert_false (fr_kept_solve_fits (0, (gsize) 40 << 20));
      g_assert_true (fr_kept_solve_fits (0, (gsize) 16 << 20));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The CUDA back end, where a device is usable: its T handed to the canvas
 * on the device, the solve kept on the host traces the rays of receivers
 * moved as a fresh CUDA solve does, and T is the CPU's to float rounding;
 * one shot per source, another source shown takes its CUDA shot. */
static void
test_cuda (void)
{
  g_autoptr(FrScene) scene = NULL;
  g_autoptr(FrJob) first_job = NULL, job = NULL, fresh_job = NULL, cpu_job = NULL;
  g_autoptr(FrJob) shots_job = NULL, other_job = NULL;
  g_autoptr(FrResult) first = NULL, result = NULL, fresh = NULL, cpu = NULL, shots = NULL, other = NULL;
  const FrKeptSolve *kept;

  if (!fr_cuda_usable ())
    {
      g_test_skip ("no usable CUDA device");
      return;
    }
  scene = make_scene ();
  first_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CUDA);
  first = run (first_job);
  g_assert_cmpstr (first->backend, ==, "cuda");
  g_assert_nonnull (first->device_time);
  kept = g_ptr_array_index (first->solves, 0);
  g_assert_nonnull (kept);
  g_assert_null (kept->res.device_time);

  g_assert_true (fr_scene_move_marker (scene, FR_MARKER_RECEIVER, 1, 1.35, 0.85));
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.05, 1.7), ==, 6);
  job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CUDA);
  g_assert_true (fr_job_reuse_solves (job, first));
  result = run (job);
  g_assert_cmpuint (result->n_shots_solved, ==, 0);
  g_assert_cmpstr (result->backend, ==, "cuda");
  g_assert_null (result->device_time);     /* the canvas uploads the host's T */
  assert_rays_true (result);
  fresh_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CUDA);
  fresh = run (fresh_job);
  assert_same (result, fresh);
  cpu_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  cpu = run (cpu_job);
  for (size_t i = 0; i < fr_grid_count (&job->grid); i++)
    g_assert_cmpfloat (fabs (result->time[i] - cpu->time[i]), <=, 1e-5 * cpu->time[i] + 1e-7);

  fr_scene_set_separate_shots (scene, TRUE);
  fr_scene_select (scene, FR_MARKER_SOURCE, 1);
  shots_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CUDA);
  shots = run (shots_job);
  g_assert_cmpuint (shots->n_shots_solved, ==, 3);
  g_assert_nonnull (shots->device_time);
  fr_scene_select (scene, FR_MARKER_SOURCE, 0);
  other_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CUDA);
  g_assert_true (fr_job_reuse_solves (other_job, shots));
  other = run (other_job);
  g_assert_cmpuint (other->n_shots_solved, ==, 0);
  g_assert_null (other->device_time);
  assert_rays_true (other);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/kept-solve/receivers-moved", test_receivers_moved);
  g_test_add_func ("/app/kept-solve/not-taken", test_not_taken);
  g_test_add_func ("/app/kept-solve/one-source-either-way", test_one_source_either_way);
  g_test_add_func ("/app/kept-solve/fits", test_fits);
  g_test_add_func ("/app/kept-solve/cuda", test_cuda);
  return g_test_run ();
}
