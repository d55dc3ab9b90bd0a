/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The marker list's T column (fr-marker-time.c): one number of decimals
 * for every row, five significant digits of the field's largest T, and T
 * stale ("—") while the scene or the solver settings asked for differ
 * from the result's, a new radius or back end as much as a moved source. */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "fr-marker-time.h"
#include "fr-scene.h"

static void
test_decimals (void)
{
  static const struct { double max; int decimals; } cases[] = {
    { 1.2345, 4 }, { 0.51234, 5 }, { 0.9, 5 }, { 12.345, 3 }, { 99.5, 3 }, { 100.0, 2 },
    { 0.0123, 6 }, { 123456.0, 0 }, { 1e-12, 9 }, { 0.0, 4 }, { INFINITY, 4 }, { NAN, 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (fr_marker_time_decimals (cases[i].max), ==, cases[i].decimals);
}

/* The column's decimal points line up: 0.033333 and 0.82917 were %.5g's. */
static void
test_format_aligned (void)
{
  const double t[] = { 0.0333333, 0.829166, 1.20004 };
  int d = fr_marker_time_decimals (1.20004);
  char buf[64];
  int point = -1;

  for (guint i = 0; i < G_N_ELEMENTS (t); i++)
    {
      const char *s = fr_marker_time_format (t[i], d, buf, sizeof buf);
      const char *dot = strpbrk (s, ".,");

      g_assert_nonnull (dot);
      g_assert_cmpint ((int) strlen (dot + 1), ==, 4);
      if (point < 0)
        point = (int) (dot - s);
      g_assert_cmpint ((int) (dot - s), ==, point);
      g_assert_cmpfloat_with_epsilon (g_ascii_strtod (s, NULL), t[i], 0.5e-4 + 1e-12);
    }
  g_assert_cmpstr (fr_marker_time_format (NAN, d, buf, sizeof buf), ==, "—");
  g_assert_cmpstr (fr_marker_time_format (2.5, 0, buf, sizeof buf), ==, "2");
}

static FrResult *
solved (FrScene        *scene,
        FrRadius        radius,
        fr_spr_backend  backend)
{
  g_autoptr(FrJob) job = fr_scene_make_job (scene, radius, backend);
  gboolean cancelled = TRUE;
  FrResult *result = fr_job_run (job, NULL, &cancelled);

  g_assert_false (cancelled);
  g_assert_true (result->ok);
  return result;
}

static void
test_current (void)
{
  g_autoptr(FrScene) scene = fr_scene_new ();
  fr_grid g = fr_grid_2d (31, 21, 0.1, 0.1, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrResult) result = NULL;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = 2.0f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "current", &g, bytes, NULL));
  fr_scene_add_marker (scene, FR_MARKER_SOURCE, 1.0, 0.0);
  fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 2.0, 1.0);
  result = solved (scene, (FrRadius) { 3, 5 }, FR_SPR_CPU);

  g_assert_true (fr_marker_time_is_current (result, scene, (FrRadius) { 3, 5 }, FR_SPR_CPU));
  /* Either axis's radius gives another T. */
  g_assert_false (fr_marker_time_is_current (result, scene, (FrRadius) { 4, 5 }, FR_SPR_CPU));
  g_assert_false (fr_marker_time_is_current (result, scene, fr_radius_square (3), FR_SPR_CPU));
  g_assert_false (fr_marker_time_is_current (result, scene, (FrRadius) { 3, 5 }, FR_SPR_DIJKSTRA));
  g_assert_false (fr_marker_time_is_current (NULL, scene, (FrRadius) { 3, 5 }, FR_SPR_CPU));
  fr_scene_move_marker (scene, FR_MARKER_SOURCE, 0, 1.5, 0.0);
  g_assert_false (fr_marker_time_is_current (result, scene, (FrRadius) { 3, 5 }, FR_SPR_CPU));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/marker-time/decimals", test_decimals);
  g_test_add_func ("/app/marker-time/format-aligned", test_format_aligned);
  g_test_add_func ("/app/marker-time/current", test_current);
  return g_test_run ();
}
