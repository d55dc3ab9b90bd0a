/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scene files: byte-identical round trips, every malformed case with its
 * error, background paths with "..", saves through a symbolic link and
 * over a private file, the atomic save under a real write failure
 * (RLIMIT_FSIZE, and a full tmpfs where a mount namespace may be made),
 * SEG-Y import of a file written here with segyio's C API, and
 * `foldray-cli spr|fold --scene`. */
#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* unshare */
#endif
#include <sched.h>
#include <sys/mount.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fr-array.h"
#include "fr-message.h"
#include "fr-npy.h"
#include "fr-scene-file.h"
#include "fr-segy.h"
#include "fr-spr.h"
#include "test-rlimit.h"
#include "test-sanitizer.h"
#include "test-tmpdir.h"
#include "test-tmpfs.h"

#ifdef FOLDRAY_HAVE_SEGYIO
#include <segyio/segy.h>
#endif

static char *
scene_path (const char *name)
{
  return g_build_filename (g_getenv ("FOLDRAY_SOURCE_ROOT"), "data", "scenes", name, NULL);
}

static char *
make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("foldray-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
write_npy (const char *path, const fr_grid *g, const float *v)
{
  fr_array a = fr_array_wrap_grid (g, FR_F32, (void *) v);

  g_assert_cmpint (fr_npy_write (path, &a, NULL), ==, FR_OK);
}

/* A scene using every part of the format, with a background beside it. */
static FrSceneDoc *
full_doc (const char *dir)
{
  fr_grid bg = fr_grid_2d (6, 4, 0.5, 0.25, -0.25, 0.0);
  fr_grid g = fr_grid_2d (21, 11, 0.15, 0.1, 0.0, 0.0);
  g_autofree char *npy = g_build_filename (dir, "bg.npy", NULL);
  float v[24];
  g_autoptr(GBytes) vb = NULL;
  FrModel *m = fr_model_new (&g, 1.5);
  FrSceneDoc *doc;
  FrLayer *l;
  FrObstacle *o;
  FrVertex p;

  for (int i = 0; i < 24; i++)
    v[i] = 1.0f + 0.1f * i;
  write_npy (npy, &bg, v);
  vb = g_bytes_new (v, sizeof v);
  m->background = fr_background_new (npy, "npy", &bg, vb);

  l = fr_layer_new (2.0, 0.3, -0.01);
  l->x_ref = 0.25;
  fr_layer_add_node (l, 0.0, 0.4);
  fr_layer_add_node (l, 1.1, 0.55);
  fr_layer_add_node (l, 3.0, 1.0 / 3.0);
  g_ptr_array_add (m->layers, l);
  g_ptr_array_add (m->obstacles, fr_obstacle_new_rectangle (1.0, 0.2, 1.4, 0.6, 0.0));
  o = fr_obstacle_new (FR_OBSTACLE_POLYGON, 0.7);
  fr_obstacle_add_vertex (o, 2.0, 0.1);
  fr_obstacle_add_vertex (o, 2.5, 0.3);
  fr_obstacle_add_vertex (o, 2.1, 0.9);
  g_ptr_array_add (m->obstacles, o);

  doc = fr_scene_doc_new (m);
  doc->title = g_strdup ("Round \"trip\" — ñ");
  p = (FrVertex) { 1.5, 0.0 };
  g_array_append_val (doc->sources, p);
  p = (FrVertex) { 0.3, 0.7 };
  g_array_append_val (doc->receivers, p);
  doc->radius = (FrRadius) { 4, 9 };
  g_free (doc->backend);
  doc->backend = g_strdup ("cpu");
  doc->has_fold = TRUE;
  doc->psi_a[0] = 0.25;
  doc->psi_a[1] = -0.1;
  doc->fold_backend = g_strdup ("cpu");
  doc->has_fold_speed = TRUE;
  doc->fold_speed = 1.25;
  doc->has_fold_levels = TRUE;
  doc->fold_delta = 0.05;
  doc->fold_count = 12;
  doc->has_fold_bands = TRUE;
  doc->fold_bands = TRUE;
  doc->fold_horizon = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  p = (FrVertex) { 0.2, 0.9 };
  g_array_append_val (doc->fold_horizon, p);
  p = (FrVertex) { 1.5, 1.0 / 3.0 };
  g_array_append_val (doc->fold_horizon, p);
  p = (FrVertex) { 2.8, 0.9 };
  g_array_append_val (doc->fold_horizon, p);
  doc->fold_characteristics = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  p = (FrVertex) { 1.25, 0.125 };
  g_array_append_val (doc->fold_characteristics, p);
  p = (FrVertex) { 2.0, 1.0 / 7.0 };
  g_array_append_val (doc->fold_characteristics, p);
  doc->has_mode = TRUE;
  doc->folds_mode = TRUE;
  doc->has_view = TRUE;
  doc->view_cx = 1.5;
  doc->view_cz = 0.5;
  doc->view_scale = 123.456789;
  /* None of the defaults, so that a member lost on the way shows. */
  doc->has_display = TRUE;
  doc->display_interval = 0.02;
  g_free (doc->display_colormap);
  doc->display_colormap = g_strdup ("magma");
  doc->display_wavefront = TRUE;
  doc->display_wavefront_time = 0.45;
  return doc;
}

/* Puts an environment variable back as it was (NULL: unset). */
static void
restore_env (const char *name,
             const char *was)
{
  if (was != NULL)
    g_setenv (name, was, TRUE);
  else
    g_unsetenv (name);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_round_trip (void)
{
  static const char *bundled[] = { "three-layer.json", "gradient.json", "syncline-salt.json",
                                   "ex-b-maze.json", "ex-c-maze.json" };
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *a = g_build_filename (dir, "a.json", NULL);
  g_autofree char *b = g_build_filename (dir, "b.json", NULL);
  g_autoptr(FrSceneDoc) doc = full_doc (dir);
  g_autoptr(FrSceneDoc) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ta = NULL, *tb = NULL;

  /* save, load, save: the same bytes, and the same model. */
  g_assert_true (fr_scene_doc_save (doc, a, &error));
  g_assert_no_error (error);
  back = fr_scene_doc_load (a, &error);
  g_assert_no_error (error);
  g_assert_true (fr_model_equal (doc->model, back->model));
  g_assert_cmpstr (back->title, ==, doc->title);
  g_assert_cmpint (back->radius.x, ==, 4);
  g_assert_cmpint (back->radius.z, ==, 9);
  g_assert_true (back->has_view && back->view_scale == doc->view_scale);
  /* The fold members come back as they went. */
  g_assert_true (back->has_fold && back->psi_a[0] == 0.25 && back->psi_a[1] == -0.1);
  g_assert_cmpstr (back->fold_backend, ==, "cpu");
  g_assert_true (back->has_fold_speed && !back->fold_speed_from_grid && back->fold_speed == 1.25);
  g_assert_true (back->has_fold_levels && back->fold_delta == 0.05 && back->fold_count == 12);
  g_assert_true (back->has_fold_bands && back->fold_bands);
  g_assert_nonnull (back->fold_horizon);
  g_assert_cmpuint (back->fold_horizon->len, ==, 3);
  g_assert_cmpmem (back->fold_horizon->data, 3 * sizeof (FrVertex),
                   doc->fold_horizon->data, 3 * sizeof (FrVertex));
  g_assert_nonnull (back->fold_characteristics);
  g_assert_cmpuint (back->fold_characteristics->len, ==, 2);
  g_assert_cmpmem (back->fold_characteristics->data, 2 * sizeof (FrVertex),
                   doc->fold_characteristics->data, 2 * sizeof (FrVertex));
  g_assert_true (back->has_mode && back->folds_mode);
  /* And so do the display settings. */
  g_assert_true (back->has_display);
  g_assert_cmpfloat (back->display_interval, ==, 0.02);
  g_assert_cmpstr (back->display_colormap, ==, "magma");
  g_assert_true (back->display_wavefront);
  g_assert_cmpfloat (back->display_wavefront_time, ==, 0.45);
  g_assert_true (fr_scene_doc_save (back, b, &error));
  ta = read_text (a);
  tb = read_text (b);
  g_assert_cmpstr (ta, ==, tb);
  g_assert_nonnull (strstr (ta, "\"display\": {\"interval\": 0.02, \"colormap\": \"magma\", "
                                "\"wavefront\": true, \"wavefront_time\": 0.45}"));
  g_assert_nonnull (strstr (ta, "\"mode\": \"folds\""));

  /* A cleared horizon stays cleared (written empty, not left out), and
   * Rays mode is written as such; without "mode" none is written. */
  g_array_set_size (back->fold_horizon, 0);
  back->folds_mode = FALSE;
  g_assert_true (fr_scene_doc_save (back, b, &error));
  {
    g_autoptr(FrSceneDoc) cleared = fr_scene_doc_load (b, &error);
    g_autofree char *tc = read_text (b);
    g_autofree char *tn = NULL;

    g_assert_no_error (error);
    g_assert_nonnull (cleared->fold_horizon);
    g_assert_cmpuint (cleared->fold_horizon->len, ==, 0);
    g_assert_true (cleared->has_mode && !cleared->folds_mode);
    g_assert_nonnull (strstr (tc, "\"horizon\": []"));
    g_assert_nonnull (strstr (tc, "\"mode\": \"rays\""));
    cleared->has_mode = FALSE;
    tn = fr_scene_doc_to_json (cleared, dir);
    g_assert_null (strstr (tn, "\"mode\""));
  }
  /* The background sits beside the scene, so it is written relative. */
  g_assert_nonnull (strstr (ta, "\"path\": \"bg.npy\""));

  for (guint i = 0; i < G_N_ELEMENTS (bundled); i++)
    {
      g_autofree char *path = scene_path (bundled[i]);
      g_autoptr(FrSceneDoc) d1 = fr_scene_doc_load (path, &error);
      g_autoptr(FrSceneDoc) d2 = NULL;
      g_autofree char *j1 = NULL, *j2 = NULL;

      g_assert_no_error (error);
      j1 = fr_scene_doc_to_json (d1, dir);
      d2 = fr_scene_doc_parse (j1, -1, bundled[i], dir, &error);
      g_assert_no_error (error);
      j2 = fr_scene_doc_to_json (d2, dir);
      g_assert_cmpstr (j1, ==, j2);
      g_assert_true (fr_model_equal (d1->model, d2->model));
    }
  test_tmpdir_remove (dir);
}

#define HEAD "{\"format\": \"foldray-scene\", \"version\": 1, "
#define GRID "\"grid\": {\"nx\": 10, \"nz\": 10, \"spacing\": [0.1, 0.1]}"

static void
test_malformed (void)
{
  static const struct {
    const char *text;
    int code;
    const char *says;
  } cases[] = {
    { "{\"format\": \"foldray-scene\", \"version\": 1,", FR_SCENE_FILE_ERROR_MALFORMED, "not valid JSON" },
    /* Where, in the user's terms (json-glib says "<data>:2:14: Parse error: "). */
    { "{\"format\": \"foldray-scene\",\n \"version\": 1 2}", FR_SCENE_FILE_ERROR_MALFORMED, "not valid JSON at line 2, column" },
    /* json-glib quotes the token cut inside "·" (c2 b7): the quote ends
     * before it (it ended in U+FFFD). */
    { "{\"t\": \"abcdefghijklmnopqrstuvwxyzab\\u00b7z \"d\"}", FR_SCENE_FILE_ERROR_MALFORMED,
      "not valid JSON at line 1, column 44 (invalid string constant \"abcdefghijklmnopqrstuvwxyzab\", expected" },
    /* A title of "é" and of "ψ" before a syntax error, cut after the
     * first byte of one, and after a whole one and the next's first. */
    { "{\"title\": \"éééééééééééééééééééééééééééééééééééééééé\" x}", FR_SCENE_FILE_ERROR_MALFORMED,
      "(invalid string constant \"éééééééééééééé\", expected" },
    { "{\"title\": \"ψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψ\" \"d\"}", FR_SCENE_FILE_ERROR_MALFORMED,
      "(unexpected string constant \"ψψψψψψψψψψψψψψψψψψ\", expected" },
    { "{\"title\": \"aaψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψψ\" \"d\"}", FR_SCENE_FILE_ERROR_MALFORMED,
      "(unexpected string constant \"aaψψψψψψψψψψψψψψψψψ\", expected" },
    { HEAD "\"grid\": {\"nx\": 100000, \"nz\": 100000, \"spacing\": [1, 1]}}", FR_SCENE_FILE_ERROR_INVALID, "grid of 100000 x 100000 nodes is too large" },
    /* Coordinates whose differences overflow: the layer would be lost. */
    { HEAD GRID ", \"layers\": [{\"velocity\": 1, \"interface\": [[-1e308, 1e308], [1e308, -1e308]]}]}", FR_SCENE_FILE_ERROR_INVALID, "point 1 of “interface” in layer 1 lies too far out" },
    { HEAD GRID ", \"sources\": [[0, 2e150]]}", FR_SCENE_FILE_ERROR_INVALID, "too far out" },
    { HEAD GRID ", \"background\": {\"path\": \"/\"}}", FR_SCENE_FILE_ERROR_INVALID, "is not a file" },
    /* json-glib 1.6 reads "\377" as the byte 0xff: a title that is not
     * UTF-8 reached the window and made a save that could not be opened. */
    { HEAD GRID ", \"title\": \"a\\377b\"}", FR_SCENE_FILE_ERROR_MALFORMED, "“title” in scene is not UTF-8 text" },
    { HEAD GRID ", \"background\": {\"path\": \"\\377.npy\", \"spacing\": [1, 1]}}", FR_SCENE_FILE_ERROR_MALFORMED,
      "“path” in background is not UTF-8 text" },
    { "", FR_SCENE_FILE_ERROR_NOT_A_SCENE, "not a Foldray scene" },
    { "[1, 2]", FR_SCENE_FILE_ERROR_NOT_A_SCENE, "expected a JSON object" },
    { "{\"version\": 1}", FR_SCENE_FILE_ERROR_NOT_A_SCENE, "format" },
    { "{\"format\": \"foldray-fold\", \"version\": 1}", FR_SCENE_FILE_ERROR_NOT_A_SCENE, "foldray-scene" },
    { "{\"format\": 7, \"version\": 1}", FR_SCENE_FILE_ERROR_MALFORMED, "must be a string" },
    { "{\"format\": \"foldray-scene\"}", FR_SCENE_FILE_ERROR_MALFORMED, "version" },
    { "{\"format\": \"foldray-scene\", \"version\": \"1\"}", FR_SCENE_FILE_ERROR_MALFORMED, "version" },
    { "{\"format\": \"foldray-scene\", \"version\": 1.5}", FR_SCENE_FILE_ERROR_MALFORMED, "version" },
    { "{\"format\": \"foldray-scene\", \"version\": 2, " GRID "}", FR_SCENE_FILE_ERROR_NEWER_VERSION, "version 2" },
    { HEAD "\"layers\": []}", FR_SCENE_FILE_ERROR_MALFORMED, "no “grid”" },
    { HEAD "\"grid\": [1]}", FR_SCENE_FILE_ERROR_MALFORMED, "“grid” must be an object" },
    { HEAD "\"grid\": {\"nx\": 0, \"nz\": 10, \"spacing\": [1, 1]}}", FR_SCENE_FILE_ERROR_INVALID, "nx" },
    { HEAD "\"grid\": {\"nx\": 2.5, \"nz\": 10, \"spacing\": [1, 1]}}", FR_SCENE_FILE_ERROR_MALFORMED, "nx" },
    { HEAD "\"grid\": {\"nx\": 10, \"nz\": 10}}", FR_SCENE_FILE_ERROR_MALFORMED, "spacing" },
    { HEAD "\"grid\": {\"nx\": 10, \"nz\": 10, \"spacing\": [1, -1]}}", FR_SCENE_FILE_ERROR_INVALID, "grid" },
    { HEAD "\"grid\": {\"nx\": 10, \"nz\": 10, \"spacing\": [1]}}", FR_SCENE_FILE_ERROR_MALFORMED, "two numbers" },
    /* A spacing no solve's times could hold, refused on reading as a
     * sidecar's is: only the solve refused it, once the scene was open. */
    { HEAD "\"grid\": {\"nx\": 10, \"nz\": 10, \"spacing\": [1e-320, 1e-320]}}", FR_SCENE_FILE_ERROR_INVALID,
      "the “grid” spacing 9.99989e-321 gives times below double's range" },
    /* Even where a gradient may take a layer's velocity to its clamp, 1e-6. */
    { HEAD "\"grid\": {\"nx\": 10, \"nz\": 10, \"spacing\": [1, 1e-320]}, \"layers\": [{\"velocity\": 2, "
      "\"dvdz\": -1, \"interface\": [[0, 0]]}]}", FR_SCENE_FILE_ERROR_INVALID,
      "even at the scene's least velocity or fold speed, 1e-06" },
    { HEAD GRID ", \"layers\": {}}", FR_SCENE_FILE_ERROR_MALFORMED, "“layers”" },
    { HEAD GRID ", \"layers\": [3]}", FR_SCENE_FILE_ERROR_MALFORMED, "layer 1" },
    { HEAD GRID ", \"layers\": [{\"interface\": [[0, 0]]}]}", FR_SCENE_FILE_ERROR_MALFORMED, "velocity" },
    { HEAD GRID ", \"layers\": [{\"velocity\": 1}]}", FR_SCENE_FILE_ERROR_MALFORMED, "interface" },
    { HEAD GRID ", \"layers\": [{\"velocity\": 1, \"dvdx_from\": \"left\", \"interface\": [[0, 0]]}]}",
      FR_SCENE_FILE_ERROR_MALFORMED, "“dvdx_from” in layer 1 must be a number" },
    { HEAD GRID ", \"layers\": [{\"velocity\": -1, \"interface\": [[0, 0]]}]}", FR_SCENE_FILE_ERROR_INVALID, "top velocity" },
    /* Below the least velocity a layer is solved at: it would be raised to it. */
    { HEAD GRID ", \"layers\": [{\"velocity\": 1e-7, \"interface\": [[0, 0]]}]}", FR_SCENE_FILE_ERROR_INVALID,
      "layer 1: the top velocity 1e-07 is below 1e-06" },
    { HEAD GRID ", \"layers\": [{\"velocity\": 1, \"interface\": [[1, 0], [0, 1]]}]}", FR_SCENE_FILE_ERROR_INVALID, "increasing x" },
    { HEAD GRID ", \"layers\": [{\"velocity\": 1, \"interface\": [[1, 0, 3]]}]}", FR_SCENE_FILE_ERROR_MALFORMED, "[x, z]" },
    { HEAD GRID ", \"obstacles\": [{\"velocity\": 0, \"vertices\": [[0, 0], [1, 1]]}]}", FR_SCENE_FILE_ERROR_INVALID, "3 vertices" },
    { HEAD GRID ", \"obstacles\": [{\"velocity\": -2, \"vertices\": [[0, 0], [1, 1], [0, 1]]}]}", FR_SCENE_FILE_ERROR_INVALID, "velocity" },
    { HEAD GRID ", \"obstacles\": [{\"shape\": \"star\", \"velocity\": 0, \"vertices\": [[0, 0], [1, 1], [0, 1]]}]}", FR_SCENE_FILE_ERROR_INVALID, "star" },
    { HEAD GRID ", \"obstacles\": [{\"shape\": \"rectangle\", \"velocity\": 0, \"vertices\": [[0, 0], [1, 1], [0, 1]]}]}", FR_SCENE_FILE_ERROR_INVALID, "4 vertices" },
    { HEAD GRID ", \"background\": {\"path\": \"nowhere.npy\"}}", FR_SCENE_FILE_ERROR_MISSING_GRID, "nowhere.npy" },
    { HEAD GRID ", \"background\": {\"format\": \"npy\"}}", FR_SCENE_FILE_ERROR_MALFORMED, "path" },
    { HEAD GRID ", \"background\": {\"path\": \"x\", \"format\": \"tiff\"}}", FR_SCENE_FILE_ERROR_INVALID, "tiff" },
    { HEAD GRID ", \"sources\": [[0, \"a\"]]}", FR_SCENE_FILE_ERROR_MALFORMED, "sources" },
    { HEAD GRID ", \"solver\": {\"radius\": 0}}", FR_SCENE_FILE_ERROR_INVALID, "radius" },
    { HEAD GRID ", \"solver\": {\"radius\": [3, 0]}}", FR_SCENE_FILE_ERROR_INVALID,
      "the solver radius must be a whole number from 1 to 1000" },
    { HEAD GRID ", \"solver\": {\"radius\": [2.5, 3]}}", FR_SCENE_FILE_ERROR_INVALID, "whole number" },
    { HEAD GRID ", \"solver\": {\"radius\": [3, 1001]}}", FR_SCENE_FILE_ERROR_INVALID, "1000" },
    { HEAD GRID ", \"solver\": {\"radius\": [3]}}", FR_SCENE_FILE_ERROR_MALFORMED,
      "the solver radius must be a number of nodes, or two [along x, along z]" },
    { HEAD GRID ", \"solver\": {\"radius\": [3, 4, 5]}}", FR_SCENE_FILE_ERROR_MALFORMED, "[along x, along z]" },
    { HEAD GRID ", \"solver\": {\"radius\": [3, \"4\"]}}", FR_SCENE_FILE_ERROR_MALFORMED, "[along x, along z]" },
    { HEAD GRID ", \"solver\": {\"radius\": \"5\"}}", FR_SCENE_FILE_ERROR_MALFORMED, "[along x, along z]" },
    { HEAD GRID ", \"solver\": {\"backend\": \"gpu\"}}", FR_SCENE_FILE_ERROR_INVALID, "gpu" },
    { HEAD GRID ", \"fold\": {\"method\": \"fmm\"}}", FR_SCENE_FILE_ERROR_INVALID, "fmm" },
    { HEAD GRID ", \"fold\": {\"backend\": \"dijkstra\"}}", FR_SCENE_FILE_ERROR_INVALID, "dijkstra" },
    { HEAD GRID ", \"fold\": {\"speed\": \"fast\"}}", FR_SCENE_FILE_ERROR_MALFORMED, "speed" },
    { HEAD GRID ", \"fold\": {\"speed\": 0}}", FR_SCENE_FILE_ERROR_INVALID, "speed" },
    { HEAD GRID ", \"fold\": {\"speed\": 2, \"speed_constant\": 1}}", FR_SCENE_FILE_ERROR_INVALID,
      "“speed_constant” in fold goes with “speed”: “grid” only" },
    { HEAD GRID ", \"fold\": {\"speed_constant\": 1}}", FR_SCENE_FILE_ERROR_INVALID, "speed_constant" },
    { HEAD GRID ", \"fold\": {\"speed\": \"grid\", \"speed_constant\": 0}}", FR_SCENE_FILE_ERROR_INVALID,
      "speed must be positive" },
    { HEAD GRID ", \"fold\": {\"speed\": \"grid\", \"speed_constant\": \"x\"}}",
      FR_SCENE_FILE_ERROR_MALFORMED, "“speed_constant” in fold must be a number" },
    { HEAD GRID ", \"fold\": {\"delta\": 0.1}}", FR_SCENE_FILE_ERROR_MALFORMED, "count" },
    { HEAD GRID ", \"fold\": {\"delta\": -1, \"count\": 3}}", FR_SCENE_FILE_ERROR_INVALID, "delta" },
    { HEAD GRID ", \"fold\": {\"delta\": 0.1, \"count\": -3}}", FR_SCENE_FILE_ERROR_INVALID, "count" },
    { HEAD GRID ", \"fold\": {\"bands\": 1}}", FR_SCENE_FILE_ERROR_MALFORMED, "bands" },
    { HEAD GRID ", \"fold\": {\"horizon\": [[0, 1, 2]]}}", FR_SCENE_FILE_ERROR_MALFORMED, "horizon" },
    { HEAD GRID ", \"fold\": {\"characteristics\": [[0]]}}", FR_SCENE_FILE_ERROR_MALFORMED,
      "point 1 of “characteristics” in fold must be [x, z]" },
    { HEAD GRID ", \"fold\": {\"characteristics\": [[1e300, 0]]}}", FR_SCENE_FILE_ERROR_INVALID,
      "too far out" },
    { HEAD GRID ", \"obstacles\": [{\"shape\": \"rectangle\", \"velocity\": 0, \"vertices\": "
      "[[0.1, 0.1], [0.5, 0.2], [0.5, 0.6], [0.1, 0.6]]}]}", FR_SCENE_FILE_ERROR_INVALID,
      "obstacle 1: a rectangle's corners run (x0, z0), (x1, z0), (x1, z1), (x0, z1)" },
    { HEAD GRID ", \"mode\": 2}", FR_SCENE_FILE_ERROR_MALFORMED, "“mode” in scene must be a string" },
    { HEAD GRID ", \"mode\": \"fold\"}", FR_SCENE_FILE_ERROR_INVALID, "the mode “fold” is unknown (rays or folds)" },
    { HEAD GRID ", \"view\": {\"cx\": 0, \"cz\": 0, \"scale\": 0}}", FR_SCENE_FILE_ERROR_INVALID, "scale" },
    { HEAD GRID ", \"default_velocity\": 0}", FR_SCENE_FILE_ERROR_INVALID, "default velocity" },
    { HEAD GRID ", \"display\": 3}", FR_SCENE_FILE_ERROR_MALFORMED, "“display” must be an object" },
    { HEAD GRID ", \"display\": {\"interval\": \"0.1\"}}", FR_SCENE_FILE_ERROR_MALFORMED, "“interval” in display must be a number" },
    { HEAD GRID ", \"display\": {\"interval\": -0.01}}", FR_SCENE_FILE_ERROR_INVALID, "“interval” must be from 0 to 100 (0 hides the isochrons), not -0.01" },
    { HEAD GRID ", \"display\": {\"interval\": 250}}", FR_SCENE_FILE_ERROR_INVALID, "from 0 to 100 (0 hides the isochrons), not 250" },
    { HEAD GRID ", \"display\": {\"colormap\": \"jet\"}}", FR_SCENE_FILE_ERROR_INVALID, "the colour map “jet” is unknown (known: viridis, cividis, magma)" },
    { HEAD GRID ", \"display\": {\"colormap\": \"Viridis\"}}", FR_SCENE_FILE_ERROR_INVALID, "“Viridis” is unknown" },
    { HEAD GRID ", \"display\": {\"colormap\": 2}}", FR_SCENE_FILE_ERROR_MALFORMED, "“colormap” in display must be a string" },
    { HEAD GRID ", \"display\": {\"wavefront\": \"yes\"}}", FR_SCENE_FILE_ERROR_MALFORMED, "“wavefront” in display must be true or false" },
    { HEAD GRID ", \"display\": {\"wavefront\": 1}}", FR_SCENE_FILE_ERROR_MALFORMED, "“wavefront” in display must be true or false" },
    { HEAD GRID ", \"display\": {\"wavefront_time\": -1}}", FR_SCENE_FILE_ERROR_INVALID, "“wavefront_time” must be 0 or more, not -1" },
    { HEAD GRID ", \"display\": {\"wavefront_time\": null}}", FR_SCENE_FILE_ERROR_MALFORMED, "“wavefront_time” in display must be a number" },
    { HEAD GRID ", \"units\": \"km\"}", FR_SCENE_FILE_ERROR_MALFORMED, "“units” must be an object" },
    { HEAD GRID ", \"units\": {\"length\": 1000}}", FR_SCENE_FILE_ERROR_MALFORMED, "“length” in units must be a string" },
    { HEAD GRID ", \"units\": {\"length\": \"mi\"}}", FR_SCENE_FILE_ERROR_INVALID, "the length unit “mi” is unknown (known: m, km, ft, or \"\" for none)" },
    { HEAD GRID ", \"units\": {\"length\": \"KM\"}}", FR_SCENE_FILE_ERROR_INVALID, "“KM” is unknown" },
  };
  g_autofree char *dir = make_tmpdir ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (cases[i].text, -1, "bad.json", dir, &error);

      if (doc != NULL || error == NULL || error->code != cases[i].code ||
          strstr (error->message, cases[i].says) == NULL ||
          !g_utf8_validate (error->message, -1, NULL) ||
          /* No character cut into U+FFFD. */
          strstr (error->message, "\xef\xbf\xbd") != NULL ||
          !g_str_has_prefix (error->message, "bad.json: "))
        g_error ("case %u (%s): got %s (code %d)", i, cases[i].text,
                 error != NULL ? error->message : "no error", error != NULL ? error->code : -1);
    }
  /* A minimal scene is fine. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (HEAD GRID "}", -1, "ok.json", dir, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (doc->model->grid.nx, ==, 10);
  }
  /* A spacing that fine is the scene's own where its velocities are as
   * small: the times, 1e-300, are in range. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (HEAD "\"grid\": {\"nx\": 10, \"nz\": 10, "
                                                    "\"spacing\": [1e-310, 1e-310]}, "
                                                    "\"default_velocity\": 1e-10}", -1, "ok.json",
                                                    dir, &error);

    g_assert_no_error (error);
    g_assert_cmpfloat (doc->model->grid.dx, ==, 1e-310);
  }
  /* A missing file is an I/O error naming it. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);

    g_assert_null (fr_scene_doc_load (missing, &error));
    g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO);
  }
  test_tmpdir_remove (dir);
}

/* json-glib words its parse errors in the user's language ("<data>:2:14:
 * Verarbeitungsfehler: …" under German): the line and column are still
 * found, and its label does not reach the message. */
static void
test_malformed_translated (void)
{
  static const char text[] = "{\"format\": \"foldray-scene\",\n \"version\": 1 2}";
  g_autofree char *saved_locale = g_strdup (setlocale (LC_ALL, NULL));
  g_autofree char *saved_language = g_strdup (g_getenv ("LANGUAGE"));
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *label = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) raw = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FrSceneDoc) doc = NULL;
  int line = 0, column = 0, end = 0;

  /* C.UTF-8 is not "C", so gettext follows LANGUAGE there. */
  if (setlocale (LC_ALL, "C.UTF-8") != NULL)
    {
      g_setenv ("LANGUAGE", "de", TRUE);
      g_assert_false (json_parser_load_from_data (parser, text, -1, &raw));
      doc = fr_scene_doc_parse (text, -1, "bad.json", dir, &error);
    }
  if (saved_language != NULL)
    g_setenv ("LANGUAGE", saved_language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, saved_locale);
  test_tmpdir_remove (dir);
  if (raw == NULL || strstr (raw->message, "Parse error") != NULL)
    {
      g_test_skip ("json-glib's German catalogue (libjson-glib-1.0-common) is not installed");
      return;
    }
  g_assert_cmpint (sscanf (raw->message, "<data>:%d:%d: %n", &line, &column, &end), ==, 2);
  label = g_strndup (raw->message + end, strcspn (raw->message + end, ":"));
  g_assert_null (doc);
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_MALFORMED);
  g_assert_true (g_str_has_prefix (error->message, "bad.json: not valid JSON at line 2, column "));
  g_assert_null (strstr (error->message, "<data>"));
  g_assert_null (strstr (error->message, label));
  g_assert_true (g_str_has_suffix (error->message, ")"));
}

/* "display" is optional, and so is each of its members: what is not
 * given is the default (the side panel's own), and a scene without it is
 * written back without it. */
static void
test_display_defaults (void)
{
  static const struct {
    const char *display;
    gboolean has_display;
    double interval;
    const char *colormap;
    gboolean wavefront;
    double time;
  } cases[] = {
    { "", FALSE, 0.05, "viridis", FALSE, 0.3 },
    { ", \"display\": null", FALSE, 0.05, "viridis", FALSE, 0.3 },
    { ", \"display\": {}", TRUE, 0.05, "viridis", FALSE, 0.3 },
    { ", \"display\": {\"colormap\": \"cividis\"}", TRUE, 0.05, "cividis", FALSE, 0.3 },
    { ", \"display\": {\"interval\": 0, \"wavefront\": true}", TRUE, 0.0, "viridis", TRUE, 0.3 },
    { ", \"display\": {\"interval\": 100, \"wavefront_time\": 12}", TRUE, 100.0, "viridis", FALSE, 12.0 },
    /* Unknown members are ignored, as everywhere in a scene. */
    { ", \"display\": {\"contrast\": 3}", TRUE, 0.05, "viridis", FALSE, 0.3 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (HEAD GRID, cases[i].display, "}", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (text, -1, "ok.json", NULL, &error);
      g_autofree char *json = NULL;

      g_test_message ("case %u: %s", i, text);
      g_assert_no_error (error);
      g_assert_cmpint (doc->has_display, ==, cases[i].has_display);
      g_assert_cmpfloat (doc->display_interval, ==, cases[i].interval);
      g_assert_cmpstr (doc->display_colormap, ==, cases[i].colormap);
      g_assert_cmpint (doc->display_wavefront, ==, cases[i].wavefront);
      g_assert_cmpfloat (doc->display_wavefront_time, ==, cases[i].time);
      json = fr_scene_doc_to_json (doc, NULL);
      g_assert_true ((strstr (json, "\"display\"") != NULL) == cases[i].has_display);
    }

  /* A new document has the defaults too, and writes no "display". */
  {
    g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (NULL);

    g_assert_false (doc->has_display);
    g_assert_cmpfloat (doc->display_interval, ==, FR_SCENE_DISPLAY_INTERVAL);
    g_assert_cmpstr (doc->display_colormap, ==, FR_SCENE_DISPLAY_COLORMAP);
    g_assert_false (doc->display_wavefront);
    g_assert_cmpfloat (doc->display_wavefront_time, ==, FR_SCENE_DISPLAY_WAVEFRONT_TIME);
  }
}

/* Earlier versions saved radii up to 1000.  Such a file still opens, with
 * the radius cut to what the solver takes on any grid; on a grid wider than
 * 101 nodes the solver refused the larger radius and takes the cut one. */
static void
test_radius_cut (void)
{
  static const struct { const char *radius; int expect; } cases[] = {
    { "1", 1 }, { "57", 57 }, { "100", 100 }, { "101", 100 }, { "1000", 100 },
  };
  float v[150 * 3];
  fr_grid g = fr_grid_2d (150, 3, 1.0, 1.0, 0.0, 0.0);
  double src[2] = { 0.0, 0.0 };

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    v[i] = 1.0f;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf (HEAD GRID ", \"solver\": {\"radius\": %s}}", cases[i].radius);
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (text, -1, "old.json", NULL, &error);
      fr_spr_params p;
      fr_spr_result res;
      fr_error err = { 0 };

      g_assert_no_error (error);
      g_assert_cmpint (doc->radius.x, ==, cases[i].expect);
      g_assert_cmpint (doc->radius.z, ==, cases[i].expect);
      fr_spr_params_init (&p);
      p.rx = doc->radius.x;
      p.rz = doc->radius.z;
      p.backend = FR_SPR_DIJKSTRA;
      g_assert_cmpint (fr_spr_solve (&g, v, src, 1, &p, &res, &err), ==, FR_OK);
      fr_spr_result_clear (&res);
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (HEAD GRID ", \"solver\": {\"radius\": 1001}}", -1,
                                                    "old.json", NULL, &error);

    g_assert_null (doc);
    g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID);
  }
}

/* A radius of two counts, [x, z], is read and written as such; one that
 * is the same along both axes is written as one number, which every earlier
 * version reads.  A count above the solver's bound is cut along its axis
 * only. */
static void
test_radius_per_axis (void)
{
  static const struct { const char *radius; int x, z; const char *written; } cases[] = {
    { "[3, 7]", 3, 7, "\"radius\": [3, 7]," },
    { "[7, 3]", 7, 3, "\"radius\": [7, 3]," },
    { "[6, 6]", 6, 6, "\"radius\": 6," },
    { "6", 6, 6, "\"radius\": 6," },
    { "[2, 1000]", 2, 100, "\"radius\": [2, 100]," },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf (HEAD GRID ", \"solver\": {\"radius\": %s}}", cases[i].radius);
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (text, -1, "axes.json", NULL, &error);
      g_autofree char *written = NULL;

      g_assert_no_error (error);
      g_assert_cmpint (doc->radius.x, ==, cases[i].x);
      g_assert_cmpint (doc->radius.z, ==, cases[i].z);
      written = fr_scene_doc_to_json (doc, NULL);
      g_assert_nonnull (strstr (written, cases[i].written));
    }
}

static guint
count_files (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  g_dir_close (d);
  return n;
}

/* The bundled gradient scene opens as the README's screenshot shows it
 * (magma, isochrons every 0.02 s; data/scenes/make-scenes.py writes it);
 * the others keep the defaults. */
static void
test_bundled_display (void)
{
  static const struct {
    const char *name;
    gboolean has_display;
    double interval;
    const char *colormap;
  } cases[] = {
    { "gradient.json", TRUE, 0.02, "magma" },
    { "three-layer.json", FALSE, FR_SCENE_DISPLAY_INTERVAL, FR_SCENE_DISPLAY_COLORMAP },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = scene_path (cases[i].name);
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_load (path, &error);

      g_assert_no_error (error);
      g_assert_cmpint (doc->has_display, ==, cases[i].has_display);
      g_assert_cmpfloat (doc->display_interval, ==, cases[i].interval);
      g_assert_cmpstr (doc->display_colormap, ==, cases[i].colormap);
      g_assert_false (doc->display_wavefront);
      g_assert_cmpfloat (doc->display_wavefront_time, ==, FR_SCENE_DISPLAY_WAVEFRONT_TIME);
    }
}

/* "units" is optional: {"length": "m" | "km" | "ft" | ""}.  What is given
 * is read and written back as it was (a scene without it, without it);
 * the bundled scenes are in km (data/scenes/make-scenes.py). */
static void
test_units (void)
{
  static const struct {
    const char   *units;
    gboolean      has_units;
    FrLengthUnit  unit;
    const char   *written;
  } cases[] = {
    { "", FALSE, FR_LENGTH_UNIT_NONE, NULL },
    { ", \"units\": null", FALSE, FR_LENGTH_UNIT_NONE, NULL },
    { ", \"units\": {}", TRUE, FR_LENGTH_UNIT_NONE, "\"units\": {\"length\": \"\"}" },
    { ", \"units\": {\"length\": \"\"}", TRUE, FR_LENGTH_UNIT_NONE, "\"units\": {\"length\": \"\"}" },
    { ", \"units\": {\"length\": \"m\"}", TRUE, FR_LENGTH_UNIT_M, "\"units\": {\"length\": \"m\"}" },
    { ", \"units\": {\"length\": \"km\"}", TRUE, FR_LENGTH_UNIT_KM, "\"units\": {\"length\": \"km\"}" },
    /* Unknown members are ignored, as everywhere in a scene. */
    { ", \"units\": {\"length\": \"ft\", \"time\": \"ms\"}", TRUE, FR_LENGTH_UNIT_FT,
      "\"units\": {\"length\": \"ft\"}" },
  };
  static const char *bundled[] = { "three-layer.json", "gradient.json", "syncline-salt.json",
                                   "ex-b-maze.json", "ex-c-maze.json" };
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "units.json", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (HEAD GRID, cases[i].units, "}", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (text, -1, "ok.json", NULL, &error);
      g_autoptr(FrSceneDoc) back = NULL;
      g_autofree char *json = NULL, *again = NULL;

      g_test_message ("case %u: %s", i, text);
      g_assert_no_error (error);
      g_assert_cmpint (doc->has_units, ==, cases[i].has_units);
      g_assert_cmpint (doc->length_unit, ==, cases[i].unit);
      /* Saved, loaded and saved again: the same member, the same bytes. */
      g_assert_true (fr_scene_doc_save (doc, path, &error));
      g_assert_no_error (error);
      json = read_text (path);
      if (cases[i].written != NULL)
        g_assert_nonnull (strstr (json, cases[i].written));
      else
        g_assert_null (strstr (json, "\"units\""));
      back = fr_scene_doc_load (path, &error);
      g_assert_no_error (error);
      g_assert_cmpint (back->has_units, ==, cases[i].has_units);
      g_assert_cmpint (back->length_unit, ==, cases[i].unit);
      again = fr_scene_doc_to_json (back, dir);
      g_assert_cmpstr (again, ==, json);
    }

  /* The names, both ways. */
  for (guint u = 0; u < FR_N_LENGTH_UNITS; u++)
    {
      FrLengthUnit back = FR_N_LENGTH_UNITS;

      g_assert_true (fr_length_unit_from_id (fr_length_unit_get_id (u), &back));
      g_assert_cmpint (back, ==, u);
    }
  g_assert_cmpstr (fr_length_unit_get_id (FR_LENGTH_UNIT_KM), ==, "km");
  g_assert_false (fr_length_unit_from_id ("mi", NULL));

  /* A new document has none, and writes no "units". */
  {
    g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (NULL);

    g_assert_false (doc->has_units);
    g_assert_cmpint (doc->length_unit, ==, FR_LENGTH_UNIT_NONE);
  }

  for (guint i = 0; i < G_N_ELEMENTS (bundled); i++)
    {
      g_autofree char *bpath = scene_path (bundled[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_load (bpath, &error);

      g_assert_no_error (error);
      g_assert_true (doc->has_units);
      g_assert_cmpint (doc->length_unit, ==, FR_LENGTH_UNIT_KM);
    }
  test_tmpdir_remove (dir);
}

static void
test_atomic_save (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "scene.json", NULL);
  g_autoptr(FrSceneDoc) doc = full_doc (dir);
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL, *after = NULL;
  struct rlimit old, small;
  guint files;

  g_assert_true (fr_scene_doc_save (doc, path, &error));
  before = read_text (path);
  files = count_files (dir);

  /* Make the scene bigger than the file-size limit we set now: the write
   * of the temporary file fails with EFBIG half-way. */
  for (int i = 0; i < 200; i++)
    {
      FrVertex p = { 0.01 * i, 0.5 };
      g_array_append_val (doc->receivers, p);
    }
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old), ==, 0);
  signal (SIGXFSZ, SIG_IGN);
  small = old;
  small.rlim_cur = strlen (before) + 100;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
  g_assert_false (fr_scene_doc_save (doc, path, &error));
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old), ==, 0);
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO);

  /* The old file is whole and no temporary file is left behind. */
  after = read_text (path);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (count_files (dir), ==, files);
  test_tmpdir_remove (dir);
}

/* A scene of HEAD GRID with a background at bg_path (as written in it). */
static void
write_bg_scene (const char *path, const char *bg_path)
{
  g_autoptr(GString) text = g_string_new (HEAD GRID ", \"background\": {\"path\": \"");

  g_string_append (text, bg_path);
  g_string_append (text, "\", \"spacing\": [1, 1]}}");
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
}

/* The background a scene file refers to, loaded: the grid's path. */
static char *
loaded_background (const char *scene)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_load (scene, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc->model->background);
  return g_strdup (doc->model->background->path);
}

/* Numbers are written as the shortest text that reads back, and plain
 * where %g would write an exponent for a whole number of many digits:
 * UTM coordinates came out "5.12e+05", a spacing of 10 "1e+01"
 * (helper-60).  Every text reads back to its double. */
static void
test_format_shortest (void)
{
  static const struct { double v; const char *text; } cases[] = {
    { 512000.0, "512000" }, { 10.0, "10" }, { 1500.0, "1500" }, { 517250.0, "517250" },
    { -250000.0, "-250000" }, { 0.03, "0.03" }, { 2350.25, "2350.25" }, { -0.0, "0" },
    { 514502.6206896552, "514502.6206896552" }, { 1e-5, "1e-05" }, { 1e20, "1e+20" },
    { 3e15, "3000000000000000" },
  };
  g_autoptr(GRand) r = g_rand_new_with_seed (60);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpstr (fr_format_shortest (buf, cases[i].v), ==, cases[i].text);
  for (int i = 0; i < 20000; i++)
    {
      double v = g_rand_double_range (r, -1.0, 1.0) * pow (10.0, g_rand_int_range (r, -20, 25));

      if (i % 3 == 0)
        v = round (v);
      fr_format_shortest (buf, v);
      g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, v);
      if (fabs (v) >= 1.0 && fabs (v) < 1e15 && v == round (v))
        g_assert_null (strchr (buf, 'e'));
    }
}

/* A scene file is read to 64 MiB, not whole: /dev/zero named as a scene
 * took memory until none was left (helper-57). */
static void
test_scene_too_large (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_load ("/dev/zero", &error);

  g_assert_null (doc);
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_MALFORMED);
  g_assert_nonnull (strstr (error->message, "/dev/zero is larger than 64 MiB"));
}

/* A background's "origin" counts without "spacing" too (it was read
 * only beside a spacing); the spacing is then the file's sidecar's.  With
 * neither a sidecar nor a "spacing" the scene is refused, naming both:
 * the grid was placed at spacing 1, without a word (helper-59). */
static void
test_background_origin (void)
{
  fr_grid bg = fr_grid_2d (6, 4, 1.0, 1.0, 0.0, 0.0);
  float v[24];
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *npy = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *sidecar = g_build_filename (dir, "v.json", NULL);
  g_autofree char *scene = g_build_filename (dir, "s.json", NULL);
  g_autoptr(FrSceneDoc) doc = NULL;
  g_autoptr(GError) error = NULL;
  const fr_grid *got;

  for (int i = 0; i < 24; i++)
    v[i] = 1.0f + 0.1f * i;
  write_npy (npy, &bg, v);
  g_assert_true (g_file_set_contents (scene, HEAD GRID ", \"background\": {\"path\": \"v.npy\", "
                                      "\"origin\": [2, -3]}}", -1, NULL));
  doc = fr_scene_doc_load (scene, &error);
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "no spacing"));
  g_assert_nonnull (strstr (error->message, "v.json"));
  g_assert_null (doc);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (sidecar, "{\"spacing\": [0.5, 0.25], \"origin\": [7, 7]}", -1, NULL));
  doc = fr_scene_doc_load (scene, &error);
  g_assert_no_error (error);
  got = &doc->model->background->grid;
  g_assert_cmpfloat (got->x0, ==, 2.0);
  g_assert_cmpfloat (got->z0, ==, -3.0);
  g_assert_cmpfloat (got->dx, ==, 0.5);
  g_assert_cmpfloat (got->dz, ==, 0.25);
  test_tmpdir_remove (dir);
}

/* A background path with ".." is taken normalised, and written relative
 * to wherever the scene is saved without running through the folder the
 * ".." left: renaming that folder later breaks nothing. */
static void
test_background_updir (void)
{
  fr_grid bg = fr_grid_2d (6, 4, 0.5, 0.25, 0.0, 0.0);
  float v[24];
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *sc = g_build_filename (dir, "sc", NULL);
  g_autofree char *grids = g_build_filename (sc, "dir with space", "grids", NULL);
  g_autofree char *npy = g_build_filename (grids, "v.npy", NULL);
  g_autofree char *want = g_canonicalize_filename (npy, NULL);
  g_autofree char *other = g_build_filename (sc, "other", NULL);
  g_autofree char *renamed = g_build_filename (sc, "renamed", NULL);
  g_autofree char *updir = g_build_filename (other, "updir.json", NULL);
  g_autofree char *again = g_build_filename (other, "again.json", NULL);
  g_autofree char *again_moved = g_build_filename (renamed, "again.json", NULL);
  g_autofree char *moved = g_build_filename (sc, "dir with space", "moved.json", NULL);
  g_autofree char *elsewhere = g_build_filename (sc, "elsewhere.json", NULL);
  g_autofree char *via_gone = g_build_filename (sc, "via-gone.json", NULL);
  g_autofree char *abs_updir = g_build_filename (other, "..", "dir with space", "grids", "v.npy", NULL);
  g_autofree char *deep = g_build_filename (sc, "a", "b", NULL);
  g_autoptr(FrSceneDoc) doc = NULL;
  g_autoptr(GError) error = NULL;
  const struct {
    const char *scene;
    const char *written;
  } cases[] = {
    { moved, "\"path\": \"grids/v.npy\"" },
    { elsewhere, "\"path\": \"dir with space/grids/v.npy\"" },
    /* Beside the scene's folder: relative, with "..", as it came. */
    { again, "\"path\": \"../dir with space/grids/v.npy\"" },
  };

  for (int i = 0; i < 24; i++)
    v[i] = 1.0f + 0.1f * i;
  g_assert_cmpint (g_mkdir_with_parents (grids, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (other, 0755), ==, 0);
  write_npy (npy, &bg, v);
  write_bg_scene (updir, "../dir with space/grids/v.npy");

  doc = fr_scene_doc_load (updir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (doc->model->background->path, ==, want);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;

      g_assert_true (fr_scene_doc_save (doc, cases[i].scene, &error));
      g_assert_no_error (error);
      text = read_text (cases[i].scene);
      g_test_message ("%s: %s", cases[i].scene, text);
      g_assert_nonnull (strstr (text, cases[i].written));
      g_assert_null (strstr (text, "other"));
    }

  /* Written deeper, or somewhere sharing only the root: "../.." or the
   * absolute path, never a ".." folder of the path it came by. */
  {
    g_autofree char *json = fr_scene_doc_to_json (doc, deep);
    g_autofree char *json_abs = fr_scene_doc_to_json (doc, "/nonexistent-foldray-root/scenes");
    g_autofree char *abs_member = g_strdup_printf ("\"path\": \"%s\"", want);

    g_assert_nonnull (strstr (json, "\"path\": \"../../dir with space/grids/v.npy\""));
    g_assert_nonnull (strstr (json_abs, abs_member));
  }

  /* The folder the ".." left is renamed: every saved scene still loads,
   * and so does one naming the grid absolutely through the gone folder. */
  write_bg_scene (via_gone, abs_updir);
  g_assert_cmpint (g_rename (other, renamed), ==, 0);
  {
    const char *scenes[] = { moved, elsewhere, again_moved, via_gone };

    for (guint i = 0; i < G_N_ELEMENTS (scenes); i++)
      {
        g_autofree char *got = loaded_background (scenes[i]);

        g_assert_cmpstr (got, ==, want);
      }
  }
  test_tmpdir_remove (dir);
}

/* Whether path is a symbolic link saying target. */
static void
assert_link (const char *path, const char *target)
{
  g_autofree char *says = g_file_read_link (path, NULL);

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpstr (says, ==, target);
}

/* A scene opened through a symbolic link is saved through it: the link
 * stays, its target gets the new text, and a background beside the
 * target is written relative to the target's folder, so that the link
 * and the target read the same grid. */
static void
test_save_symlink (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *real = g_build_filename (dir, "real", NULL);
  g_autofree char *links = g_build_filename (dir, "links", NULL);
  g_autofree char *target = g_build_filename (real, "s.json", NULL);
  g_autofree char *link = g_build_filename (links, "s.json", NULL);
  g_autofree char *bg = g_build_filename (real, "bg.npy", NULL);
  g_autofree char *bg_want = g_canonicalize_filename (bg, NULL);
  fr_grid g = fr_grid_2d (10, 10, 0.1, 0.1, 0.0, 0.0);
  const char *forms[] = { "../real/s.json", target };

  g_assert_cmpint (g_mkdir (real, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (links, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.5));
      g_autoptr(FrSceneDoc) back = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *t = NULL, *l = NULL;

      g_test_message ("link to %s", forms[i]);
      doc->title = g_strdup ("first");
      g_assert_true (fr_scene_doc_save (doc, target, &error));
      g_assert_cmpint (symlink (forms[i], link), ==, 0);

      back = fr_scene_doc_load (link, &error);
      g_assert_no_error (error);
      g_free (back->title);
      back->title = g_strdup ("second");
      g_assert_true (fr_scene_doc_save (back, link, &error));
      g_assert_no_error (error);

      assert_link (link, forms[i]);
      t = read_text (target);
      l = read_text (link);
      g_assert_nonnull (strstr (t, "\"title\": \"second\""));
      g_assert_cmpstr (l, ==, t);
      /* No temporary file left in either folder. */
      g_assert_cmpuint (count_files (real), ==, 1);
      g_assert_cmpuint (count_files (links), ==, 1);
      g_assert_cmpint (g_unlink (link), ==, 0);
    }

  /* The background beside the target. */
  {
    g_autoptr(FrSceneDoc) doc = full_doc (real);
    g_autoptr(GError) error = NULL;
    g_autofree char *t = NULL, *via_target = NULL, *via_link = NULL;

    g_assert_cmpint (symlink ("../real/s.json", link), ==, 0);
    g_assert_true (fr_scene_doc_save (doc, link, &error));
    g_assert_no_error (error);
    assert_link (link, "../real/s.json");
    t = read_text (target);
    g_assert_nonnull (strstr (t, "\"path\": \"bg.npy\""));
    via_target = loaded_background (target);
    via_link = loaded_background (link);
    g_assert_cmpstr (via_target, ==, bg_want);
    g_assert_cmpstr (via_link, ==, bg_want);
  }
  test_tmpdir_remove (dir);
}

static guint
mode_of (const char *path)
{
  struct stat st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

/* Saving over a file keeps its permissions (a private scene stays
 * private), through a link too, and its owner where the saver may set
 * it; a new file gets 0666 less the umask. */
static void
test_save_mode (void)
{
  static const guint modes[] = { 0600, 0640, 0664 };
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "s.json", NULL);
  g_autofree char *link = g_build_filename (dir, "link.json", NULL);
  fr_grid g = fr_grid_2d (10, 10, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.5));
  g_autoptr(GError) error = NULL;
  mode_t mask = umask (022);

  umask (mask);
  g_assert_true (fr_scene_doc_save (doc, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mode_of (path), ==, 0666 & ~mask);
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_assert_cmpint (g_chmod (path, modes[i]), ==, 0);
      g_assert_true (fr_scene_doc_save (doc, path, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (mode_of (path), ==, modes[i]);
    }

  /* Root saving someone's scene leaves it theirs. */
  if (geteuid () == 0)
    {
      struct stat st;

      g_assert_cmpint (chown (path, 65534, 65534), ==, 0);
      g_assert_true (fr_scene_doc_save (doc, path, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpuint (st.st_uid, ==, 65534);
      g_assert_cmpuint (st.st_gid, ==, 65534);
      g_assert_cmpuint (st.st_mode & 07777, ==, modes[G_N_ELEMENTS (modes) - 1]);
    }

  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_cmpint (symlink ("s.json", link), ==, 0);
  g_assert_true (fr_scene_doc_save (doc, link, &error));
  g_assert_no_error (error);
  assert_link (link, "s.json");
  g_assert_cmpuint (mode_of (path), ==, 0600);
  test_tmpdir_remove (dir);
}

/* An autosave (fr_scene_doc_save_private) is made the owner's alone
 * whatever the umask: it was 0644, readable by all in a state folder
 * that others may read.  A file it replaces keeps its mode, as a save's. */
static void
test_save_private_mode (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "autosave.json", NULL);
  fr_grid g = fr_grid_2d (10, 10, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.5));
  g_autoptr(GError) error = NULL;
  mode_t mask = umask (002);

  g_assert_true (fr_scene_doc_save_private (doc, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mode_of (path), ==, 0600);
  g_assert_cmpint (g_chmod (path, 0640), ==, 0);
  g_assert_true (fr_scene_doc_save_private (doc, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mode_of (path), ==, 0640);
  umask (mask);
  test_tmpdir_remove (dir);
}

/* A save that fails names the file the user saves (the link, if through
 * one), never the temporary file beside it, and says why. */
static void
test_save_error_names_file (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *real = g_build_filename (dir, "real", NULL);
  g_autofree char *path = g_build_filename (dir, "scene.json", NULL);
  g_autofree char *target = g_build_filename (real, "target.json", NULL);
  g_autofree char *link = g_build_filename (dir, "link.json", NULL);
  g_autoptr(FrSceneDoc) doc = full_doc (dir);
  struct rlimit old, small;
  const char *saved[] = { path, link };
  /* The temporary file's name starts with the saved file's; a link's
   * target is not what the user saved either. */
  const char *unnamed[][2] = { { "scene.json.", "scene.json." }, { "link.json.", "target.json" } };

  g_assert_cmpint (g_mkdir (real, 0755), ==, 0);
  g_assert_true (fr_scene_doc_save (doc, target, NULL));
  g_assert_cmpint (symlink (target, link), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (saved); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *before = NULL, *after = NULL;

      g_assert_true (fr_scene_doc_save (doc, saved[i], &error));
      g_assert_no_error (error);
      before = read_text (saved[i]);
      for (int k = 0; k < 200; k++)
        {
          FrVertex p = { 0.01 * k, 0.5 };
          g_array_append_val (doc->receivers, p);
        }
      g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old), ==, 0);
      signal (SIGXFSZ, SIG_IGN);
      small = old;
      small.rlim_cur = strlen (before) + 100;
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
      g_assert_false (fr_scene_doc_save (doc, saved[i], &error));
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old), ==, 0);
      g_array_set_size (doc->receivers, 1);

      g_test_message ("%s", error->message);
      g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO);
      g_assert_true (g_str_has_prefix (error->message, saved[i]));
      g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
      g_assert_null (strstr (error->message, unnamed[i][0]));
      g_assert_null (strstr (error->message, unnamed[i][1]));
      after = read_text (saved[i]);
      g_assert_cmpstr (after, ==, before);
    }
  test_tmpdir_remove (dir);
}

#ifdef __linux__
/* A small tmpfs filled to the last page: the save fails with ENOSPC. */
static void
disk_full_child (const char *dir)
{
  g_autofree char *mnt = g_build_filename (dir, "mnt", NULL);
  g_autofree char *path = g_build_filename (mnt, "s.json", NULL);
  g_autofree char *filler = g_build_filename (mnt, "filler", NULL);
  fr_grid g = fr_grid_2d (10, 10, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.5));
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL, *after = NULL;

  if (!test_tmpfs_mount (dir, mnt, 64))
    return;
  g_assert_true (fr_scene_doc_save (doc, path, &error));
  g_assert_no_error (error);
  before = read_text (path);
  test_tmpfs_fill (filler, 0);

  doc->title = g_strdup ("bigger");
  g_assert_false (fr_scene_doc_save (doc, path, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, g_strerror (ENOSPC)));
  g_assert_null (strstr (error->message, "s.json."));
  after = read_text (path);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (count_files (mnt), ==, 2);
  umount (mnt);
}
#endif

/* A save to a full disk names the scene, not its temporary file.  A tmpfs
 * needs a mount namespace: where none may be made (a container without
 * the rights), skipped; RLIMIT_FSIZE above covers the same path. */
static void
test_save_disk_full (void)
{
#ifdef __linux__
  test_in_subprocess ("FOLDRAY_TEST_DISK_FULL", disk_full_child);
#else
  g_test_skip ("a tmpfs in a mount namespace is Linux's");
#endif
}

/* A .npy grid's sidecar FILE.json gives its geometry, wherever the grid
 * is read: opened, or as a scene's background (which had ignored it and
 * placed the grid at spacing 1 from (0, 0): one edge value over the whole
 * model).  A sidecar is read strictly (a misspelt or missing "spacing",
 * or a string for a number, had opened the grid at spacing 1 without a
 * word), and one beside the file a symbolic link names counts. */
/* The grid of npy and its sidecar, which must read. */
static fr_grid
read_grid_ok (const char *npy,
              gboolean   *has_spacing)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) values = NULL;
  fr_grid g;

  g_assert_true (fr_scene_file_read_grid (npy, "npy", &g, has_spacing, &values, &error));
  g_assert_no_error (error);
  return g;
}

static void
test_grid_sidecar (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *npy = g_build_filename (dir, "f4.npy", NULL);
  g_autofree char *json = g_build_filename (dir, "f4.json", NULL);
  g_autofree char *real_dir = g_build_filename (dir, "real", NULL);
  g_autofree char *real = g_build_filename (real_dir, "model.npy", NULL);
  g_autofree char *link = g_build_filename (dir, "link.npy", NULL);
  g_autofree char *scene = g_build_filename (dir, "s.json", NULL);
  fr_grid unit = fr_grid_2d (7, 4, 1.0, 1.0, 0.0, 0.0);
  float v[28];
  static const struct { const char *sidecar; const char *says; } bad[] = {
    { "{\"Spacing\": [10, 5], \"origin\": [100, 200]}", "unknown member “Spacing”" },
    { "{\"dx\": 10, \"dz\": 5}", "unknown member “dx”" },
    /* A name that json-glib 1.6 reads as the byte 0xff: said as UTF-8. */
    { "{\"d\\377x\": 10, \"spacing\": [10, 5]}", "unknown member “d\xef\xbf\xbdx”" },
    { "{\"origin\": [100, 200]}", "no “spacing”" },
    { "{}", "no “spacing”" },
    { "{\"spacing\": [10, 5], \"origin\": [\"100\", 200]}", "“origin” must be a number or a list of two numbers" },
    { "{\"spacing\": [10, 5], \"origin\": [null, 200]}", "“origin” must be a number" },
    { "{\"spacing\": true}", "“spacing” must be a number" },
    { "[10, 5]", "expected a JSON object" },
    /* Not UTF-8, and cut short: named as the sidecar too, not as the grid
     * (json-glib names the file only in its syntax errors; helper-57). */
    { "{\"spacing\": [10, 5]}\xff", "f4.json" },
    { "{\"spacing\": [10, 5]", "f4.json" },
    /* A syntax error quoting a token cut inside "·": shown as UTF-8, the
     * quote ending before it. */
    { "{\"spacing\": [10, 5], \"x\": \"abcdefghijklmnopqrstuvwxyzab\\u00b7z \"d\"}",
      "invalid string constant \"abcdefghijklmnopqrstuvwxyzab\", expected" },
    /* A spacing too fine for any solve's times at these velocities (up to
     * 2103): refused here, in the solver's words, where it was read and
     * then refused by the solve (a denormal spacing; a normal one too). */
    { "{\"spacing\": [1e-320, 1e-320]}", "f4.json: a spacing of 9.99989e-321 with velocities up to 2103 "
      "gives times below double's range (smallest 2.2e-308): rescale the units" },
    { "{\"spacing\": [10, 1e-306]}", "a spacing of 1e-306 with velocities up to 2103 gives times "
      "below double's range" },
  };

  for (int i = 0; i < 28; i++)
    v[i] = 1500.0f + 100.0f * (float) (i % 7) + (float) (i / 7);
  write_npy (npy, &unit, v);

  /* No sidecar: the caller must ask (unit spacing, has_spacing FALSE). */
  {
    gboolean has_spacing = TRUE;
    fr_grid g = read_grid_ok (npy, &has_spacing);

    g_assert_false (has_spacing);
    g_assert_cmpfloat (g.dx, ==, 1.0);
  }
  /* A whole sidecar; then each faulty one, refused by name. */
  g_assert_true (g_file_set_contents (json, "{\"spacing\": [10, 5], \"origin\": [100, 200]}", -1, NULL));
  {
    gboolean has_spacing = FALSE;
    fr_grid g = read_grid_ok (npy, &has_spacing);

    g_assert_true (has_spacing);
    g_assert_true (g.dx == 10.0 && g.dz == 5.0 && g.x0 == 100.0 && g.z0 == 200.0);
  }
  /* Times a double holds, if not a float: read (foldray-cli --precision
   * double solves it). */
  g_assert_true (g_file_set_contents (json, "{\"spacing\": 1e-300}", -1, NULL));
  {
    gboolean has_spacing = FALSE;
    fr_grid g = read_grid_ok (npy, &has_spacing);

    g_assert_true (g.dx == 1e-300 && g.dz == 1e-300);
  }
  for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) values = NULL;
      gboolean has_spacing;
      fr_grid g;

      g_assert_true (g_file_set_contents (json, bad[k].sidecar, -1, NULL));
      g_assert_false (fr_scene_file_read_grid (npy, "npy", &g, &has_spacing, &values, &error));
      {
        /* Escaped: a case holds a byte that is not UTF-8, which TAP must not see. */
        g_autofree char *shown = g_strescape (bad[k].sidecar, NULL);

        g_test_message ("%s: %s", shown, error->message);
      }
      g_assert_nonnull (strstr (error->message, bad[k].says));
      g_assert_nonnull (strstr (error->message, "f4.json"));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }
  /* A grid whose name is Latin-1 ("é" as the byte e9), as a file system
   * may hold: a faulty sidecar is still named in UTF-8 (the dialog shows
   * the message, and text that is not UTF-8 blanks it).  The name went
   * into the message as its bytes (fuzz-sidecar). */
  {
    g_autofree char *latin1 = g_build_filename (dir, "mod\xe9le.npy", NULL);
    g_autofree char *latin1_json = g_build_filename (dir, "mod\xe9le.json", NULL);
    g_autofree char *shown = g_filename_display_basename (latin1_json);

    write_npy (latin1, &unit, v);
    for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) values = NULL;
        gboolean has_spacing;
        fr_grid g;

        g_assert_true (g_file_set_contents (latin1_json, bad[k].sidecar, -1, NULL));
        g_assert_false (fr_scene_file_read_grid (latin1, "npy", &g, &has_spacing, &values, &error));
        g_assert_true (g_utf8_validate (error->message, -1, NULL));
        g_assert_nonnull (strstr (error->message, shown));
      }
    g_assert_cmpint (g_unlink (latin1_json), ==, 0);

    /* So is the grid itself, refused (3D; not a .npy; gone). */
    for (int c = 0; c < 3; c++)
      {
        g_autofree char *shown_npy = g_filename_display_basename (latin1);
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) values = NULL;
        gboolean has_spacing;
        fr_grid g;

        if (c == 0)
          {
            fr_grid cube = fr_grid_3d (2, 2, 7, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0);

            write_npy (latin1, &cube, v);
          }
        else if (c == 1)
          g_assert_true (g_file_set_contents (latin1, "not a grid", -1, NULL));
        else
          g_assert_cmpint (g_unlink (latin1), ==, 0);
        g_assert_false (fr_scene_file_read_grid (latin1, "npy", &g, &has_spacing, &values, &error));
        g_test_message ("%d: %s", c, g_utf8_validate (error->message, -1, NULL) ? error->message : "(not UTF-8)");
        g_assert_true (g_utf8_validate (error->message, -1, NULL));
        g_assert_nonnull (strstr (error->message, shown_npy));
      }
  }
  g_assert_true (g_file_set_contents (json, "{\"spacing\": [10, 5], \"origin\": [100, 200]}", -1, NULL));

  /* Through a symbolic link, the sidecar beside its target. */
  g_assert_cmpint (g_mkdir (real_dir, 0700), ==, 0);
  write_npy (real, &unit, v);
  {
    g_autofree char *real_json = g_build_filename (real_dir, "model.json", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) values = NULL;
    gboolean has_spacing = FALSE;
    fr_grid g;

    g_assert_true (g_file_set_contents (real_json, "{\"spacing\": 2.5}", -1, NULL));
    g_assert_cmpint (symlink (real, link), ==, 0);
    g_assert_true (fr_scene_file_read_grid (link, "npy", &g, &has_spacing, &values, &error));
    g_assert_true (has_spacing);
    g_assert_true (g.dx == 2.5 && g.dz == 2.5 && g.x0 == 0.0);
  }

  /* A grid named in capitals, as Open's filter shows it: its sidecar is
   * UPPER.json (the suffix taken off in any case), not UPPER.NPY.json,
   * which had been looked for, so the grid opened asking for a spacing. */
  {
    g_autofree char *upper = g_build_filename (dir, "UPPER.NPY", NULL);
    g_autofree char *upper_json = g_build_filename (dir, "UPPER.json", NULL);
    g_autofree char *sidecar = fr_scene_file_sidecar_path (upper);
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) values = NULL;
    gboolean has_spacing = FALSE;
    fr_grid g;

    g_assert_cmpstr (sidecar, ==, upper_json);
    write_npy (upper, &unit, v);
    g_assert_true (g_file_set_contents (upper_json, "{\"spacing\": [3, 4], \"origin\": [1, 2]}", -1, NULL));
    g_assert_true (fr_scene_file_read_grid (upper, "npy", &g, &has_spacing, &values, &error));
    g_assert_no_error (error);
    g_assert_true (has_spacing);
    g_assert_true (g.dx == 3.0 && g.dz == 4.0 && g.x0 == 1.0 && g.z0 == 2.0);
  }

  /* As a scene's background on a grid of the same geometry: the model's
   * velocities are the file's, node for node. */
  g_assert_true (g_file_set_contents (scene, HEAD "\"grid\": {\"nx\": 7, \"nz\": 4, \"spacing\": [10, 5], "
                                      "\"origin\": [100, 200]}, \"background\": {\"path\": \"f4.npy\"}}",
                                      -1, NULL));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(FrSceneDoc) doc = fr_scene_doc_load (scene, &error);
    g_autoptr(GBytes) r = NULL;
    const float *got;

    g_assert_no_error (error);
    g_assert_true (doc->model->background->grid.dx == 10.0 && doc->model->background->grid.x0 == 100.0);
    r = fr_model_rasterise (doc->model, NULL, &error);
    g_assert_no_error (error);
    got = g_bytes_get_data (r, NULL);
    for (int i = 0; i < 28; i++)
      g_assert_cmpfloat_with_epsilon (got[i], v[i], 1e-3);
  }
  test_tmpdir_remove (dir);
}

#ifdef FOLDRAY_HAVE_SEGYIO
/* Writes nx traces of nz samples straight with segyio: format 1 (IBM) or 5
 * (IEEE); with cdp_x (nx values, NULL for none) the traces' CDP X with
 * scalar, and a sample interval of 12.5. */
static void
write_segy_at (const char *path, int nx, int nz, int format, const int *cdp_x, int scalar,
               const float *v)
{
  gboolean with_coords = cdp_x != NULL;
  char text[SEGY_TEXT_HEADER_SIZE + 1], bin[SEGY_BINARY_HEADER_SIZE], th[SEGY_TRACE_HEADER_SIZE];
  long trace0 = SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE;
  int trsize = segy_trsize (format, nz);
  g_autofree float *trace = g_new (float, nz);
  segy_file *fp = segy_open (path, "w+b");

  g_assert_nonnull (fp);
  memset (text, ' ', SEGY_TEXT_HEADER_SIZE);
  text[SEGY_TEXT_HEADER_SIZE] = '\0';
  memset (bin, 0, sizeof bin);
  segy_set_bfield (bin, SEGY_BIN_SAMPLES, nz);
  segy_set_bfield (bin, SEGY_BIN_FORMAT, format);
  segy_set_bfield (bin, SEGY_BIN_INTERVAL, with_coords ? 12500 : 0);  /* dz = 12.5 */
  g_assert_cmpint (segy_write_textheader (fp, 0, text), ==, SEGY_OK);
  g_assert_cmpint (segy_write_binheader (fp, bin), ==, SEGY_OK);
  for (int ix = 0; ix < nx; ix++)
    {
      memset (th, 0, sizeof th);
      segy_set_field (th, SEGY_TR_SEQ_LINE, ix + 1);
      segy_set_field (th, SEGY_TR_SAMPLE_COUNT, nz);
      if (with_coords)
        {
          segy_set_field (th, SEGY_TR_SOURCE_GROUP_SCALAR, scalar);
          segy_set_field (th, SEGY_TR_CDP_X, cdp_x[ix]);
        }
      for (int iz = 0; iz < nz; iz++)
        trace[iz] = v[iz * nx + ix];
      g_assert_cmpint (segy_from_native (format, nz, trace), ==, SEGY_OK);
      g_assert_cmpint (segy_write_traceheader (fp, ix, th, trace0, trsize), ==, SEGY_OK);
      g_assert_cmpint (segy_writetrace (fp, ix, trace, trace0, trsize), ==, SEGY_OK);
    }
  g_assert_cmpint (segy_close (fp), ==, SEGY_OK);
}

/* Sets the 16-bit big-endian field at offset in the header of every trace
 * from trace `from` on, in the bytes of a file of nz-sample 4-byte traces. */
static void
patch_traces (char *bytes, int nx, int nz, int from, int offset, int value)
{
  const long trace0 = SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE;
  const long tr = SEGY_TRACE_HEADER_SIZE + 4L * nz;

  for (int t = from; t < nx; t++)
    {
      char *h = bytes + trace0 + t * tr + offset;

      h[0] = (char) (value >> 8);
      h[1] = (char) (value & 0xff);
    }
}

/* Traces at 500 + 25·ix (CDP X in centimetres, scalar −100). */
static void
write_segy (const char *path, int nx, int nz, int format, gboolean with_coords, const float *v)
{
  g_autofree int *x = g_new (int, nx);

  for (int ix = 0; ix < nx; ix++)
    x[ix] = 50000 + 2500 * ix;
  write_segy_at (path, nx, nz, format, with_coords ? x : NULL, -100, v);
}
#endif

#ifdef FOLDRAY_HAVE_SEGYIO
/* In a child held by ulimit -v to 256 MiB more than it maps: a SEG-Y file
 * of 100000 traces of 1000 samples (sparse: one trace written, the rest
 * holes, 424 MB long) is refused before its 400 MB of samples are
 * allocated, with the memory check's message; without an rlimit such a
 * survey was read until the OOM killer ended the app. */
static void
segy_too_large_child (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "survey.sgy", NULL);
  g_autoptr(GBytes) values = NULL;
  g_autoptr(GError) error = NULL;
  float v[1000] = { 0 };
  gboolean has_spacing;
  fr_grid g;
  int fd;

  write_segy (path, 1, 1000, 5, FALSE, v);
  fd = g_open (path, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, 3600 + 100000L * (240 + 4 * 1000)), ==, 0);
  close (fd);

  if (!test_limit_memory (RLIMIT_AS, "VmSize:", 256.0 * 1048576.0))
    {
      g_autofree char *skip = g_build_filename (dir, "skip", NULL);

      g_assert_true (g_file_set_contents (skip, "no memory limit here: a sanitizer runs, or a lower hard limit",
                                          -1, NULL));
      return;
    }

  g_assert_false (fr_segy_read (path, &g, &has_spacing, &values, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "survey.sgy: reading 100000 traces of 1000 samples "
                                            "needs about 0.4 GB of memory, this machine has "));
  g_assert_true (g_str_has_suffix (error->message, " GB (the rest of its address-space limit, "
                                                   "ulimit -v)"));
  g_assert_null (values);
}
#endif

static void
test_segy_too_large (void)
{
#ifdef FOLDRAY_HAVE_SEGYIO
  test_in_subprocess ("FOLDRAY_TEST_SEGY_DIR", segy_too_large_child);
#else
  g_test_skip ("built without segyio");
#endif
}

static void
test_segy (void)
{
#ifdef FOLDRAY_HAVE_SEGYIO
  const int nx = 7, nz = 9;
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "model.sgy", NULL);
  float v[63];

  for (int i = 0; i < nx * nz; i++)
    v[i] = 1500.0f + 12.25f * (i / nx) + 0.5f * (i % nx);   /* exact in IBM float too */

  for (int format = 1; format <= 5; format += 4)
    for (int coords = 0; coords <= 1; coords++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) values = NULL;
        gboolean has_spacing;
        fr_grid g;
        const float *got;

        write_segy (path, nx, nz, format, coords, v);
        g_assert_true (fr_segy_read (path, &g, &has_spacing, &values, &error));
        g_assert_no_error (error);
        g_assert_cmpuint (g.nx, ==, nx);
        g_assert_cmpuint (g.nz, ==, nz);
        g_assert_cmpint (has_spacing, ==, coords);
        if (coords)
          {
            g_assert_cmpfloat_with_epsilon (g.dx, 25.0, 1e-9);
            g_assert_cmpfloat_with_epsilon (g.dz, 12.5, 1e-9);
            g_assert_cmpfloat_with_epsilon (g.x0, 500.0, 1e-9);
          }
        got = g_bytes_get_data (values, NULL);
        for (int i = 0; i < nx * nz; i++)
          g_assert_cmpfloat (got[i], ==, v[i]);
      }

  /* The traces' x: the spacing is the file's only where every trace
   * steps evenly (within half the coordinates' unit: 12.5 m stored in
   * whole metres); traces in falling x are turned round. */
  {
    static const struct { int x[7]; int scalar; gboolean even; double dx, x0; gboolean reversed; }
      layouts[] = {
        { { 50000, 52500, 55000, 70000, 72500, 75000, 77500 }, -100, FALSE, 0, 0, FALSE },
        { { 500, 525, 550, 575, 600, 626, 650 }, 1, FALSE, 0, 0, FALSE },
        { { 0, 13, 25, 38, 50, 63, 75 }, 1, TRUE, 12.5, 0.0, FALSE },
        { { 650, 625, 600, 575, 550, 525, 500 }, 1, TRUE, 25.0, 500.0, TRUE },
        { { 65, 60, 55, 50, 45, 40, 35 }, 10, TRUE, 50.0, 350.0, TRUE },
      };

    for (guint k = 0; k < G_N_ELEMENTS (layouts); k++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) values = NULL;
        gboolean has_spacing;
        fr_grid g;
        const float *got;

        write_segy_at (path, nx, nz, 5, layouts[k].x, layouts[k].scalar, v);
        g_assert_true (fr_segy_read (path, &g, &has_spacing, &values, &error));
        g_assert_no_error (error);
        g_assert_cmpint (has_spacing, ==, layouts[k].even);
        if (layouts[k].even)
          {
            g_assert_cmpfloat_with_epsilon (g.dx, layouts[k].dx, 1e-12);
            g_assert_cmpfloat_with_epsilon (g.x0, layouts[k].x0, 1e-12);
          }
        got = g_bytes_get_data (values, NULL);
        for (int iz = 0; iz < nz; iz++)
          for (int ix = 0; ix < nx; ix++)
            g_assert_cmpfloat (got[iz * nx + ix], ==,
                               v[iz * nx + (layouts[k].reversed ? nx - 1 - ix : ix)]);
      }
  }

  /* Refusals say what is wrong: a little-endian file (its format code
   * reads byte-swapped, 5 as 1280) and a binary header with no samples.
   * Bytes 3221-3222 and 3225-3226 hold the sample count and the format. */
  {
    static const struct { int offset; guint8 hi, lo; const char *says; } patches[] = {
      { 3224, 0x05, 0x00, "little-endian" },
      { 3220, 0x00, 0x00, "0 samples" },
    };

    for (guint k = 0; k < G_N_ELEMENTS (patches); k++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) values = NULL;
        g_autofree char *bytes = NULL;
        gboolean has_spacing;
        gsize len;
        fr_grid g;

        write_segy (path, nx, nz, 5, TRUE, v);
        g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
        bytes[patches[k].offset] = (char) patches[k].hi;
        bytes[patches[k].offset + 1] = (char) patches[k].lo;
        g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
        g_assert_false (fr_segy_read (path, &g, &has_spacing, &values, &error));
        g_test_message ("%s", error->message);
        g_assert_nonnull (strstr (error->message, patches[k].says));
        g_assert_null (strstr (error->message, "segyio error"));
      }
  }

  /* A file named in Latin-1 is named in UTF-8, as a dialog must show it
   * (the messages quoted the name's bytes): refused as little-endian, and
   * missing. */
  {
    g_autofree char *folder = g_path_get_dirname (path);
    g_autofree char *latin1 = g_build_filename (folder, "mod\xe9le.sgy", NULL);
    g_autofree char *bytes = NULL;
    gsize len;

    write_segy (latin1, nx, nz, 5, TRUE, v);
    g_assert_true (g_file_get_contents (latin1, &bytes, &len, NULL));
    bytes[3224] = 0x05;
    bytes[3225] = 0x00;
    g_assert_true (g_file_set_contents (latin1, bytes, (gssize) len, NULL));
    for (guint k = 0; k < 2; k++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) values = NULL;
        gboolean has_spacing;
        fr_grid g;

        g_assert_false (fr_segy_read (latin1, &g, &has_spacing, &values, &error));
        g_test_message ("%s", error->message);
        g_assert_true (g_utf8_validate (error->message, -1, NULL));
        g_assert_nonnull (strstr (error->message, k == 0 ? "little-endian" : "cannot be opened"));
        g_unlink (latin1);
      }
  }

  /* The trace headers count: a depth of the first sample (delay, bytes
   * 109-110) is z0; a trace of another length (bytes 115-116) is refused,
   * since read at the binary header's length it shifted every later one;
   * the trace headers' interval (117-118) is taken, as in segyio, but
   * where the binary header gives another the spacing is not whole (the
   * user confirms it); traces sampled at different intervals are refused;
   * 16-bit fields are unsigned (an interval of 50000, a
   * 50 m depth step, read as -15536: "no interval"); a cut-short file is
   * said to be one.  Bytes are patched into a written file, big-endian. */
  {
    static const struct {
      int where;           /* -1: binary header; else every trace from this one on */
      int offset, value;   /* a 16-bit field: offset from the header's start */
      int bin_interval;    /* the binary header's interval, -1: as written */
      gboolean cut;        /* the file 8 bytes short */
      const char *says;    /* NULL: read, with dz and z0 */
      double dz, z0;
      gboolean whole;      /* the spacing complete; else dx and x0 only, for the dialog */
    } cases[] = {
      { 0, 108, 100, -1, FALSE, NULL, 12.5, 100.0, TRUE },
      { 4, 114, nz - 1, -1, FALSE, "trace 5 has 8 samples where the binary header gives 9", 0, 0, FALSE },
      { 3, 108, 40, -1, FALSE, "trace 4 starts at 40 where the first starts at 0", 0, 0, FALSE },
      { -1, 0, 0, 50000, FALSE, NULL, 50.0, 0.0, TRUE },
      { 0, 116, 10000, 0, FALSE, NULL, 10.0, 0.0, TRUE },
      { 0, 116, 4000, -1, FALSE, NULL, 4.0, 0.0, FALSE },      /* binary 12.5, traces 4 */
      { 0, 116, 12500, -1, FALSE, NULL, 12.5, 0.0, TRUE },     /* both 12.5 */
      { 3, 116, 4000, 0, FALSE, NULL, 4.0, 0.0, TRUE },        /* traces 1-3 give none */
      { 5, 116, 4000, -1, FALSE, NULL, 4.0, 0.0, FALSE },      /* ... and the binary 12.5 */
      { -1, 0, 0, -1, TRUE, "not a whole number of traces of 9 samples", 0, 0, FALSE },
      { -1, 0, 0, 0, FALSE, NULL, 1.0, 0.0, FALSE },   /* no interval: dx and x0 still found */
    };

    v[10] = 1500.0f;
    for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) values = NULL;
        g_autofree char *bytes = NULL;
        gboolean has_spacing, ok;
        gsize len;
        fr_grid g;

        write_segy (path, nx, nz, 5, TRUE, v);
        g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
        if (cases[k].where >= 0)
          patch_traces (bytes, nx, nz, cases[k].where, cases[k].offset, cases[k].value);
        if (cases[k].bin_interval >= 0)
          {
            bytes[3216] = (char) (cases[k].bin_interval >> 8);
            bytes[3217] = (char) (cases[k].bin_interval & 0xff);
          }
        g_assert_true (g_file_set_contents (path, bytes, (gssize) (cases[k].cut ? len - 8 : len), NULL));
        ok = fr_segy_read (path, &g, &has_spacing, &values, &error);
        g_test_message ("case %u: %s", k, ok ? "read" : error->message);
        if (cases[k].says != NULL)
          {
            g_assert_false (ok);
            g_assert_nonnull (strstr (error->message, cases[k].says));
            continue;
          }
        g_assert_true (ok);
        g_assert_cmpint (has_spacing, ==, cases[k].whole);
        g_assert_cmpfloat_with_epsilon (g.dz, cases[k].dz, 1e-12);
        g_assert_cmpfloat_with_epsilon (g.z0, cases[k].z0, 1e-12);
        g_assert_cmpfloat_with_epsilon (g.dx, 25.0, 1e-12);
        g_assert_cmpfloat_with_epsilon (g.x0, 500.0, 1e-12);
      }
  }

  /* Traces sampled at different intervals are refused: the grid has one
   * dz.  Traces 1-3 every 12.5, the rest every 4. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) values = NULL;
    g_autofree char *bytes = NULL;
    gboolean has_spacing;
    gsize len;
    fr_grid g;

    write_segy (path, nx, nz, 5, TRUE, v);
    g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
    patch_traces (bytes, nx, nz, 0, 116, 12500);
    patch_traces (bytes, nx, nz, 3, 116, 4000);
    g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
    g_assert_false (fr_segy_read (path, &g, &has_spacing, &values, &error));
    g_assert_nonnull (strstr (error->message, "trace 4 has a sample interval of 4000 where trace 1 has 12500"));
  }

  /* A negative velocity is refused, naming the file. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) values = NULL;
    gboolean has_spacing;
    fr_grid g;

    v[10] = -1.0f;
    write_segy (path, nx, nz, 5, TRUE, v);
    g_assert_false (fr_segy_read (path, &g, &has_spacing, &values, &error));
    g_assert_nonnull (strstr (error->message, "model.sgy"));
  }
  test_tmpdir_remove (dir);
#else
  g_test_skip ("built without segyio");
#endif
}

static gboolean
run_cli (const char *args, char **out, char **err, int *status)
{
  g_autofree char *cmd = g_strdup_printf ("%s %s", g_getenv ("FOLDRAY_CLI"), args);
  g_autoptr(GError) error = NULL;
  gboolean ok = g_spawn_command_line_sync (cmd, out, err, status, &error);

  g_assert_no_error (error);
  return ok;
}

/* run_cli that must succeed; its output is not kept. */
static void
run_cli_ok (const char *args)
{
  g_autofree char *out = NULL, *err = NULL;
  int status;

  run_cli (args, &out, &err, &status);
  if (status != 0)
    g_test_message ("%s: stderr %s", args, err);
  g_assert_cmpint (status, ==, 0);
}

static void
assert_same_bytes (const char *path1, const char *path2)
{
  g_autofree char *a = NULL, *b = NULL;
  gsize la, lb;

  g_assert_true (g_file_get_contents (path1, &a, &la, NULL));
  g_assert_true (g_file_get_contents (path2, &b, &lb, NULL));
  g_assert_cmpmem (a, la, b, lb);
}

static void
test_cli (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *scene = scene_path ("three-layer.json");
  g_autofree char *t1 = g_build_filename (dir, "t1.npy", NULL);
  g_autofree char *t2 = g_build_filename (dir, "t2.npy", NULL);
  g_autofree char *vel = g_build_filename (dir, "v.npy", NULL);
  g_autofree char *rays = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.json", NULL);
  g_autoptr(FrSceneDoc) doc = NULL;
  g_autoptr(GBytes) v = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *args = NULL, *out = NULL, *err = NULL;
  g_autofree char *a = NULL, *b = NULL;
  gsize la, lb;
  int status;

  if (g_getenv ("FOLDRAY_CLI") == NULL)
    {
      g_test_skip ("FOLDRAY_CLI not set");
      return;
    }
  /* --scene with --radius overriding the scene's 5, rays to the scene's receivers. */
  args = g_strdup_printf ("spr --scene %s --radius 3 --backend cpu --out %s --rays-out %s --stats",
                          scene, t1, rays);
  run_cli (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "\"radius\": [3, 3]"));
  g_assert_nonnull (strstr (out, "\"receivers\": 10"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* The same with the scene rasterised here and given as plain flags. */
  doc = fr_scene_doc_load (scene, &error);
  g_assert_no_error (error);

  /* The scene with display settings (the app's, saved since they were
   * added) solves the same: foldray-cli reads and ignores them. */
  {
    g_autofree char *dscene = g_build_filename (dir, "display.json", NULL);
    g_autofree char *t3 = g_build_filename (dir, "t3.npy", NULL);
    g_autofree char *djson = NULL;
    g_autofree char *c = NULL;
    gsize lc;

    doc->has_display = TRUE;
    doc->display_interval = 0.1;
    g_free (doc->display_colormap);
    doc->display_colormap = g_strdup ("magma");
    doc->display_wavefront = TRUE;
    doc->display_wavefront_time = 0.4;
    g_assert_true (fr_scene_doc_save (doc, dscene, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (dscene, &djson, NULL, NULL));
    g_assert_nonnull (strstr (djson, "\"display\": {"));
    g_free (args);
    args = g_strdup_printf ("spr --scene %s --radius 3 --backend cpu --out %s", dscene, t3);
    run_cli (args, &out, &err, &status);
    if (status != 0)
      g_test_message ("stderr: %s", err);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpstr (err, ==, "");
    g_assert_true (g_file_get_contents (t1, &a, &la, NULL));
    g_assert_true (g_file_get_contents (t3, &c, &lc, NULL));
    g_assert_cmpmem (a, la, c, lc);
    g_clear_pointer (&a, g_free);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    doc->has_display = FALSE;
  }

  /* A scene's radius of two counts is solved with them, x then z. */
  {
    g_autofree char *ascene = g_build_filename (dir, "axes.json", NULL);
    g_autofree char *t4 = g_build_filename (dir, "t4.npy", NULL);

    doc->radius = (FrRadius) { 2, 6 };
    g_assert_true (fr_scene_doc_save (doc, ascene, &error));
    g_assert_no_error (error);
    g_free (args);
    args = g_strdup_printf ("spr --scene %s --backend cpu --out %s --stats", ascene, t4);
    run_cli (args, &out, &err, &status);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (out, "\"radius\": [2, 6]"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  /* --times-out alone takes the scene's receivers too: one row each, in
   * the scene's order, with T at its node. */
  {
    g_autofree char *times = g_build_filename (dir, "times.csv", NULL);
    g_autofree char *text = NULL;
    g_auto (GStrv) lines = NULL;
    fr_array t = { 0 };
    const fr_grid *g = &doc->model->grid;

    g_free (args);
    args = g_strdup_printf ("spr --scene %s --radius 3 --backend cpu --out %s --times-out %s",
                            scene, t1, times);
    run_cli_ok (args);
    g_assert_cmpint (fr_npy_read (t1, &t, NULL), ==, FR_OK);
    g_assert_true (g_file_get_contents (times, &text, NULL, NULL));
    lines = g_strsplit (text, "\n", -1);
    g_assert_cmpstr (lines[0], ==, "receiver,x,z,t");
    g_assert_cmpuint (doc->receivers->len, ==, 10);
    g_assert_cmpuint (g_strv_length (lines), ==, doc->receivers->len + 2);   /* and the last "" */
    for (guint k = 0; k < doc->receivers->len; k++)
      {
        const FrVertex *p = &g_array_index (doc->receivers, FrVertex, k);
        g_auto (GStrv) f = g_strsplit (lines[k + 1], ",", -1);
        size_t ix, iz;

        g_assert_cmpuint (g_strv_length (f), ==, 4);
        g_assert_cmpuint (g_ascii_strtoull (f[0], NULL, 10), ==, k);
        g_assert_cmpfloat_with_epsilon (g_ascii_strtod (f[1], NULL), p->x, 1e-12);
        g_assert_cmpfloat_with_epsilon (g_ascii_strtod (f[2], NULL), p->z, 1e-12);
        g_assert_true (fr_grid_nearest_node (g, p->x, 0, p->z, &ix, NULL, &iz));
        g_assert_cmpfloat ((float) g_ascii_strtod (f[3], NULL), ==,
                           ((const float *) t.data)[iz * g->nx + ix]);
      }
    fr_array_clear (&t);
  }
  v = fr_model_rasterise (doc->model, NULL, &error);
  g_assert_no_error (error);
  write_npy (vel, &doc->model->grid, g_bytes_get_data (v, NULL));
  g_free (args);
  args = g_strdup_printf ("spr --velocity %s --spacing 0.01 --source 1.5,0 --radius 3 "
                          "--backend cpu --out %s", vel, t2);
  run_cli (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_get_contents (t1, &a, &la, NULL));
  g_assert_true (g_file_get_contents (t2, &b, &lb, NULL));
  g_assert_cmpmem (a, la, b, lb);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* fold reads it too.  The scene has no fold "speed", and folds as the
   * app's Folds mode opens it, at the constant F = 1 (not at the layers'
   * velocities, which it did while the app showed F = 1). */
  {
    const fr_grid *g = &doc->model->grid;
    g_autofree char *omp_threads = g_strdup (g_getenv ("OMP_NUM_THREADS"));

    g_setenv ("OMP_NUM_THREADS", "1", TRUE);   /* byte-equal results (below) */
    g_free (args);
    args = g_strdup_printf ("fold --scene %s --backend cpu --out %s", scene, t2);
    run_cli_ok (args);
    g_free (args);
    args = g_strdup_printf ("fold --speed-const 1 --shape %zu,%zu --spacing %g,%g --origin %g,%g "
                            "--source 1.5,0 --backend cpu --out %s", g->nx, g->nz, g->dx, g->dz,
                            g->x0, g->z0, t1);
    run_cli_ok (args);
    assert_same_bytes (t1, t2);

    /* A constant speed of the user's own is folded on the scene's grid,
     * whose size comes with it, as its spacing and origin do (it asked
     * for --shape). */
    g_free (args);
    args = g_strdup_printf ("fold --scene %s --speed-const 2 --backend cpu --out %s", scene, t2);
    run_cli_ok (args);
    g_free (args);
    args = g_strdup_printf ("fold --speed-const 2 --shape %zu,%zu --spacing %g,%g --origin %g,%g "
                            "--source 1.5,0 --backend cpu --out %s", g->nx, g->nz, g->dx, g->dz,
                            g->x0, g->z0, t1);
    run_cli_ok (args);
    restore_env ("OMP_NUM_THREADS", omp_threads);
    assert_same_bytes (t1, t2);
  }

  /* A fold scene (horizon, constant F, ψa, method, back end) gives the
   * same T as the flags it stands for given by hand. */
  {
    g_autofree char *fscene = g_build_filename (dir, "fold.json", NULL);
    g_autofree char *hcsv = g_build_filename (dir, "h.csv", NULL);
    const fr_grid *g = &doc->model->grid;
    static const FrVertex h[] = { { 0.3, 0.95 }, { 1.5, 0.6 }, { 2.7, 0.95 } };

    doc->has_fold = TRUE;
    doc->psi_a[0] = 0.3;
    doc->psi_a[1] = -0.1;
    g_free (doc->fold_method);
    doc->fold_method = g_strdup ("solas");
    doc->fold_backend = g_strdup ("cpu");
    doc->has_fold_speed = TRUE;
    doc->fold_speed = 1.5;
    doc->fold_horizon = g_array_new (FALSE, FALSE, sizeof (FrVertex));
    g_array_append_vals (doc->fold_horizon, h, G_N_ELEMENTS (h));
    g_assert_true (fr_scene_doc_save (doc, fscene, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_set_contents (hcsv, "x,z\n0.3,0.95\n1.5,0.6\n2.7,0.95\n", -1, NULL));

    /* One thread for both runs: with several, the CPU fold solver reaches
     * the same fixed point through another order of rounded updates, and
     * single-precision times may then differ in the last bit (up to 3e-7
     * relative, seen at this size with two threads), which would hide
     * nothing and fail the byte comparison below at random. */
    g_autofree char *omp_threads = g_strdup (g_getenv ("OMP_NUM_THREADS"));
    g_setenv ("OMP_NUM_THREADS", "1", TRUE);
    g_free (args);
    args = g_strdup_printf ("fold --scene %s --out %s", fscene, t1);
    run_cli_ok (args);
    g_free (args);
    args = g_strdup_printf ("fold --speed-const 1.5 --shape %zu,%zu --spacing %g,%g --origin %g,%g "
                            "--horizon %s --psi-a 0.3,-0.1 --method solas --backend cpu --out %s",
                            g->nx, g->nz, g->dx, g->dz, g->x0, g->z0, hcsv, t2);
    run_cli_ok (args);
    restore_env ("OMP_NUM_THREADS", omp_threads);
    assert_same_bytes (t1, t2);

    /* Its characteristic points are what `--receivers` traces from: the
     * same rays as those points given by hand, not the scene's seismic
     * receivers. */
    {
      g_autofree char *rcsv = g_build_filename (dir, "c.csv", NULL);
      g_autofree char *r1 = g_build_filename (dir, "r1.csv", NULL);
      g_autofree char *r2 = g_build_filename (dir, "r2.csv", NULL);
      static const FrVertex c[] = { { 1.0, 0.2 }, { 2.25, 0.35 } };
      g_autofree char *ra = NULL, *rb = NULL;

      doc->fold_characteristics = g_array_new (FALSE, FALSE, sizeof (FrVertex));
      g_array_append_vals (doc->fold_characteristics, c, G_N_ELEMENTS (c));
      g_assert_true (fr_scene_doc_save (doc, fscene, &error));
      g_assert_true (g_file_set_contents (rcsv, "x,z\n1,0.2\n2.25,0.35\n", -1, NULL));
      g_setenv ("OMP_NUM_THREADS", "1", TRUE);
      g_free (args);
      args = g_strdup_printf ("fold --scene %s --out %s --rays-out %s", fscene, t1, r1);
      run_cli (args, &out, &err, &status);
      g_assert_cmpint (status, ==, 0);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_free (args);
      args = g_strdup_printf ("fold --speed-const 1.5 --shape %zu,%zu --spacing %g,%g --origin %g,%g "
                              "--horizon %s --psi-a 0.3,-0.1 --method solas --backend cpu --out %s "
                              "--receivers %s --rays-out %s",
                              g->nx, g->nz, g->dx, g->dz, g->x0, g->z0, hcsv, t2, rcsv, r2);
      run_cli (args, &out, &err, &status);
      restore_env ("OMP_NUM_THREADS", omp_threads);
      g_assert_cmpint (status, ==, 0);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      ra = read_text (r1);
      rb = read_text (r2);
      g_assert_cmpstr (ra, ==, rb);
      /* Both rays, each ending on its point. */
      g_assert_nonnull (strstr (ra, "\n0,"));
      g_assert_nonnull (strstr (ra, "\n1,2.25,0.35"));
    }
  }

  /* With an impermeable obstacle, the scene's constant F folds round it,
   * as the app's Folds mode does: the T of that F given as a grid, F in
   * the rock and 0 in the obstacle, not the T of --speed-const, which
   * went straight through the wall. */
  {
    g_autofree char *wscene = g_build_filename (dir, "wall.json", NULL);
    g_autofree char *hcsv = g_build_filename (dir, "h.csv", NULL);
    g_autofree char *fnpy = g_build_filename (dir, "f.npy", NULL);
    g_autofree char *t3 = g_build_filename (dir, "t3.npy", NULL);
    g_autofree char *omp_threads = g_strdup (g_getenv ("OMP_NUM_THREADS"));
    const fr_grid *g = &doc->model->grid;
    g_autoptr(GBytes) wv = NULL;
    g_autofree float *f = NULL;
    g_autofree char *a3 = NULL, *b3 = NULL;
    gsize l3, m3;
    const float *vv;
    size_t walled = 0;

    g_clear_pointer (&doc->fold_characteristics, g_array_unref);
    g_ptr_array_add (doc->model->obstacles, fr_obstacle_new_rectangle (0.5, 0.3, 2.5, 0.4, 0.0));
    g_assert_true (fr_scene_doc_save (doc, wscene, &error));
    g_assert_no_error (error);
    wv = fr_model_rasterise (doc->model, NULL, &error);
    g_assert_no_error (error);
    vv = g_bytes_get_data (wv, NULL);
    f = g_new (float, fr_grid_count (g));
    for (size_t i = 0; i < fr_grid_count (g); i++)
      {
        f[i] = vv[i] == 0.0f ? 0.0f : 1.5f;
        walled += vv[i] == 0.0f;
      }
    g_assert_cmpuint (walled, >, 100);
    write_npy (fnpy, g, f);

    g_setenv ("OMP_NUM_THREADS", "1", TRUE);
    g_free (args);
    args = g_strdup_printf ("fold --scene %s --out %s", wscene, t1);
    run_cli_ok (args);
    g_free (args);
    args = g_strdup_printf ("fold --speed %s --spacing %g,%g --origin %g,%g --horizon %s "
                            "--psi-a 0.3,-0.1 --method solas --backend cpu --out %s",
                            fnpy, g->dx, g->dz, g->x0, g->z0, hcsv, t2);
    run_cli_ok (args);
    g_free (args);
    args = g_strdup_printf ("fold --speed-const 1.5 --shape %zu,%zu --spacing %g,%g --origin %g,%g "
                            "--horizon %s --psi-a 0.3,-0.1 --method solas --backend cpu --out %s",
                            g->nx, g->nz, g->dx, g->dz, g->x0, g->z0, hcsv, t3);
    run_cli_ok (args);
    restore_env ("OMP_NUM_THREADS", omp_threads);
    assert_same_bytes (t1, t2);
    g_assert_true (g_file_get_contents (t1, &a3, &l3, NULL));
    g_assert_true (g_file_get_contents (t3, &b3, &m3, NULL));
    g_assert_true (l3 != m3 || memcmp (a3, b3, l3) != 0);
    g_ptr_array_remove_index (doc->model->obstacles, doc->model->obstacles->len - 1);
  }

  /* A scene from the future: exit 2, one line naming the file. */
  g_assert_true (g_file_set_contents (bad, "{\"format\": \"foldray-scene\", \"version\": 9}", -1, NULL));
  g_free (args);
  args = g_strdup_printf ("spr --scene %s --out %s", bad, t2);
  run_cli (args, &out, &err, &status);
  g_assert_true (g_spawn_check_wait_status (status, NULL) == FALSE);
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_true (g_str_has_prefix (err, "foldray-cli: "));
  g_assert_nonnull (strstr (err, "bad.json"));
  g_assert_nonnull (strstr (err, "newer"));
  g_assert_cmpuint (strchr (err, '\n') - err + 1, ==, strlen (err));
  test_tmpdir_remove (dir);
}

/* A scene nested far deeper than any real one is refused before json-glib,
 * whose recursive parser would overflow the stack on it. */
static void
test_deep_nesting (void)
{
  const int deep = 100000;
  g_autoptr(GString) arrays = g_string_new (NULL);
  g_autoptr(GString) objects = g_string_new (HEAD GRID ", \"x\": ");
  g_autoptr(GString) quoted = g_string_new (HEAD GRID ", \"title\": \"\\\\\\\"");
  g_autoptr(GString) fine = g_string_new (HEAD GRID ", \"x\": ");
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "deep.json", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *args = NULL, *err = NULL;
  int status;

  for (int i = 0; i < deep; i++)
    g_string_append_c (arrays, '[');
  for (int i = 0; i < deep; i++)
    g_string_append_c (arrays, ']');
  for (int i = 0; i < deep; i++)
    g_string_append (objects, "{\"a\": ");
  g_string_append_c (objects, '1');
  for (int i = 0; i <= deep; i++)
    g_string_append_c (objects, '}');

  for (guint i = 0; i < 2; i++)
    {
      const char *text = i == 0 ? arrays->str : objects->str;
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (text, -1, "deep.json", dir, &error);

      g_assert_null (doc);
      g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_MALFORMED);
      g_assert_true (g_str_has_prefix (error->message, "deep.json: "));
      g_assert_nonnull (strstr (error->message, "nested"));
    }

  /* Brackets in a string (after an escaped backslash and quote) do not
   * count, and a nesting a real file could have is parsed. */
  for (int i = 0; i < 1000; i++)
    g_string_append (quoted, "[{");
  g_string_append (quoted, "\"}");
  for (int i = 0; i < 200; i++)
    g_string_append_c (fine, '[');
  for (int i = 0; i < 200; i++)
    g_string_append_c (fine, ']');
  g_string_append_c (fine, '}');
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (i == 0 ? quoted->str : fine->str, -1,
                                                      "ok.json", dir, &error);

      g_assert_no_error (error);
      g_assert_nonnull (doc);
    }

  /* foldray-cli: exit 2 and one line naming the file, not a crash. */
  g_assert_true (g_file_set_contents (path, objects->str, -1, NULL));
  if (g_getenv ("FOLDRAY_CLI") != NULL)
    {
      args = g_strdup_printf ("spr --scene %s --out %s", path, out);
      run_cli (args, NULL, &err, &status);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 2);
      g_assert_true (g_str_has_prefix (err, "foldray-cli: "));
      g_assert_nonnull (strstr (err, "deep.json"));
      g_assert_nonnull (strstr (err, "nested"));
      g_assert_cmpuint (strchr (err, '\n') - err + 1, ==, strlen (err));
    }
  test_tmpdir_remove (dir);
}

/* foldray-cli with TMPDIR set to tmp (where --scene makes its temporary
 * folder), setup run in the child; returns its wait status. */
static int
spawn_cli (const char *tmp, GSpawnChildSetupFunc setup, char **err, const char *first, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "TMPDIR", tmp, TRUE);
  g_autoptr(GError) error = NULL;
  int status = -1;
  va_list ap;

  g_ptr_array_add (argv, (char *) g_getenv ("FOLDRAY_CLI"));
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_STDOUT_TO_DEV_NULL, setup, NULL,
                NULL, err, &status, &error);
  g_assert_no_error (error);
  return status;
}

/* Exit code, one line starting "foldray-cli: ", naming the scene and
 * saying says, and no temporary folder left in tmp or named. */
static void
assert_scene_failure (int status, const char *err, int code, const char *scene, const char *says,
                      const char *tmp)
{
  if (!WIFEXITED (status) || WEXITSTATUS (status) != code || strstr (err, scene) == NULL ||
      (says != NULL && strstr (err, says) == NULL))
    g_test_message ("status %d, stderr [%s]; expected exit %d naming %s and %s", status, err, code,
                    scene, says);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, code);
  g_assert_true (g_str_has_prefix (err, "foldray-cli: "));
  g_assert_cmpuint (strchr (err, '\n') - err + 1, ==, strlen (err));
  g_assert_nonnull (strstr (err, scene));
  if (says != NULL)
    g_assert_nonnull (strstr (err, says));
  g_assert_null (strstr (err, "foldray-scene-"));
  g_assert_cmpuint (count_files (tmp), ==, 0);
}

#define OK_GRID "\"grid\": {\"nx\": 21, \"nz\": 11, \"spacing\": [0.1, 0.1]}"
#define ONE_LAYER "\"layers\": [{\"velocity\": 1.5, \"dvdz\": 1e300, \"interface\": [[0, 0.5], [2, 0.5]]}]"

/* Faults of the scene are told in its words: never a temporary file the
 * expansion made, nor a flag the user did not type; and whatever the
 * outcome, the temporary folder is gone. */
static void
test_cli_messages (void)
{
  static const struct {
    const char *json;
    const char *subcommand;
    const char *says;
    gboolean rays;
  } cases[] = {
    /* Spacing that overflows the grid's extent: the rasteriser made NaN. */
    { HEAD "\"grid\": {\"nx\": 201, \"nz\": 101, \"spacing\": [1e308, 1e308]}, "
      "\"sources\": [[0, 0]]}", "spr", "spacing", FALSE },
    /* A gradient that overflows single precision once rasterised. */
    { HEAD OK_GRID ", " ONE_LAYER ", \"sources\": [[0, 0]]}", "spr", "dvdz", FALSE },
    { HEAD OK_GRID ", \"sources\": [[0, 0]], \"receivers\": [[100, 0]]}", "spr", "receiver 1", TRUE },
    { HEAD OK_GRID ", \"sources\": [[0, 0]], \"receivers\": [[100, 0]]}", "fold", "receiver 1", TRUE },
    { HEAD OK_GRID ", \"sources\": [[100, 0]]}", "spr", "source", FALSE },
    { HEAD OK_GRID ", \"sources\": [[0.05, 0]]}", "spr", "source", FALSE },
    { HEAD OK_GRID ", \"sources\": []}", "fold", "no sources", FALSE },
    { HEAD OK_GRID ", \"sources\": [[0, 0]], \"fold\": {\"psi_a\": [2, 0]}}", "fold", "psi_a", FALSE },
    /* A fold horizon of one point (a Clear and one click in the app): the
     * app folds nothing, and the CLI folded from the seismic source. */
    { HEAD OK_GRID ", \"sources\": [[0, 0]], \"fold\": {\"horizon\": [[1.0, 0.7]]}}", "fold",
      "fold horizon has 1 point", FALSE },
    /* Nor does it from one the user cleared, written empty. */
    { HEAD OK_GRID ", \"sources\": [[0, 0]], \"fold\": {\"horizon\": []}}", "fold",
      "fold horizon is empty", FALSE },
    /* A fold traces its characteristics from the scene's points, named so. */
    { HEAD OK_GRID ", \"fold\": {\"horizon\": [[0, 0.5], [2, 0.5]], \"characteristics\": "
      "[[1, 0.2], [100, 0]]}}", "fold", "characteristic point 2 at (100, 0) lies outside the grid", TRUE },
    /* The app's "units", checked on reading like "display". */
    { HEAD OK_GRID ", \"sources\": [[0, 0]], \"units\": {\"length\": \"mi\"}}", "spr",
      "the length unit “mi” is unknown", FALSE },
    /* A background .npy with neither a sidecar nor a "spacing": it was
     * solved at spacing 1, exit 0. */
    { HEAD OK_GRID ", \"background\": {\"path\": \"bare.npy\"}, \"sources\": [[0, 0]]}", "spr",
      "“bare.npy” gives no spacing", FALSE },
    /* A background whose sidecar's spacing no solve's times could hold:
     * refused on reading, naming the sidecar, as Open refuses that grid;
     * it was read, placed in a corner of the model too small to cover a
     * cell, and the solve went on (exit 0). */
    { HEAD OK_GRID ", \"background\": {\"path\": \"tiny.npy\"}, \"sources\": [[0, 0]]}", "spr",
      "tiny.json: a spacing of 9.99989e-321 with velocities up to 6 gives times below double's range",
      FALSE },
    /* The scene's own spacing as fine: refused on reading, naming the
     * scene once and its "grid"; the fold named the two settings it stood
     * for ("--scene S: grid spacing … and fold speed 1: …") and spr the
     * spacing it passed on. */
    { HEAD "\"grid\": {\"nx\": 5, \"nz\": 4, \"spacing\": [1e-320, 1e-320]}, \"sources\": [[0, 0]]}",
      "fold", "faulty.json: the “grid” spacing 9.99989e-321 gives times below double's range", FALSE },
    { HEAD "\"grid\": {\"nx\": 5, \"nz\": 4, \"spacing\": [1e-320, 1e-320]}, \"sources\": [[0, 0]]}",
      "spr", "faulty.json: the “grid” spacing 9.99989e-321 gives times below double's range", FALSE },
  };
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *tmp = g_build_filename (dir, "tmp", NULL);
  g_autofree char *scene = g_build_filename (dir, "faulty.json", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *rays = g_build_filename (dir, "rays.csv", NULL);
  g_autofree char *good = scene_path ("three-layer.json");
  g_autofree char *nowhere = g_build_filename (dir, "no", "T.npy", NULL);
  g_autofree char *bare = g_build_filename (dir, "bare.npy", NULL);
  g_autofree char *tiny = g_build_filename (dir, "tiny.npy", NULL);
  g_autofree char *tiny_json = g_build_filename (dir, "tiny.json", NULL);
  const fr_grid bare_grid = fr_grid_2d (3, 2, 1.0, 1.0, 0.0, 0.0);
  const float bare_v[6] = { 1, 2, 3, 4, 5, 6 };

  if (g_getenv ("FOLDRAY_CLI") == NULL)
    {
      g_test_skip ("FOLDRAY_CLI not set");
      return;
    }
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  write_npy (bare, &bare_grid, bare_v);
  write_npy (tiny, &bare_grid, bare_v);
  g_assert_true (g_file_set_contents (tiny_json, "{\"spacing\": 1e-320}", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *json = cases[i].json;
      g_autofree char *err = NULL;
      int status;

      g_test_message ("case %u: %s %s", i, cases[i].subcommand, json);
      g_assert_true (g_file_set_contents (scene, json, -1, NULL));
      status = spawn_cli (tmp, NULL, &err, cases[i].subcommand, "--scene", scene, "--out", out,
                          cases[i].rays ? "--rays-out" : NULL, rays, NULL);
      assert_scene_failure (status, err, 2, "faulty.json", cases[i].says, tmp);
      /* The scene named once. */
      g_assert_null (strstr (strstr (err, "--scene") + 1, "--scene"));
      /* Not blamed on flags the user never typed. */
      g_assert_false (g_str_has_prefix (err, "foldray-cli: --source"));
      g_assert_false (g_str_has_prefix (err, "foldray-cli: --psi-a"));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }

  /* Another spacing or origin would stretch or shift the scene's model
   * under its sources (a gradient scene solved at twice its spacing gave
   * the times of half its gradient, with exit 0); with a grid of the
   * user's own they are the user's.  And --rays-out with nothing to trace
   * from says that the scene has no receivers. */
  {
    static const char *flags[][3] = {
      { "spr", "--spacing", "0.02" },
      { "spr", "--origin", "-0.5,0" },
      { "fold", "--spacing", "0.2,0.1" },
      { "fold", "--origin", "1,1" },
    };
    g_autofree char *gradient = scene_path ("gradient.json");
    g_autofree char *v = g_build_filename (dir, "v.npy", NULL);
    g_autofree char *err = NULL;
    int status;

    for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
      {
        g_clear_pointer (&err, g_free);
        status = spawn_cli (tmp, NULL, &err, flags[i][0], "--scene", gradient, "--out", out,
                            flags[i][1], flags[i][2], NULL);
        assert_scene_failure (status, err, 2, "gradient.json", "solves its model on the scene's own grid", tmp);
        g_assert_true (g_str_has_prefix (err, "foldray-cli: --"));
        g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      }
    /* The user's own velocity grid takes the user's spacing: 2 × 2 nodes
     * at 0.5 reach x = 0.5, where the scene's source (1, 0) is not. */
    {
      fr_grid g2 = fr_grid_2d (2, 2, 0.5, 0.5, 0.0, 0.0);
      static const float ones[4] = { 1.0f, 1.0f, 1.0f, 1.0f };

      write_npy (v, &g2, ones);
    }
    g_clear_pointer (&err, g_free);
    status = spawn_cli (tmp, NULL, &err, "spr", "--scene", gradient, "--out", out, "--velocity", v,
                        "--spacing", "0.5", NULL);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 2);
    g_assert_null (strstr (err, "own grid"));
    g_assert_nonnull (strstr (err, "source"));

    /* A gradient that takes a layer's velocity to 0 (v = 1.5 − 5 z from
     * z = 0.3 on): solved, as the app solves it, with a warning that says
     * where (the cells were clamped to 1e-6 without a word). */
    g_assert_true (g_file_set_contents (scene, HEAD OK_GRID ", \"layers\": [{\"velocity\": 1.5, "
                                        "\"dvdz\": -5, \"interface\": [[0, 0], [2, 0]]}], "
                                        "\"sources\": [[0, 0]]}", -1, NULL));
    g_clear_pointer (&err, g_free);
    /* On the CPU: with CUDA built and no device, auto adds a note. */
    status = spawn_cli (tmp, NULL, &err, "spr", "--scene", scene, "--out", out, "--backend", "cpu",
                        NULL);
    g_test_message ("%s", err);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    g_assert_true (g_str_has_prefix (err, "foldray-cli: warning: --scene "));
    g_assert_nonnull (strstr (err, "Layer 1"));
    g_assert_nonnull (strstr (err, "s gradient takes its velocity to 0 or below from (0, 0.3) on"));
    g_assert_cmpuint (strchr (err, '\n') - err + 1, ==, strlen (err));
    g_unlink (out);

    g_assert_true (g_file_set_contents (scene, HEAD OK_GRID ", \"sources\": [[0, 0]]}", -1, NULL));
    for (guint k = 0; k < 4; k++)
      {
        g_clear_pointer (&err, g_free);
        status = spawn_cli (tmp, NULL, &err, k % 2 == 0 ? "spr" : "fold", "--scene", scene, "--out",
                            out, k < 2 ? "--rays-out" : "--times-out", rays, NULL);
        assert_scene_failure (status, err, 2, "faulty.json", k % 2 == 0 ? "has no receivers: give --receivers"
                              : "has no receivers nor fold characteristic points", tmp);
        g_assert_true (g_str_has_prefix (err, k < 2 ? "foldray-cli: --rays-out: "
                                                    : "foldray-cli: --times-out: "));
      }
    /* --gather-out takes the scene's receivers too, and says so without. */
    g_clear_pointer (&err, g_free);
    status = spawn_cli (tmp, NULL, &err, "spr", "--scene", scene, "--out", out, "--gather-out", rays,
                        NULL);
    assert_scene_failure (status, err, 2, "faulty.json", "has no receivers: give --receivers", tmp);
    g_assert_true (g_str_has_prefix (err, "foldray-cli: --gather-out: "));
    g_assert_true (g_file_set_contents (scene, HEAD OK_GRID ", \"sources\": [[0, 0], [2, 0]], "
                                        "\"receivers\": [[0.5, 0], [1.5, 0]], \"shots\": \"separate\"}",
                                        -1, NULL));
    g_clear_pointer (&err, g_free);
    status = spawn_cli (tmp, NULL, &err, "spr", "--scene", scene, "--out", out, "--backend", "cpu",
                        "--gather-out", rays, NULL);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    {
      static const char *const head[4] = { "0,0,0,0,0.5,0,", "0,0,0,1,1.5,0,", "1,2,0,0,0.5,0,",
                                           "1,2,0,1,1.5,0," };
      static const double want[4] = { 0.5, 1.5, 1.5, 0.5 };
      g_autofree char *gather = NULL;
      g_auto (GStrv) lines = NULL;

      /* Uniform v = 1 (the default) along the surface: |x − xs|, summed
       * edge by edge in single precision. */
      g_assert_true (g_file_get_contents (rays, &gather, NULL, NULL));
      lines = g_strsplit (gather, "\n", -1);
      g_assert_cmpuint (g_strv_length (lines), ==, 6);
      g_assert_cmpstr (lines[0], ==, "source,source_x,source_z,receiver,x,z,t");
      for (guint i = 0; i < 4; i++)
        {
          g_assert_true (g_str_has_prefix (lines[1 + i], head[i]));
          g_assert_cmpfloat_with_epsilon (g_ascii_strtod (lines[1 + i] + strlen (head[i]), NULL),
                                          want[i], 1e-6);
        }
    }
    g_unlink (out);
    g_unlink (rays);
  }

  /* A scene named in Latin-1, as its bytes: every line names it with
   * U+FFFD, the subcommand's reworded ones and the warning too (they gave
   * the terminal the bytes). */
  {
    static const struct { const char *json; const char *says; int code; } latin1[] = {
      { HEAD OK_GRID ", \"sources\": [[100, 0]]}", "source", 2 },
      { HEAD "\"grid\": {\"nx\": 5, \"nz\": 4, \"spacing\": [1e-320, 1e-320]}, \"sources\": [[0, 0]]}",
        "“grid” spacing", 2 },
      { HEAD OK_GRID ", \"layers\": [{\"velocity\": 1.5, \"dvdz\": -5, \"interface\": [[0, 0], [2, 0]]}], "
        "\"sources\": [[0, 0]]}", "takes its velocity to 0 or below", 0 },
    };
    g_autofree char *named = g_build_filename (dir, "faulty-\xff.json", NULL);

    for (guint i = 0; i < G_N_ELEMENTS (latin1); i++)
      {
        g_autofree char *err = NULL;
        int status;

        g_test_message ("Latin-1 name, case %u", i);
        g_assert_true (g_file_set_contents (named, latin1[i].json, -1, NULL));
        status = spawn_cli (tmp, NULL, &err, "spr", "--scene", named, "--backend", "cpu", "--out",
                            out, NULL);
        g_test_message ("%s", err);
        g_assert_true (g_utf8_validate (err, -1, NULL));
        g_assert_nonnull (strstr (err, "--scene "));
        g_assert_null (strstr (strstr (err, "--scene ") + 1, "--scene "));
        if (latin1[i].code != 0)
          assert_scene_failure (status, err, latin1[i].code, "faulty-\xef\xbf\xbd.json: ",
                                latin1[i].says, tmp);
        else
          {
            g_assert_true (WIFEXITED (status));
            g_assert_cmpint (WEXITSTATUS (status), ==, 0);
            g_assert_nonnull (strstr (err, "faulty-\xef\xbf\xbd.json: "));
            g_assert_nonnull (strstr (err, latin1[i].says));
            g_unlink (out);
          }
      }
    g_unlink (named);
  }

  /* A failure of the subcommand itself, and a success, leave no folder. */
  {
    g_autofree char *err = NULL;
    int status = spawn_cli (tmp, NULL, &err, "spr", "--scene", good, "--backend", "cpu",
                            "--out", nowhere, NULL);

    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), !=, 0);
    g_assert_null (strstr (err, "foldray-scene-"));
    g_assert_cmpuint (count_files (tmp), ==, 0);
    g_clear_pointer (&err, g_free);
    status = spawn_cli (tmp, NULL, &err, "spr", "--scene", good, "--backend", "cpu", "--out", out,
                        "--rays-out", rays, NULL);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    g_assert_cmpuint (count_files (tmp), ==, 0);
  }
  test_tmpdir_remove (dir);
}

/* --scene where it does not apply, or twice: exit 2, saying so (not a
 * complaint about a flag the expansion made up). */
static void
test_cli_usage (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *tmp = g_build_filename (dir, "tmp", NULL);
  g_autofree char *good = scene_path ("three-layer.json");
  g_autofree char *other = scene_path ("gradient.json");
  g_autofree char *eq = g_strconcat ("--scene=", other, NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *err = NULL;
  int status;

  if (g_getenv ("FOLDRAY_CLI") == NULL)
    {
      g_test_skip ("FOLDRAY_CLI not set");
      return;
    }
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  status = spawn_cli (tmp, NULL, &err, "info", "--scene", good, NULL);
  assert_scene_failure (status, err, 2, "--scene", "spr and fold", tmp);
  g_assert_null (strstr (err, "--velocity"));
  g_clear_pointer (&err, g_free);

  status = spawn_cli (tmp, NULL, &err, "spr", "--scene", good, "--scene", other, "--out", out, NULL);
  assert_scene_failure (status, err, 2, "--scene", "more than once", tmp);
  g_clear_pointer (&err, g_free);
  status = spawn_cli (tmp, NULL, &err, "fold", eq, "--out", out, "--scene", good, NULL);
  assert_scene_failure (status, err, 2, "--scene", "more than once", tmp);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  test_tmpdir_remove (dir);
}

/* A scene and its background grid are inputs too: an output named after
 * either is refused before any work, and both are left byte for byte. */
static void
test_cli_scene_not_output (void)
{
  fr_grid bg = fr_grid_2d (6, 4, 0.2, 0.3, 0.0, 0.0);
  float v[24];
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *tmp = g_build_filename (dir, "tmp", NULL);
  g_autofree char *npy = g_build_filename (dir, "bg.npy", NULL);
  g_autofree char *scene = g_build_filename (dir, "s.json", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *sidecar = g_build_filename (dir, "bg.json", NULL);
  g_autofree char *scene_before = NULL, *npy_before = NULL;
  gsize scene_len, npy_len;
  int status;

  if (g_getenv ("FOLDRAY_CLI") == NULL)
    {
      g_test_skip ("FOLDRAY_CLI not set");
      return;
    }
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  for (int i = 0; i < 24; i++)
    v[i] = 1.0f + 0.1f * i;
  write_npy (npy, &bg, v);
  /* The grid's sidecar is an input too: --out bg.json wrote a .npy over
   * it, exit 0, and the scene read no more (helper-57). */
  g_assert_true (g_file_set_contents (sidecar, "{\"spacing\": [1, 1]}", -1, NULL));
  g_assert_true (g_file_set_contents (scene, HEAD GRID ", \"background\": {\"path\": \"bg.npy\", "
                                      "\"spacing\": [1, 1]}, \"sources\": [[0.5, 0.5]]}", -1, NULL));
  g_assert_true (g_file_get_contents (scene, &scene_before, &scene_len, NULL));
  g_assert_true (g_file_get_contents (npy, &npy_before, &npy_len, NULL));
  for (int c = 0; c < 4; c++)
    {
      const char *sub = c == 1 ? "fold" : "spr";
      const char *flag = c == 2 ? "--rays-out" : "--out";
      const char *target = c == 0 ? scene : c == 3 ? sidecar : npy;
      g_autofree char *err = NULL;
      g_autofree char *scene_after = NULL, *npy_after = NULL, *sidecar_after = NULL;
      gsize len;

      if (c == 2)
        status = spawn_cli (tmp, NULL, &err, sub, "--scene", scene, "--out", out, "--receivers", npy,
                            flag, target, NULL);
      else
        status = spawn_cli (tmp, NULL, &err, sub, "--scene", scene, flag, target, NULL);
      assert_scene_failure (status, err, 2, c == 0 ? "is the input given by --scene"
                                          : c == 3 ? "(its background grid's sidecar)"
                                                   : "(its background grid)",
                            "would destroy it", tmp);
      g_assert_true (g_file_get_contents (sidecar, &sidecar_after, NULL, NULL));
      g_assert_cmpstr (sidecar_after, ==, "{\"spacing\": [1, 1]}");
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      g_assert_true (g_file_get_contents (scene, &scene_after, &len, NULL));
      g_assert_true (len == scene_len && memcmp (scene_after, scene_before, len) == 0);
      g_assert_true (g_file_get_contents (npy, &npy_after, &len, NULL));
      g_assert_true (len == npy_len && memcmp (npy_after, npy_before, len) == 0);
    }
  /* Without a sidecar (the scene gives the spacing), an output there
   * would be read as one next time: refused too, and said so. */
  g_assert_cmpint (g_unlink (sidecar), ==, 0);
  {
    g_autofree char *err = NULL;

    status = spawn_cli (tmp, NULL, &err, "spr", "--scene", scene, "--out", sidecar, NULL);
    assert_scene_failure (status, err, 2, "is where the sidecar of --scene",
                          "would be read with it next time", tmp);
    g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  }
  /* And the scene solves, into a file of its own. */
  {
    g_autofree char *err = NULL;

    status = spawn_cli (tmp, NULL, &err, "spr", "--scene", scene, "--out", out, NULL);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  }
  test_tmpdir_remove (dir);
}

static void
limit_memory (gpointer data)
{
  struct rlimit rl = { 1u << 30, 1u << 30 };

  (void) data;
  setrlimit (RLIMIT_AS, &rl);
}

/* Running out of memory while rasterising is a failure (1), not bad input. */
static void
test_cli_out_of_memory (void)
{
  /* 20000 × 20000 float32 nodes: 1.6 GB, more than the child may map. */
  static const char json[] = HEAD "\"grid\": {\"nx\": 20000, \"nz\": 20000, \"spacing\": [0.01, 0.01]}, "
    "\"layers\": [{\"velocity\": 1.5, \"interface\": [[0, 50], [200, 50]]}], \"sources\": [[0, 0]]}";
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *tmp = g_build_filename (dir, "tmp", NULL);
  g_autofree char *scene = g_build_filename (dir, "huge.json", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *err = NULL;
  int status;

  if (TEST_UNDER_SANITIZER)
    {
      /* The normal build runs it. */
      g_test_skip ("an address space limit and a sanitizer do not mix");
      return;
    }
  if (g_getenv ("FOLDRAY_CLI") == NULL)
    {
      g_test_skip ("FOLDRAY_CLI not set");
      return;
    }
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  g_assert_true (g_file_set_contents (scene, json, -1, NULL));
  status = spawn_cli (tmp, limit_memory, &err, "spr", "--scene", scene, "--out", out, NULL);
  assert_scene_failure (status, err, 1, "huge.json", "memory", tmp);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  test_tmpdir_remove (dir);
}

#ifdef __linux__
/* With TMPDIR on a file system that holds the scene's scratch grid and not
 * a byte more, the subcommand's messages still reach stderr (they had been
 * caught in a file there, and every write of them failed). */
static void
cli_tmpdir_full_child (const char *dir)
{
  static const char json[] = HEAD OK_GRID ", \"layers\": [{\"velocity\": 1.5, "
    "\"interface\": [[0, 0.5], [2, 0.5]]}], \"sources\": [[0, 0]]}";
  g_autofree char *mnt = g_build_filename (dir, "mnt", NULL);
  g_autofree char *tmp = g_build_filename (mnt, "tmp", NULL);
  g_autofree char *filler = g_build_filename (mnt, "filler", NULL);
  g_autofree char *scene = g_build_filename (dir, "s.json", NULL);
  g_autofree char *out = g_build_filename (dir, "no-such-folder", "T.npy", NULL);
  g_autofree char *err = NULL;
  int status;

  g_assert_true (g_file_set_contents (scene, json, -1, NULL));
  if (!test_tmpfs_mount (dir, mnt, 64))
    return;
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  test_tmpfs_fill (filler, 4096);   /* one page: the 21 × 11 grid's */
  status = spawn_cli (tmp, NULL, &err, "spr", "--scene", scene, "--out", out, NULL);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 1 || strstr (err, "no-such-folder") == NULL)
    g_printerr ("status %d, stderr [%s]; expected exit 1 and the missing folder\n", status, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_true (g_str_has_prefix (err, "foldray-cli: --out "));
  g_assert_nonnull (strstr (err, "no-such-folder"));
  g_assert_null (strstr (err, "foldray-scene-"));
  g_assert_cmpuint (count_files (tmp), ==, 0);
  umount (mnt);
}
#endif

static void
test_cli_tmpdir_full (void)
{
#ifdef __linux__
  if (!g_test_subprocess () && g_getenv ("FOLDRAY_CLI") == NULL)
    {
      g_test_skip ("FOLDRAY_CLI not set");
      return;
    }
  test_in_subprocess ("FOLDRAY_TEST_TMPDIR_FULL", cli_tmpdir_full_child);
#else
  g_test_skip ("a tmpfs in a mount namespace is Linux's");
#endif
}

/* Whatever the test runner ignores, the child starts with the defaults. */
static void
default_signals (gpointer data)
{
  (void) data;
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  signal (SIGHUP, SIG_DFL);
}

/* A signal as soon as the temporary folder appears (while the velocity
 * grid is written, or read back by the subcommand before it catches
 * signals itself) kills the run, which takes the folder with it.  Should
 * the signal come later, the solve is cancelled (exit 1): also fine. */
static void
interrupt_scene (int sig, const char *scene, const char *tmp, const char *out)
{
  const char *argv[] = { g_getenv ("FOLDRAY_CLI"), "spr", "--scene", scene, "--radius", "2",
                         "--backend", "cpu", "--out", out, NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "TMPDIR", tmp, TRUE);
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GPid pid;
  int status = 0;
  gboolean seen = FALSE;

  g_assert_true (g_spawn_async (NULL, (char **) argv, envp,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                                G_SPAWN_STDERR_TO_DEV_NULL, default_signals, NULL, &pid, &error));
  g_assert_no_error (error);
  while (!(seen = count_files (tmp) > 0) && waitpid (pid, &status, WNOHANG) == 0 &&
         g_get_monotonic_time () < deadline)
    g_usleep (200);
  if (seen)
    {
      g_assert_cmpint (kill (pid, sig), ==, 0);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    }
  else
    g_test_message ("signal %d: the run ended before its folder was seen", sig);
  g_spawn_close_pid (pid);

  g_assert_true ((WIFSIGNALED (status) && WTERMSIG (status) == sig) ||
                 (WIFEXITED (status) && WEXITSTATUS (status) == 1));
  g_assert_cmpuint (count_files (tmp), ==, 0);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_cli_signal (void)
{
  /* A plain background model: the scene's grid goes out as read, no
   * rasterising before the folder appears, 9 MB written into it. */
  fr_grid g = fr_grid_2d (1500, 1500, 0.01, 0.01, 0.0, 0.0);
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *tmp = g_build_filename (dir, "tmp", NULL);
  g_autofree char *bg = g_build_filename (dir, "bg.npy", NULL);
  g_autofree char *scene = g_build_filename (dir, "big.json", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) vb = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FrSceneDoc) doc = NULL;
  FrVertex src = { 7.5, 0.0 };

  if (g_getenv ("FOLDRAY_CLI") == NULL)
    {
      g_test_skip ("FOLDRAY_CLI not set");
      return;
    }
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = 1.0f + (float) (i % 7);
  write_npy (bg, &g, v);
  doc = fr_scene_doc_new (fr_model_new (&g, 1.0));
  vb = g_bytes_new (v, fr_grid_count (&g) * sizeof (float));
  doc->model->background = fr_background_new (bg, "npy", &g, vb);
  g_array_append_val (doc->sources, src);
  g_assert_true (fr_scene_doc_save (doc, scene, &error));
  g_assert_no_error (error);

  interrupt_scene (SIGINT, scene, tmp, out);
  interrupt_scene (SIGTERM, scene, tmp, out);
  interrupt_scene (SIGHUP, scene, tmp, out);
  test_tmpdir_remove (dir);
}

/* A float64 velocity grid is checked before it is narrowed to float32:
 * -1e-50 is negative (it would round to -0, an obstacle), 1e-50 would
 * become an obstacle, 1e300 infinite; a float32-sized value passes. */
static void
test_grid_float64 (void)
{
  static const struct { double v; const char *needle; } cases[] = {
    { -1e-50, "negative" }, { 1e-50, "range" }, { 1e300, "range" }, { 2.5, NULL },
  };
  g_autofree char *dir = g_dir_make_tmp ("scene-f64-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "v.npy", NULL);

  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      double v[12];
      fr_array a = { .ndim = 2, .shape = { 3, 4 }, .dtype = FR_F64, .data = v };
      fr_grid g;
      gboolean has_spacing;
      g_autoptr(GBytes) values = NULL;
      g_autoptr(GError) error = NULL;

      for (int i = 0; i < 12; i++)
        v[i] = i == 5 ? cases[c].v : 2.0;
      g_assert_cmpint (fr_npy_write (path, &a, NULL), ==, FR_OK);
      gboolean ok = fr_scene_file_read_grid (path, "npy", &g, &has_spacing, &values, &error);
      g_test_message ("%g: %s", cases[c].v, ok ? "read" : error->message);
      if (cases[c].needle == NULL)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_cmpfloat (((const float *) g_bytes_get_data (values, NULL))[5], ==, 2.5f);
        }
      else
        {
          g_assert_false (ok);
          g_assert_nonnull (strstr (error->message, cases[c].needle));
          g_assert_nonnull (strstr (error->message, "ix=1, iz=1"));
        }
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* What a corpus's seed read as: accepted, refused, or not read here. */
typedef enum { SEED_REFUSED, SEED_ACCEPTED, SEED_SKIPPED } SeedRead;

typedef SeedRead (*SeedReader) (const char *name,
                                const char *text,
                                gsize       len,
                                gpointer    data);

/* Reads every seed of the fuzz corpus tests/fuzz/<corpus> with read_seed:
 * 'ok-' seeds must be accepted, 'bad-' seeds refused.  Returns the seeds
 * read. */
static guint
replay_corpus (const char *corpus,
               SeedReader  read_seed,
               gpointer    data)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "fuzz", corpus, NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      gsize len;
      SeedRead read;

      g_assert_true (g_file_get_contents (path, &text, &len, NULL));
      read = read_seed (name, text, len, data);
      if (read == SEED_SKIPPED)
        continue;
      if (g_str_has_prefix (name, "ok-"))
        g_assert_cmpint (read, ==, SEED_ACCEPTED);
      else if (g_str_has_prefix (name, "bad-"))
        g_assert_cmpint (read, ==, SEED_REFUSED);
      n++;
    }
  g_dir_close (d);
  return n;
}

/* A scene seed parsed with its backgrounds in dir, as fuzz-scene.c gives
 * them: refused with a message naming it, or written back as text read
 * again. */
static SeedRead
read_scene_seed (const char *name,
                 const char *text,
                 gsize       len,
                 gpointer    dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FrSceneDoc) doc = NULL;

#ifndef FOLDRAY_HAVE_SEGYIO
  if (strstr (name, "segy") != NULL)
    return SEED_SKIPPED;
#endif
  doc = fr_scene_doc_parse (text, (gssize) len, name, dir, &error);
  g_test_message ("%s: %s", name, doc != NULL ? "read" : error->message);
  if (doc == NULL)
    {
      g_assert_true (g_str_has_prefix (error->message, name));
      return SEED_REFUSED;
    }
  {
    g_autofree char *json = fr_scene_doc_to_json (doc, dir);
    g_autoptr(GError) again_error = NULL;
    g_autoptr(FrSceneDoc) again = fr_scene_doc_parse (json, -1, name, dir, &again_error);

    g_assert_no_error (again_error);
    g_assert_nonnull (again);
  }
  return SEED_ACCEPTED;
}

/* Every seed of the scene fuzzer's corpus (tests/fuzz/corpus-scene), read
 * from a folder holding the grid.npy and grid.sgy its backgrounds name, as
 * fuzz-scene.c gives them: 'ok-' seeds are scenes, 'bad-' seeds are refused
 * with a message, and a scene read writes back as text read again. */
static void
test_fuzz_corpus (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *npy = g_build_filename (dir, "grid.npy", NULL);
  g_autofree char *sgy = g_build_filename (dir, "grid.sgy", NULL);
  const float v[6] = { 1, 2, 3, 4, 5, 6 };
  fr_grid g = fr_grid_2d (3, 2, 1.0, 1.0, 0.0, 0.0);

  write_npy (npy, &g, v);
#ifdef FOLDRAY_HAVE_SEGYIO
  {
    const int x[3] = { 0, 10, 20 };

    write_segy_at (sgy, 3, 2, 5, x, 0, v);
  }
#endif
  g_assert_cmpuint (replay_corpus ("corpus-scene", read_scene_seed, dir), >=, 4);
  g_unlink (npy);
  g_unlink (sgy);
  g_rmdir (dir);
}

/* A sidecar seed read as grid.json beside the 3 x 2 grid.npy npy: placing
 * the grid, or refused naming the sidecar, in UTF-8. */
static SeedRead
read_sidecar_seed (const char *name,
                   const char *text,
                   gsize       len,
                   gpointer    npy)
{
  g_autofree char *json = fr_scene_file_sidecar_path (npy);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) values = NULL;
  gboolean has_spacing = FALSE;
  fr_grid g;

  g_assert_true (g_file_set_contents (json, text, (gssize) len, NULL));
  if (!fr_scene_file_read_grid (npy, "npy", &g, &has_spacing, &values, &error))
    {
      g_test_message ("%s: %s", name, error->message);
      g_assert_nonnull (strstr (error->message, json));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return SEED_REFUSED;
    }
  g_test_message ("%s: read", name);
  g_assert_no_error (error);
  g_assert_true (has_spacing);
  g_assert_cmpint (fr_grid_check (&g, NULL), ==, FR_OK);
  g_assert_true (g.nx == 3 && g.nz == 2);
  return SEED_ACCEPTED;
}

/* Every seed of the sidecar fuzzer's corpus (tests/fuzz/corpus-sidecar),
 * read as fuzz-sidecar.c reads it: as grid.json beside a 3 x 2 grid.npy.
 * 'ok-' seeds place the grid, 'bad-' seeds are refused naming the sidecar,
 * in UTF-8. */
static void
test_fuzz_sidecar_corpus (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *npy = g_build_filename (dir, "grid.npy", NULL);
  g_autofree char *json = g_build_filename (dir, "grid.json", NULL);
  const float v[6] = { 1, 2, 3, 4, 5, 6 };
  fr_grid unit = fr_grid_2d (3, 2, 1.0, 1.0, 0.0, 0.0);

  write_npy (npy, &unit, v);
  g_assert_cmpuint (replay_corpus ("corpus-sidecar", read_sidecar_seed, npy), >=, 4);
  g_unlink (json);
  g_unlink (npy);
  g_rmdir (dir);
}

/* fr_message_make_valid, what every message shown by GTK passes through:
 * UTF-8 out whatever comes in (random bytes, and UTF-8 cut anywhere),
 * valid UTF-8 unchanged, and a quote cut inside a character ending before
 * it rather than in U+FFFD. */
static void
test_message_make_valid (void)
{
  static const char * const valid[] = { "", "plain", "caf\u00e9 \u03c8a \u00b7 \U0001F600", "\"\"" };
  GRand *rand = g_rand_new_with_seed (7);

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autofree char *out = fr_message_make_valid (valid[i]);

      g_assert_cmpstr (out, ==, valid[i]);
    }
  {
    g_autofree char *out = fr_message_make_valid ("token \"ab\xce\" at 3");
    g_autofree char *latin = fr_message_make_valid ("caf\xe9.json: no");

    g_assert_cmpstr (out, ==, "token \"ab\" at 3");
    g_assert_cmpstr (latin, ==, "caf\xef\xbf\xbd.json: no");
  }
  for (int k = 0; k < 20000; k++)
    {
      char bytes[24];
      int n = g_rand_int_range (rand, 0, (int) sizeof bytes);
      g_autofree char *out = NULL;

      for (int i = 0; i < n; i++)
        {
          /* Mostly the bytes of UTF-8's leads and continuations, quotes
           * and ASCII, never NUL (a C string's end). */
          static const guchar pick[] = { 'a', '"', 0x80, 0xBF, 0xC2, 0xCE, 0xE2, 0xF0, 0xF4, 0xFF };
          bytes[i] = (char) (g_rand_boolean (rand) ? pick[g_rand_int_range (rand, 0, G_N_ELEMENTS (pick))]
                                                   : g_rand_int_range (rand, 1, 256));
        }
      bytes[n] = '\0';
      out = fr_message_make_valid (bytes);
      g_assert_true (g_utf8_validate (out, -1, NULL));
      if (g_utf8_validate (bytes, -1, NULL))
        g_assert_cmpstr (out, ==, bytes);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scene-file/round-trip", test_round_trip);
  g_test_add_func ("/scene-file/grid-float64", test_grid_float64);
  g_test_add_func ("/scene-file/malformed", test_malformed);
  g_test_add_func ("/scene-file/malformed-translated", test_malformed_translated);
  g_test_add_func ("/scene-file/display-defaults", test_display_defaults);
  g_test_add_func ("/scene-file/radius-cut", test_radius_cut);
  g_test_add_func ("/scene-file/radius-per-axis", test_radius_per_axis);
  g_test_add_func ("/scene-file/bundled-display", test_bundled_display);
  g_test_add_func ("/scene-file/units", test_units);
  g_test_add_func ("/scene-file/atomic-save", test_atomic_save);
  g_test_add_func ("/scene-file/background-updir", test_background_updir);
  g_test_add_func ("/scene-file/background-origin", test_background_origin);
  g_test_add_func ("/scene-file/too-large", test_scene_too_large);
  g_test_add_func ("/scene-file/format-shortest", test_format_shortest);
  g_test_add_func ("/scene-file/save-symlink", test_save_symlink);
  g_test_add_func ("/scene-file/save-mode", test_save_mode);
  g_test_add_func ("/scene-file/save-private-mode", test_save_private_mode);
  g_test_add_func ("/scene-file/save-error-names-file", test_save_error_names_file);
  g_test_add_func ("/scene-file/save-disk-full", test_save_disk_full);
  g_test_add_func ("/scene-file/segy", test_segy);
  g_test_add_func ("/scene-file/segy-too-large", test_segy_too_large);
  g_test_add_func ("/scene-file/grid-sidecar", test_grid_sidecar);
  g_test_add_func ("/scene-file/cli", test_cli);
  g_test_add_func ("/scene-file/deep-nesting", test_deep_nesting);
  g_test_add_func ("/scene-file/cli-messages", test_cli_messages);
  g_test_add_func ("/scene-file/cli-usage", test_cli_usage);
  g_test_add_func ("/scene-file/cli-scene-not-output", test_cli_scene_not_output);
  g_test_add_func ("/scene-file/cli-out-of-memory", test_cli_out_of_memory);
  g_test_add_func ("/scene-file/cli-tmpdir-full", test_cli_tmpdir_full);
  g_test_add_func ("/scene-file/cli-signal", test_cli_signal);
  g_test_add_func ("/scene-file/message-make-valid", test_message_make_valid);
  g_test_add_func ("/scene-file/fuzz/corpus", test_fuzz_corpus);
  g_test_add_func ("/scene-file/fuzz/sidecar-corpus", test_fuzz_sidecar_corpus);
  return g_test_run ();
}
