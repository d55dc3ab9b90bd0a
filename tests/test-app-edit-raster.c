/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A drag's model edits are rasterised off the main thread
 * (app/fr-raster-worker.c through app/fr-scene.c): each velocity that
 * lands is the plain rasteriser's for a model the drag passed through, in
 * order; moves made while one runs collapse into the newest; the end of
 * the edit brings in the last model's velocity, and nothing older lands
 * after it. */
#include <string.h>

#include <gio/gio.h>

#include "fr-model.h"
#include "fr-scene.h"

typedef struct
{
  guint   velocity_changes;
  guint   outline_changes;
  GBytes *seen[8];          /* the velocity at each VELOCITY change */
} Changes;

static void
changed_cb (FrScene *scene,
            guint    what,
            gpointer data)
{
  Changes *c = data;

  if (what & FR_SCENE_CHANGED_OUTLINES)
    c->outline_changes++;
  if (!(what & FR_SCENE_CHANGED_VELOCITY))
    return;
  if (c->velocity_changes < G_N_ELEMENTS (c->seen))
    c->seen[c->velocity_changes] = g_bytes_ref (fr_scene_get_velocity (scene));
  c->velocity_changes++;
}

static void
changes_clear (Changes *c)
{
  for (guint i = 0; i < G_N_ELEMENTS (c->seen); i++)
    g_clear_pointer (&c->seen[i], g_bytes_unref);
}

/* Two layers with a gradient and an obstacle on 401 × 201 nodes: enough
 * that a rasterisation takes a while. */
static FrScene *
layered_scene (void)
{
  fr_grid g = fr_grid_2d (401, 201, 0.01, 0.01, 0.0, 0.0);
  FrModel *m = fr_model_new (&g, 1.0);
  FrScene *scene = fr_scene_new ();
  FrObstacle *o;
  FrLayer *l;

  l = fr_layer_new (1.5, 0.2, 0.0);
  fr_layer_add_node (l, 0.0, 0.0);
  fr_layer_add_node (l, 4.0, 0.0);
  g_ptr_array_add (m->layers, l);
  l = fr_layer_new (3.0, 0.5, 0.1);
  fr_layer_add_node (l, 0.0, 0.8);
  fr_layer_add_node (l, 2.0, 1.0);
  fr_layer_add_node (l, 4.0, 1.2);
  g_ptr_array_add (m->layers, l);
  o = fr_obstacle_new_rectangle (2.5, 0.3, 3.0, 0.6, 0.0);
  g_ptr_array_add (m->obstacles, o);
  g_assert_true (fr_scene_load_model (scene, "layers", m, NULL));
  return scene;
}

/* The middle node of the second interface, as the editor drags it. */
static FrVertex *
dragged_node (FrScene *scene)
{
  FrLayer *l = g_ptr_array_index (fr_scene_edit_model (scene)->layers, 1);

  return &g_array_index (l->nodes, FrVertex, 1);
}

/* The plain rasteriser's velocity for the scene's model now. */
static GBytes *
reference_velocity (FrScene *scene)
{
  g_autoptr(GError) error = NULL;
  GBytes *v = fr_model_rasterise (fr_scene_get_model (scene), NULL, &error);

  g_assert_no_error (error);
  return v;
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until *count reaches want, or 20 s pass. */
static void
run_until (const guint *count,
           guint        want)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (20, timeout_cb, &timed_out);

  while (*count < want && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_cmpuint (*count, >=, want);
}

/* Runs the main loop for ms milliseconds: long enough for a worker's
 * rasterisation of these models to land, were it to. */
static void
run_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* A move inside an edit returns before its velocity, having said at once
 * that the model's lines moved (and made the scene modified); the velocity
 * that lands is the plain rasteriser's, and the end of the edit adds
 * nothing. */
static void
test_move_lands (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) before = g_bytes_ref (fr_scene_get_velocity (scene));
  g_autoptr(GBytes) after = NULL;
  Changes c = { 0 };

  g_signal_connect (scene, "changed", G_CALLBACK (changed_cb), &c);
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.4;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  g_assert_cmpuint (c.velocity_changes, ==, 0);
  g_assert_cmpuint (c.outline_changes, ==, 1);
  g_assert_true (fr_scene_get_modified (scene));
  run_until (&c.velocity_changes, 1);
  after = reference_velocity (scene);
  g_assert_false (g_bytes_equal (before, after));
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), after));
  fr_scene_end_edit (scene, "Move Node");
  g_assert_cmpuint (c.velocity_changes, ==, 1);
  g_assert_true (fr_scene_get_modified (scene));

  /* Undo puts back the velocity of the model before the drag. */
  fr_undo_undo (fr_scene_get_undo (scene));
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), before));
  run_for (200);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), before));

  changes_clear (&c);
  g_assert_finalize_object (scene);
}

/* Thirty moves while the first is rasterised: the first lands, then only
 * the newest; the other 28 are never rasterised. */
static void
test_latest_wins (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) last = NULL;
  Changes c = { 0 };

  g_signal_connect (scene, "changed", G_CALLBACK (changed_cb), &c);
  fr_scene_begin_edit (scene);
  for (int i = 1; i <= 30; i++)
    {
      dragged_node (scene)->z = 1.0 + 0.02 * i;
      g_assert_true (fr_scene_model_changed (scene, NULL));
      if (i == 1)
        first = reference_velocity (scene);
    }
  last = reference_velocity (scene);
  run_until (&c.velocity_changes, 2);
  run_for (200);
  g_assert_cmpuint (c.velocity_changes, ==, 2);
  g_assert_true (g_bytes_equal (c.seen[0], first));
  g_assert_true (g_bytes_equal (c.seen[1], last));
  fr_scene_end_edit (scene, "Move Node");
  g_assert_cmpuint (c.velocity_changes, ==, 2);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), last));

  changes_clear (&c);
  g_assert_finalize_object (scene);
}

/* An edit ended before anything landed has its last model's velocity at
 * once, and the older rasterisation still running never shows. */
static void
test_end_brings_last (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) last = NULL;
  Changes c = { 0 };

  g_signal_connect (scene, "changed", G_CALLBACK (changed_cb), &c);
  fr_scene_begin_edit (scene);
  for (int i = 1; i <= 5; i++)
    {
      dragged_node (scene)->z = 1.0 - 0.05 * i;
      g_assert_true (fr_scene_model_changed (scene, NULL));
    }
  last = reference_velocity (scene);
  fr_scene_end_edit (scene, "Move Node");
  g_assert_cmpuint (c.velocity_changes, ==, 1);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), last));
  run_for (500);
  g_assert_cmpuint (c.velocity_changes, ==, 1);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), last));

  /* One move only: the end waits for the worker's run of it. */
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 0.5;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  g_clear_pointer (&last, g_bytes_unref);
  last = reference_velocity (scene);
  fr_scene_end_edit (scene, "Move Node");
  g_assert_cmpuint (c.velocity_changes, ==, 2);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), last));
  run_for (300);
  g_assert_cmpuint (c.velocity_changes, ==, 2);

  changes_clear (&c);
  g_assert_finalize_object (scene);
}

/* A model loaded while a drag's rasterisation runs replaces it: the old
 * drag's velocity never lands on the new model. */
static void
test_replaced_while_running (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(FrScene) other = layered_scene ();
  g_autoptr(GBytes) fresh = NULL;
  Changes c = { 0 };

  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.5;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  g_assert_true (fr_scene_load_model (scene, "again", fr_model_copy (fr_scene_get_model (other)),
                                      NULL));
  fresh = reference_velocity (scene);
  g_signal_connect (scene, "changed", G_CALLBACK (changed_cb), &c);
  run_for (500);
  g_assert_cmpuint (c.velocity_changes, ==, 0);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), fresh));

  changes_clear (&c);
  g_assert_finalize_object (scene);
}

/* A move the model refuses, after one it took: the refused one is never
 * rasterised, and the edit ends on the velocity of the model put back. */
static void
test_refused_move (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) kept = NULL;
  Changes c = { 0 };

  g_signal_connect (scene, "changed", G_CALLBACK (changed_cb), &c);
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.25;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  kept = reference_velocity (scene);
  dragged_node (scene)->x = 5.0;   /* past the next node: x must increase */
  g_assert_false (fr_scene_model_changed (scene, NULL));
  dragged_node (scene)->x = 2.0;   /* the caller puts it back */
  fr_scene_end_edit (scene, "Move Node");
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), kept));
  run_for (300);
  g_assert_cmpuint (c.velocity_changes, ==, 1);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), kept));

  changes_clear (&c);
  g_assert_finalize_object (scene);
}

/* The grid changed in the same edit after a move went to the worker: the
 * new grid's velocity is made at once, and the move's never lands on it. */
static void
test_grid_change_after_move (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) regridded = NULL;
  Changes c = { 0 };

  g_signal_connect (scene, "changed", G_CALLBACK (changed_cb), &c);
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.45;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  fr_scene_edit_model (scene)->grid = fr_grid_2d (201, 101, 0.02, 0.02, 0.0, 0.0);
  g_assert_true (fr_scene_model_changed (scene, NULL));
  regridded = reference_velocity (scene);
  g_assert_cmpuint (fr_grid_count (fr_scene_get_grid (scene)), ==, 201 * 101);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), regridded));
  run_for (500);
  fr_scene_end_edit (scene, "Regrid");
  g_assert_cmpuint (c.velocity_changes, ==, 0);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), regridded));

  changes_clear (&c);
  g_assert_finalize_object (scene);
}

/* A panel's value typed while a drag's (or a wheel burst's) edit is open
 * is solved as typed: its velocity is there when the call returns. */
static void
test_panel_edit_inside_edit (void)
{
  FrScene *scene = layered_scene ();

  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.1;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  g_assert_true (fr_scene_set_layer_velocity (scene, 1, 3.3, 0.4, 0.0, NULL));
  {
    g_autoptr(GBytes) want = reference_velocity (scene);

    g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), want));
  }
  fr_scene_end_edit (scene, "Move Node");
  {
    g_autoptr(GBytes) want = reference_velocity (scene);

    g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), want));
  }
  run_for (300);
  g_assert_finalize_object (scene);
}

/* A scene let go with a rasterisation running waits for its thread; the
 * result posted afterwards finds no scene and is freed (AddressSanitizer
 * in CI watches this). */
static void
test_dispose_while_running (void)
{
  FrScene *scene = layered_scene ();

  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.3;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  dragged_node (scene)->z = 1.35;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  g_object_unref (scene);
  run_for (300);
}

/* A stand-in for fr_model_rasterise that runs out of memory for a model
 * whose dragged node lies at z >= 1.5, or whose second layer starts at 5
 * or faster, as a big grid's would: the test picks which edits fail. */
static GBytes *
rasterise_failing_deep (const FrModel  *model,
                        char          **warning,
                        GError        **error)
{
  const FrLayer *l = g_ptr_array_index (model->layers, 1);

  if (g_array_index (l->nodes, FrVertex, 1).z >= 1.5 || l->v_top >= 5.0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "no memory (test)");
      return NULL;
    }
  return fr_model_rasterise (model, warning, error);
}

static void
raster_failed_cb (FrScene      *scene,
                  const GError *error,
                  gpointer      data)
{
  guint *failures = data;

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  (*failures)++;
}

/* The drag's last model cannot be rasterised: at the edit's end the model
 * goes back to the last one whose velocity landed, the window is told
 * once, and what is drawn is what is solved. */
static void
test_end_fails_back_to_landed (gconstpointer data)
{
  gboolean last_lands_first = GPOINTER_TO_INT (data);
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) landed = NULL;
  guint failures = 0;
  Changes c = { 0 };

  fr_scene_set_rasteriser (scene, rasterise_failing_deep);
  g_signal_connect (scene, "changed", G_CALLBACK (changed_cb), &c);
  g_signal_connect (scene, "raster-failed", G_CALLBACK (raster_failed_cb), &failures);
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.2;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  run_until (&c.velocity_changes, 1);
  landed = reference_velocity (scene);
  dragged_node (scene)->z = 1.6;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  if (last_lands_first)
    run_for (1500);   /* its failure lands before the edit ends */
  g_assert_cmpuint (failures, ==, 0);
  fr_scene_end_edit (scene, "Move Node");
  g_assert_cmpuint (failures, ==, 1);
  g_assert_cmpfloat (dragged_node (scene)->z, ==, 1.2);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), landed));
  {
    g_autoptr(GBytes) want = reference_velocity (scene);

    g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), want));
  }
  /* The step undone is the one to z = 1.2. */
  g_assert_true (fr_undo_can_undo (fr_scene_get_undo (scene)));
  run_for (200);
  g_assert_cmpuint (failures, ==, 1);

  changes_clear (&c);
  g_assert_finalize_object (scene);
}

/* Nothing of the drag was rasterised: the model goes back to the edit's
 * first, the velocity stays, and no undo step is left. */
static void
test_end_fails_back_to_first (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) before = g_bytes_ref (fr_scene_get_velocity (scene));
  guint failures = 0;

  fr_scene_set_rasteriser (scene, rasterise_failing_deep);
  g_signal_connect (scene, "raster-failed", G_CALLBACK (raster_failed_cb), &failures);
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.7;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  fr_scene_end_edit (scene, "Move Node");
  g_assert_cmpuint (failures, ==, 1);
  g_assert_cmpfloat (dragged_node (scene)->z, ==, 1.0);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), before));
  g_assert_false (fr_undo_can_undo (fr_scene_get_undo (scene)));

  g_assert_finalize_object (scene);
}

/* A panel's edit that cannot be rasterised is refused to its caller, who
 * shows the error; no "raster-failed", and the model is as it was. */
static void
test_panel_edit_fails (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) before = g_bytes_ref (fr_scene_get_velocity (scene));
  g_autoptr(GError) error = NULL;
  guint failures = 0;

  fr_scene_set_rasteriser (scene, rasterise_failing_deep);
  g_signal_connect (scene, "raster-failed", G_CALLBACK (raster_failed_cb), &failures);
  g_assert_false (fr_scene_set_layer_velocity (scene, 1, 5.5, 0.5, 0.1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_cmpuint (failures, ==, 0);
  g_assert_cmpfloat (((FrLayer *) g_ptr_array_index (fr_scene_get_model (scene)->layers, 1))->v_top,
                     ==, 3.0);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), before));
  g_assert_false (fr_undo_can_undo (fr_scene_get_undo (scene)));

  g_assert_finalize_object (scene);
}

/* An undo whose model cannot be rasterised keeps the model the velocity
 * shows, and says so. */
static void
test_undo_fails (void)
{
  FrScene *scene = layered_scene ();
  g_autoptr(GBytes) moved = NULL;
  guint failures = 0;

  /* The model starts deep (failing), is moved up (fine), then undone. */
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.6;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  fr_scene_end_edit (scene, "Move Node");
  fr_undo_clear (fr_scene_get_undo (scene));
  fr_scene_set_rasteriser (scene, rasterise_failing_deep);
  g_signal_connect (scene, "raster-failed", G_CALLBACK (raster_failed_cb), &failures);
  fr_scene_begin_edit (scene);
  dragged_node (scene)->z = 1.1;
  g_assert_true (fr_scene_model_changed (scene, NULL));
  fr_scene_end_edit (scene, "Move Node");
  g_assert_cmpuint (failures, ==, 0);
  moved = reference_velocity (scene);
  fr_undo_undo (fr_scene_get_undo (scene));
  g_assert_cmpuint (failures, ==, 1);
  g_assert_cmpfloat (dragged_node (scene)->z, ==, 1.1);
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), moved));

  g_assert_finalize_object (scene);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/edit-raster/move-lands", test_move_lands);
  g_test_add_func ("/app/edit-raster/latest-wins", test_latest_wins);
  g_test_add_func ("/app/edit-raster/end-brings-last", test_end_brings_last);
  g_test_add_func ("/app/edit-raster/replaced-while-running", test_replaced_while_running);
  g_test_add_func ("/app/edit-raster/refused-move", test_refused_move);
  g_test_add_func ("/app/edit-raster/grid-change-after-move", test_grid_change_after_move);
  g_test_add_func ("/app/edit-raster/panel-edit-inside-edit", test_panel_edit_inside_edit);
  g_test_add_func ("/app/edit-raster/dispose-while-running", test_dispose_while_running);
  g_test_add_data_func ("/app/edit-raster/end-fails/last-running", GINT_TO_POINTER (FALSE),
                        test_end_fails_back_to_landed);
  g_test_add_data_func ("/app/edit-raster/end-fails/last-landed", GINT_TO_POINTER (TRUE),
                        test_end_fails_back_to_landed);
  g_test_add_func ("/app/edit-raster/end-fails/nothing-landed", test_end_fails_back_to_first);
  g_test_add_func ("/app/edit-raster/panel-edit-fails", test_panel_edit_fails);
  g_test_add_func ("/app/edit-raster/undo-fails", test_undo_fails);
  return g_test_run ();
}
