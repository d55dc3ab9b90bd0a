/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opening a scene document into the scene (fr_scene_load_doc, what the
 * window's Open calls after reading the file): sources and receivers in
 * the grid snap to its nodes, those on its edge up to rounding stay there,
 * and one outside it (or a fold's characteristic point outside it) refuses
 * the whole document with a message naming it,
 * like foldray-cli's, leaving the scene as it was (app/fr-scene.c).  So
 * does a grid too large for the memory the process may use, before
 * anything of its size is allocated, and a model whose rasterisation
 * fails all the same. */
#include <string.h>

#include <gio/gio.h>
#include <glib.h>

#include "config.h"
#include "fr-data-dir.h"
#include "fr-model-memory.h"
#include "fr-scene.h"
#include "test-rlimit.h"

/* A scene of nx × nz nodes at spacing d from (x0, z0), with the sources
 * and receivers given as JSON arrays of [x, z]. */
static FrSceneDoc *
parse_scene (guint       nx,
             guint       nz,
             double      d,
             double      x0,
             double      z0,
             const char *sources,
             const char *receivers)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  FrSceneDoc *doc;
  char sd[G_ASCII_DTOSTR_BUF_SIZE], sx[G_ASCII_DTOSTR_BUF_SIZE], sz[G_ASCII_DTOSTR_BUF_SIZE];

  text = g_strdup_printf ("{\"format\": \"foldray-scene\", \"version\": 1, \"title\": \"points\", "
                          "\"grid\": {\"nx\": %u, \"nz\": %u, \"spacing\": [%s, %s], \"origin\": [%s, %s]}, "
                          "\"default_velocity\": 1.5, \"sources\": %s, \"receivers\": %s}",
                          nx, nz, g_ascii_dtostr (sd, sizeof sd, d), sd,
                          g_ascii_dtostr (sx, sizeof sx, x0), g_ascii_dtostr (sz, sizeof sz, z0),
                          sources, receivers);
  doc = fr_scene_doc_parse (text, -1, "points.json", g_get_tmp_dir (), &error);
  g_assert_no_error (error);
  return doc;
}

/* The three-layer grid of data/scenes: x 0 to 3, z 0 to 1.5 at 0.01. */
static FrSceneDoc *
three_layer_grid (const char *sources,
                  const char *receivers)
{
  return parse_scene (301, 151, 0.01, 0.0, 0.0, sources, receivers);
}

static void
assert_marker (FrScene      *scene,
               FrMarkerKind  kind,
               guint         index,
               double        x,
               double        z)
{
  guint n;
  const FrPoint *p = fr_scene_get_markers (scene, kind, &n);

  g_assert_cmpuint (index, <, n);
  g_assert_cmpfloat (p[index].x, ==, x);
  g_assert_cmpfloat (p[index].z, ==, z);
}

static guint
n_markers (FrScene      *scene,
           FrMarkerKind  kind)
{
  guint n;

  fr_scene_get_markers (scene, kind, &n);
  return n;
}

/* Receivers beside, left of and 5 km below the model are refused, named
 * as the CLI names them; the scene keeps what it had. */
static void
test_outside_refused (void)
{
  FrScene *scene = fr_scene_new ();
  g_autoptr(FrSceneDoc) good = three_layer_grid ("[[1.5, 0]]", "[[0.15, 0]]");
  g_autoptr(FrSceneDoc) bad = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *velocity;

  g_assert_true (fr_scene_load_doc (scene, good, NULL));
  velocity = fr_scene_get_velocity (scene);

  bad = three_layer_grid ("[[1.5, 0]]", "[[0.15, 0], [3.5, 0], [-0.2, 0.5], [1.0, 5.0]]");
  g_assert_false (fr_scene_load_doc (scene, bad, &error));
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "Receiver 2 at (3.5, 0) lies outside the grid"));
  g_assert_nonnull (strstr (error->message, "(x from 0 to 3, z from 0 to 1.5)"));
  g_assert_nonnull (strstr (error->message, "2 more points"));

  /* Nothing of the refused document: not its points, not its model. */
  g_assert_true (fr_scene_get_velocity (scene) == velocity);
  g_assert_cmpuint (n_markers (scene, FR_MARKER_SOURCE), ==, 1);
  g_assert_cmpuint (n_markers (scene, FR_MARKER_RECEIVER), ==, 1);
  assert_marker (scene, FR_MARKER_RECEIVER, 0, 0.15, 0.0);
  g_clear_pointer (&bad, fr_scene_doc_free);
  g_clear_error (&error);

  /* A source above the surface, alone. */
  bad = three_layer_grid ("[[1.5, -0.25]]", "[]");
  g_assert_false (fr_scene_load_doc (scene, bad, &error));
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Source 1 at (1.5, -0.25) lies outside the grid"));
  g_assert_null (strstr (error->message, "more"));
  g_clear_pointer (&bad, fr_scene_doc_free);
  g_clear_error (&error);

  /* A tenth of a cell beyond the edge is beyond it, also on a fine grid
   * far from the origin. */
  bad = three_layer_grid ("[]", "[[3.001, 0.5]]");
  g_assert_false (fr_scene_load_doc (scene, bad, &error));
  g_assert_nonnull (strstr (error->message, "Receiver 1 at (3.001, 0.5)"));
  g_clear_pointer (&bad, fr_scene_doc_free);
  g_clear_error (&error);
  bad = parse_scene (301, 151, 1e-5, 100.0, 50.0, "[[100.003001, 50.001]]", "[]");
  g_assert_false (fr_scene_load_doc (scene, bad, &error));
  g_assert_nonnull (strstr (error->message, "Source 1 at (100.003001, 50.001)"));
  g_assert_nonnull (strstr (error->message, "(x from 100 to 100.003, z from 50 to 50.0015)"));

  g_assert_cmpuint (n_markers (scene, FR_MARKER_SOURCE), ==, 1);
  g_clear_pointer (&bad, fr_scene_doc_free);
  g_clear_error (&error);

  /* A fold's characteristic point below the model, named as such. */
  bad = three_layer_grid ("[[1.5, 0]]", "[]");
  bad->fold_characteristics = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  g_array_append_vals (bad->fold_characteristics, (FrVertex[]) { { 1.0, 0.5 }, { 1.0, 1.75 } }, 2);
  g_assert_false (fr_scene_load_doc (scene, bad, &error));
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Characteristic point 2 at (1, 1.75) lies outside the grid"));
  g_assert_cmpuint (n_markers (scene, FR_MARKER_SOURCE), ==, 1);
  g_assert_finalize_object (scene);
}

/* On the edge up to rounding is on the grid: such points go to the edge
 * nodes, and points inside to their nearest nodes, at the decimal places
 * the nodes stand for. */
static void
test_edge_accepted (void)
{
  FrScene *scene = fr_scene_new ();
  g_autoptr(FrSceneDoc) doc = NULL;

  doc = three_layer_grid ("[[0.0049, 0.7], [1.5, 0]]",
                          "[[3.0000000001, 0], [-1e-12, 1.5000000001], [3, 1.5], [0, 0]]");
  g_assert_true (fr_scene_load_doc (scene, doc, NULL));
  assert_marker (scene, FR_MARKER_SOURCE, 0, 0.0, 0.7);
  assert_marker (scene, FR_MARKER_SOURCE, 1, 1.5, 0.0);
  assert_marker (scene, FR_MARKER_RECEIVER, 0, 3.0, 0.0);
  assert_marker (scene, FR_MARKER_RECEIVER, 1, 0.0, 1.5);
  assert_marker (scene, FR_MARKER_RECEIVER, 2, 3.0, 1.5);
  assert_marker (scene, FR_MARKER_RECEIVER, 3, 0.0, 0.0);
  g_assert_false (fr_scene_get_modified (scene));
  g_clear_pointer (&doc, fr_scene_doc_free);

  /* A node's place is the decimal it stands for, as a scene file writes
   * it: 165 × 0.01 is 1.6500000000000001 in binary, and a saved scene
   * showed that; 1.65 is the same node. */
  doc = three_layer_grid ("[[1.6512, 0.4449]]", "[[2.549, 1.05]]");
  g_assert_true (fr_scene_load_doc (scene, doc, NULL));
  assert_marker (scene, FR_MARKER_SOURCE, 0, 1.65, 0.44);
  assert_marker (scene, FR_MARKER_RECEIVER, 0, 2.55, 1.05);
  g_assert_cmpfloat (165 * 0.01, !=, 1.65);
  g_clear_pointer (&doc, fr_scene_doc_free);

  /* A fine grid far from the origin: its edge, written in decimals. */
  doc = parse_scene (301, 151, 1e-5, 100.0, 50.0, "[[100.003, 50.0015]]", "[[100, 50]]");
  g_assert_true (fr_scene_load_doc (scene, doc, NULL));
  assert_marker (scene, FR_MARKER_SOURCE, 0, 100.003, 50.0015);
  assert_marker (scene, FR_MARKER_RECEIVER, 0, 100.0, 50.0);
  g_assert_finalize_object (scene);
}

#define GiB 1073741824.0

/* The scene as a good document of three_layer_grid left it. */
static void
assert_scene_kept (FrScene    *scene,
                   GBytes     *velocity)
{
  g_assert_cmpstr (fr_scene_get_title (scene), ==, "points");
  g_assert_cmpuint (fr_scene_get_grid (scene)->nx, ==, 301);
  g_assert_cmpuint (fr_scene_get_grid (scene)->nz, ==, 151);
  g_assert_cmpuint (fr_scene_get_model (scene)->grid.nx, ==, 301);
  g_assert_true (fr_scene_get_velocity (scene) == velocity);
  g_assert_cmpuint (n_markers (scene, FR_MARKER_SOURCE), ==, 1);
  g_assert_cmpuint (n_markers (scene, FR_MARKER_RECEIVER), ==, 1);
  assert_marker (scene, FR_MARKER_RECEIVER, 0, 0.15, 0.0);
}

/* In a child held by ulimit -v to 1 GiB more than it maps: the lead's
 * 100-byte scene of 46000 × 46000 nodes (7.9 GB of velocities alone) is
 * refused before it is rasterised, with the memory check's message, and
 * the scene stays as it was.  Before, the rasteriser's refusal fell back
 * to allocating the same size with g_new0, and the app aborted. */
static void
big_grid_child (void)
{
  FrScene *scene = fr_scene_new ();
  g_autoptr(FrSceneDoc) good = three_layer_grid ("[[1.5, 0]]", "[[0.15, 0]]");
  g_autoptr(FrSceneDoc) big = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *want = NULL;
  GBytes *velocity;

  g_assert_true (fr_scene_load_doc (scene, good, NULL));
  velocity = fr_scene_get_velocity (scene);

  g_assert_true (test_limit_memory (RLIMIT_AS, "VmSize:", GiB));

  big = parse_scene (46000, 46000, 0.01, 0.0, 0.0, "[[1, 1]]", "[]");
  g_assert_false (fr_scene_load_doc (scene, big, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_test_message ("%s", error->message);
  want = g_strdup_printf ("A 46000 × 46000 grid needs about %.1f GB of memory, this machine has ",
                          46000.0 * 46000.0 * FR_MODEL_MEMORY_BYTES_PER_NODE / GiB);
  g_assert_true (g_str_has_prefix (error->message, want));
  g_assert_true (g_str_has_suffix (error->message, " GB (the rest of its address-space limit, "
                                                   "ulimit -v)"));
  assert_scene_kept (scene, velocity);
  g_clear_error (&error);

  /* The model panel's largest grid, 8192 × 8192 (2.5 GB to hold), is
   * refused the same way, and the grid stays. */
  g_assert_false (fr_scene_set_nodes (scene, FR_MODEL_MAX_NODES, FR_MODEL_MAX_NODES, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_test_message ("%s", error->message);
  g_free (want);
  want = g_strdup_printf ("A 8192 × 8192 grid needs about %.1f GB of memory",
                          8192.0 * 8192.0 * FR_MODEL_MEMORY_BYTES_PER_NODE / GiB);
  g_assert_true (g_str_has_prefix (error->message, want));
  assert_scene_kept (scene, velocity);
  g_assert_finalize_object (scene);
}

static void
test_big_grid_refused (void)
{
  test_in_limited_child (RLIMIT_AS, big_grid_child, 60 * G_USEC_PER_SEC);
}

/* What the app holds per node, and a background on a grid of its own on
 * top of that. */
static void
test_memory_need (void)
{
  g_autoptr(FrSceneDoc) doc = three_layer_grid ("[]", "[]");
  fr_grid bg = fr_grid_2d (10, 20, 1.0, 1.0, 0.0, 0.0);
  g_autoptr(GBytes) values = g_bytes_new_take (g_new0 (float, 200), 200 * sizeof (float));

  g_assert_cmpfloat (fr_model_memory_need (doc->model), ==, 301.0 * 151.0 * 40.0);
  doc->model->background = fr_background_new (NULL, "npy", &bg, values);
  g_assert_cmpfloat (fr_model_memory_need (doc->model), ==, 301.0 * 151.0 * 40.0 + 800.0);
  g_assert_true (fr_model_memory_check (doc->model, NULL));
}

/* A rasteriser that runs out of memory even though the check passed. */
static GBytes *
rasterise_no_memory (const FrModel  *model,
                     char          **warning,
                     GError        **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               "Not enough memory for the velocities of %zu × %zu nodes.",
               model->grid.nx, model->grid.nz);
  return NULL;
}

/* Should rasterising fail anyway, the document is refused with its error
 * and the scene stays: nothing of the grid's size is allocated again
 * (before, a velocity of 1 everywhere was, with g_new0, and a warning). */
static void
test_raster_failure_refused (void)
{
  FrScene *scene = fr_scene_new ();
  g_autoptr(FrSceneDoc) good = three_layer_grid ("[[1.5, 0]]", "[[0.15, 0]]");
  g_autoptr(FrSceneDoc) other = parse_scene (101, 51, 0.01, 0.0, 0.0, "[[0.5, 0]]", "[]");
  g_autoptr(GError) error = NULL;
  GBytes *velocity;

  g_assert_true (fr_scene_load_doc (scene, good, NULL));
  velocity = fr_scene_get_velocity (scene);
  fr_scene_set_rasteriser (scene, rasterise_no_memory);
  g_assert_false (fr_scene_load_doc (scene, other, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_cmpstr (error->message, ==, "Not enough memory for the velocities of 101 × 51 nodes.");
  assert_scene_kept (scene, velocity);
  g_assert_finalize_object (scene);
}

/* The bundled data comes from $FOLDRAY_DATA_DIR, else, for the app run
 * from its build folder alone, the source tree, else the install: this test
 * program is not that app, so without the variable the source tree is not
 * its data (an installed app had read the build machine's checkout). */
static void
test_data_dir (void)
{
  g_autofree char *data = g_strdup (g_getenv ("FOLDRAY_DATA_DIR"));
  g_autofree char *installed = g_build_filename (FOLDRAY_PKGDATADIR, "fold",
                                                 "anticline-syncline.csv", NULL);
  g_autofree char *found = NULL, *unset = NULL;

  g_assert_nonnull (data);
  found = fr_data_find ("fold", "anticline-syncline.csv");
  g_assert_nonnull (found);
  g_assert_true (g_str_has_prefix (found, data));
  g_assert_null (fr_data_find ("fold", "no-such-horizon.csv"));

  g_unsetenv ("FOLDRAY_DATA_DIR");
  unset = fr_data_find ("fold", "anticline-syncline.csv");
  g_setenv ("FOLDRAY_DATA_DIR", data, TRUE);
  if (g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    g_assert_cmpstr (unset, ==, installed);   /* this machine has Foldray installed */
  else
    g_assert_null (unset);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/scene-load/outside-refused", test_outside_refused);
  g_test_add_func ("/app/scene-load/edge-accepted", test_edge_accepted);
  g_test_add_func ("/app/scene-load/data-dir", test_data_dir);
  g_test_add_func ("/app/scene-load/memory-need", test_memory_need);
  g_test_add_func ("/app/scene-load/big-grid-refused", test_big_grid_refused);
  g_test_add_func ("/app/scene-load/raster-failure-refused", test_raster_failure_refused);
  return g_test_run ();
}
