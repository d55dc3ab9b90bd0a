/* SPDX-License-Identifier: GPL-3.0-or-later */
/* T at a point of a result (app/fr-result-time.c), the one rule of the
 * cursor readout and the marker list: bilinear between nodes, a node's own
 * value at the node, nothing outside the grid or where a node that counts
 * is unreached; and when a result's T is still the scene's.  And a T
 * that cannot be allocated: a result that says so, not an abort. */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "fr-result-time.h"
#include "test-rlimit.h"

/* A 5 × 4 grid, spacing 0.5 × 0.25 from (1, 2), T = ix + 10·iz, with
 * node (3, 1) unreached. */
static FrResult *
grid_result (void)
{
  fr_grid g = fr_grid_2d (5, 4, 0.5, 0.25, 1.0, 2.0);
  float v[20];
  double t[20];
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrJob) job = NULL;
  double src[2] = { 1.0, 2.0 };
  FrResult *result;

  for (guint i = 0; i < 20; i++)
    {
      v[i] = 1.0f;
      t[i] = (double) (i % 5) + 10.0 * (double) (i / 5);
    }
  t[1 * 5 + 3] = INFINITY;
  bytes = g_bytes_new (v, sizeof v);
  job = fr_job_new (&g, bytes, src, 1, NULL, 0, fr_radius_square (1), FR_SPR_CPU);
  result = fr_result_new (job);
  result->ok = TRUE;
  g_assert_true (fr_result_set_time (result, t, 20));
  return result;
}

static void
test_sampling (void)
{
  g_autoptr(FrResult) result = grid_result ();
  double t = -1.0;

  /* At a node: its own value, exactly. */
  g_assert_true (fr_result_time_at (result, 1.0 + 2 * 0.5, 2.0 + 2 * 0.25, &t));
  g_assert_cmpfloat (t, ==, 22.0);
  /* Between four nodes: bilinear. */
  g_assert_true (fr_result_time_at (result, 1.0 + 1.5 * 0.5, 2.0 + 2.5 * 0.25, &t));
  g_assert_cmpfloat_with_epsilon (t, 1.5 + 25.0, 1e-12);
  g_assert_true (fr_result_time_at (result, 1.0 + 0.25 * 0.5, 2.0 + 2.0 * 0.25, &t));
  g_assert_cmpfloat_with_epsilon (t, 0.25 + 20.0, 1e-12);
  /* Up to half a cell beyond an edge: the edge's value; further, none.
   * Each of the four edges: the last nodes are x = 3 and z = 2.75. */
  g_assert_true (fr_result_time_at (result, 1.0 - 0.2, 2.0, &t));
  g_assert_cmpfloat (t, ==, 0.0);
  g_assert_false (fr_result_time_at (result, 1.0 - 0.3, 2.0, &t));
  g_assert_true (fr_result_time_at (result, 1.0, 2.0 - 0.1, &t));
  g_assert_cmpfloat (t, ==, 0.0);
  g_assert_false (fr_result_time_at (result, 1.0, 2.0 - 0.15, &t));
  g_assert_true (fr_result_time_at (result, 3.0 + 0.2, 2.0, &t));
  g_assert_cmpfloat (t, ==, 4.0);
  g_assert_false (fr_result_time_at (result, 3.0 + 0.3, 2.0, &t));
  g_assert_true (fr_result_time_at (result, 1.0, 2.75 + 0.1, &t));
  g_assert_cmpfloat (t, ==, 30.0);
  g_assert_false (fr_result_time_at (result, 1.0, 2.0 + 3.6 * 0.25, &t));
}

/* A node beside an unreached one keeps its T (a receiver next to an
 * obstacle); a point that the unreached node weighs in has none. */
static void
test_unreached (void)
{
  g_autoptr(FrResult) result = grid_result ();
  double t = -1.0;

  g_assert_true (fr_result_time_at (result, 1.0 + 2 * 0.5, 2.0 + 1 * 0.25, &t));
  g_assert_cmpfloat (t, ==, 12.0);
  g_assert_true (fr_result_time_at (result, 1.0 + 4 * 0.5, 2.0 + 1 * 0.25, &t));
  g_assert_cmpfloat (t, ==, 14.0);
  g_assert_true (fr_result_time_at (result, 1.0 + 3 * 0.5, 2.0 + 2 * 0.25, &t));
  g_assert_cmpfloat (t, ==, 23.0);
  g_assert_false (fr_result_time_at (result, 1.0 + 3 * 0.5, 2.0 + 1 * 0.25, &t));
  g_assert_false (fr_result_time_at (result, 1.0 + 2.5 * 0.5, 2.0 + 1 * 0.25, &t));
  g_assert_false (fr_result_time_at (result, 1.0 + 3 * 0.5, 2.0 + 1.5 * 0.25, &t));
}

static void
test_no_time (void)
{
  g_autoptr(FrResult) result = grid_result ();
  double t;

  result->ok = FALSE;
  g_assert_false (fr_result_time_at (result, 1.0, 2.0, &t));
}

static FrScene *
small_scene (void)
{
  FrScene *scene = fr_scene_new ();
  fr_grid g = fr_grid_2d (11, 6, 0.1, 0.1, 0.0, 0.0);
  float v[66];
  g_autoptr(GBytes) bytes = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    v[i] = 2.0f;
  bytes = g_bytes_new (v, sizeof v);
  g_assert_true (fr_scene_set_model (scene, "small", &g, bytes, NULL));
  return scene;
}

static FrResult *
solved (FrScene *scene)
{
  g_autoptr(FrJob) job = fr_scene_make_job (scene, fr_radius_square (1), FR_SPR_CPU);
  FrResult *result = fr_result_new (job);
  double t[66] = { 0 };

  result->ok = TRUE;
  g_assert_true (fr_result_set_time (result, t, 66));
  return result;
}

static void
move (FrScene      *scene,
      FrMarkerKind  kind,
      double        x,
      double        z)
{
  fr_scene_begin_edit (scene);
  g_assert_true (fr_scene_move_marker (scene, kind, 0, x, z));
  fr_scene_end_edit (scene, "Move");
}

/* T stays the scene's while only receivers move; a source moved, added or
 * removed, or a new model, makes it stale; a fold's T or a failed solve
 * is never the markers'. */
static void
test_matches_scene (void)
{
  FrScene *scene = small_scene ();
  FrResult *result;

  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.5, 0.0), >=, 0);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.2, 0.0), >=, 0);
  result = solved (scene);
  g_assert_false (fr_result_time_matches_scene (NULL, scene));
  g_assert_true (fr_result_time_matches_scene (result, scene));

  move (scene, FR_MARKER_RECEIVER, 0.8, 0.3);
  g_assert_true (fr_result_time_matches_scene (result, scene));
  move (scene, FR_MARKER_SOURCE, 0.6, 0.0);
  g_assert_false (fr_result_time_matches_scene (result, scene));
  move (scene, FR_MARKER_SOURCE, 0.5, 0.0);
  g_assert_true (fr_result_time_matches_scene (result, scene));
  /* Moved in depth alone, x unchanged: stale too. */
  move (scene, FR_MARKER_SOURCE, 0.5, 0.3);
  g_assert_false (fr_result_time_matches_scene (result, scene));
  move (scene, FR_MARKER_SOURCE, 0.5, 0.0);
  g_assert_true (fr_result_time_matches_scene (result, scene));
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.1, 0.1), >=, 0);
  g_assert_false (fr_result_time_matches_scene (result, scene));
  g_assert_true (fr_scene_remove_marker (scene, FR_MARKER_SOURCE, 1));
  g_assert_true (fr_result_time_matches_scene (result, scene));

  result->ok = FALSE;
  g_assert_false (fr_result_time_matches_scene (result, scene));
  result->ok = TRUE;
  result->job->kind = FR_JOB_FOLD;
  g_assert_false (fr_result_time_matches_scene (result, scene));
  result->job->kind = FR_JOB_SPR;

  {
    fr_grid g = fr_grid_2d (11, 6, 0.1, 0.1, 0.0, 0.0);
    float v[66];
    g_autoptr(GBytes) bytes = NULL;

    for (guint i = 0; i < G_N_ELEMENTS (v); i++)
      v[i] = 3.0f;
    bytes = g_bytes_new (v, sizeof v);
    g_assert_true (fr_scene_set_model (scene, "other", &g, bytes, NULL));
  }
  g_assert_false (fr_result_time_matches_scene (result, scene));

  fr_result_unref (result);
  g_assert_finalize_object (scene);
}

/* In a child held by ulimit -v to 512 MiB more than it maps: a job on a
 * grid of 200 million nodes (its velocity's 800 MB allocated but never
 * touched, so it costs nothing before the limit is set) cannot have its
 * T, and its result says so.  Before, g_new aborted the solver thread. */
static void
no_memory_child (void)
{
  const size_t nx = 20000, nz = 10000;
  fr_grid g = fr_grid_2d (nx, nz, 1.0, 1.0, 0.0, 0.0);
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_malloc0 (nx * nz * sizeof (float)),
                                              nx * nz * sizeof (float));
  g_autoptr(FrJob) job = fr_job_new (&g, bytes, NULL, 0, NULL, 0, fr_radius_square (2), FR_SPR_CPU);
  g_autoptr(FrResult) result = NULL;
  gboolean cancelled = TRUE;

  g_assert_true (test_limit_memory (RLIMIT_AS, "VmSize:", 512.0 * 1048576.0));

  result = fr_job_run (job, NULL, &cancelled);
  g_assert_nonnull (result);
  g_assert_false (cancelled);
  g_assert_false (result->ok);
  g_assert_null (result->time);
  g_assert_cmpstr (result->error, ==, "Not enough memory for the traveltimes of 200000000 nodes");
}

static void
test_no_memory (void)
{
  test_in_limited_child (RLIMIT_AS, no_memory_child, 60 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/result-time/sampling", test_sampling);
  g_test_add_func ("/app/result-time/unreached", test_unreached);
  g_test_add_func ("/app/result-time/no-time", test_no_time);
  g_test_add_func ("/app/result-time/matches-scene", test_matches_scene);
  g_test_add_func ("/app/result-time/no-memory", test_no_memory);
  return g_test_run ();
}
