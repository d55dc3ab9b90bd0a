/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Undo and redo of drawn-model edits through the scene (app/fr-scene.c):
 * interface nodes, obstacles, layer velocities, layers and the grid, the
 * way the editor (fr-editor.c) and the model panel make them. */
#include <string.h>

#include <glib.h>

#include "fr-scene.h"

/* Two layers over no background, 41×21 nodes at 0.05. */
static FrScene *
layered_scene (void)
{
  fr_grid g = fr_grid_2d (41, 21, 0.05, 0.05, 0.0, 0.0);
  FrModel *m = fr_model_new (&g, 1.0);
  FrLayer *l;
  FrScene *scene = fr_scene_new ();

  l = fr_layer_new (1.5, 0.0, 0.0);
  fr_layer_add_node (l, 0.0, 0.0);
  fr_layer_add_node (l, 2.0, 0.0);
  g_ptr_array_add (m->layers, l);
  l = fr_layer_new (3.0, 0.5, 0.0);
  fr_layer_add_node (l, 0.0, 0.4);
  fr_layer_add_node (l, 2.0, 0.6);
  g_ptr_array_add (m->layers, l);
  fr_scene_load_model (scene, "layers", m);
  return scene;
}

/* The scene's velocity grid, copied. */
static GBytes *
velocity_of (FrScene *scene)
{
  GBytes *v = fr_scene_get_velocity (scene);

  return g_bytes_new (g_bytes_get_data (v, NULL), g_bytes_get_size (v));
}

static void
assert_state (FrScene       *scene,
              const FrModel *model,
              GBytes        *velocity)
{
  g_assert_true (fr_model_equal (fr_scene_get_model (scene), model));
  g_assert_true (g_bytes_equal (fr_scene_get_velocity (scene), velocity));
}

/* An editor-style edit: begin, change the model in place, re-rasterise,
 * end. */
#define EDIT(scene, label, ...)                                     \
  G_STMT_START {                                                    \
    FrModel *m_ = fr_scene_edit_model (scene);                      \
    fr_scene_begin_edit (scene);                                    \
    { FrModel *m = m_; __VA_ARGS__; }                               \
    g_assert_true (fr_scene_model_changed (scene, NULL));           \
    fr_scene_end_edit (scene, label);                               \
  } G_STMT_END

static void
test_model_sequence (void)
{
  FrScene *scene = layered_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  FrModel *states[8];
  GBytes *velocities[8];
  guint n = 0;

  states[n] = fr_model_copy (fr_scene_get_model (scene));
  velocities[n++] = velocity_of (scene);

  /* 1: add an interface node (a double-click on the second interface). */
  EDIT (scene, "Add Node", {
    FrVertex v = { 1.0, 0.5 };
    g_array_insert_val (((FrLayer *) g_ptr_array_index (m->layers, 1))->nodes, 1, v);
  });
  /* 2: move it, as a drag of many motions. */
  fr_scene_begin_edit (scene);
  for (int i = 1; i <= 5; i++)
    {
      FrModel *m = fr_scene_edit_model (scene);
      FrVertex *v = &g_array_index (((FrLayer *) g_ptr_array_index (m->layers, 1))->nodes, FrVertex, 1);

      v->z = 0.5 + 0.06 * i;
      g_assert_true (fr_scene_model_changed (scene, NULL));
    }
  fr_scene_end_edit (scene, "Move Node");
  states[n] = fr_model_copy (fr_scene_get_model (scene));
  velocities[n++] = velocity_of (scene);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 2);

  /* 3: add a rectangle obstacle, 4: a polygon one. */
  EDIT (scene, "Add Obstacle",
        g_ptr_array_add (m->obstacles, fr_obstacle_new_rectangle (0.3, 0.2, 0.7, 0.5, 0.0)));
  EDIT (scene, "Add Obstacle", {
    FrObstacle *o = fr_obstacle_new (FR_OBSTACLE_POLYGON, 0.5);
    fr_obstacle_add_vertex (o, 1.2, 0.1);
    fr_obstacle_add_vertex (o, 1.6, 0.2);
    fr_obstacle_add_vertex (o, 1.4, 0.6);
    g_ptr_array_add (m->obstacles, o);
  });
  states[n] = fr_model_copy (fr_scene_get_model (scene));
  velocities[n++] = velocity_of (scene);

  /* 5: move the rectangle. */
  EDIT (scene, "Move Obstacle", {
    FrObstacle *o = g_ptr_array_index (m->obstacles, 0);
    for (guint k = 0; k < o->vertices->len; k++)
      g_array_index (o->vertices, FrVertex, k).x += 0.2;
  });
  /* 6: change a layer's velocity through the panel's API. */
  g_assert_true (fr_scene_set_layer_velocity (scene, 0, 1.8, 0.2, 0.0, NULL));
  states[n] = fr_model_copy (fr_scene_get_model (scene));
  velocities[n++] = velocity_of (scene);

  /* 7: make the polygon impermeable, 8: delete the rectangle. */
  g_assert_true (fr_scene_set_obstacle_velocity (scene, 1, 0.0, NULL));
  EDIT (scene, "Delete Obstacle", g_ptr_array_remove_index (m->obstacles, 0));
  states[n] = fr_model_copy (fr_scene_get_model (scene));
  velocities[n++] = velocity_of (scene);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 8);
  g_assert_cmpuint (fr_scene_get_model (scene)->obstacles->len, ==, 1);

  /* Undo all: back to the start, through every recorded state. */
  for (guint i = 0; i < 8; i++)
    g_assert_true (fr_undo_undo (undo));
  g_assert_false (fr_undo_undo (undo));
  assert_state (scene, states[0], velocities[0]);

  /* Redo all: the same model and the same rasterised velocity. */
  for (guint i = 0; i < 8; i++)
    {
      g_assert_true (fr_undo_redo (undo));
      if (i == 1)
        assert_state (scene, states[1], velocities[1]);
      if (i == 3)
        assert_state (scene, states[2], velocities[2]);
      if (i == 5)
        assert_state (scene, states[3], velocities[3]);
    }
  g_assert_false (fr_undo_redo (undo));
  assert_state (scene, states[4], velocities[4]);

  /* Undo two steps, then a new edit: the redo branch is gone. */
  g_assert_true (fr_undo_undo (undo));
  g_assert_true (fr_undo_undo (undo));
  assert_state (scene, states[3], velocities[3]);
  g_assert_true (fr_undo_can_redo (undo));
  g_assert_true (fr_scene_set_layer_velocity (scene, 1, 2.0, 0.5, 0.1, NULL));
  g_assert_false (fr_undo_can_redo (undo));
  g_assert_false (fr_undo_redo (undo));
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 7);
  g_assert_true (fr_undo_undo (undo));
  assert_state (scene, states[3], velocities[3]);

  for (guint i = 0; i < n; i++)
    {
      fr_model_free (states[i]);
      g_bytes_unref (velocities[i]);
    }
  g_assert_finalize_object (scene);
}

/* Panel edits: layers, the grid; a refused edit changes nothing. */
static void
test_panel_edits (void)
{
  FrScene *scene = layered_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  g_autoptr(FrModel) start = fr_model_copy (fr_scene_get_model (scene));
  g_autoptr(GBytes) v0 = velocity_of (scene);
  g_autoptr(GError) error = NULL;
  const fr_grid *g;

  g_assert_true (fr_scene_add_layer (scene, NULL));
  g_assert_cmpuint (fr_scene_get_model (scene)->layers->len, ==, 3);
  g_assert_true (fr_scene_remove_layer (scene, 0, NULL));
  g_assert_cmpuint (fr_scene_get_model (scene)->layers->len, ==, 2);
  g_assert_true (fr_scene_set_grid (scene, 81, 41, 0.025, 0.025, NULL));
  g = fr_scene_get_grid (scene);
  g_assert_cmpuint (g->nx, ==, 81);
  g_assert_cmpuint (g->nz, ==, 41);
  g_assert_cmpuint (g_bytes_get_size (fr_scene_get_velocity (scene)), ==, 81 * 41 * sizeof (float));
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);

  /* Refused: no such layer, a negative velocity, a one-node grid. */
  g_assert_false (fr_scene_remove_layer (scene, 7, &error));
  g_clear_error (&error);
  g_assert_false (fr_scene_set_layer_velocity (scene, 0, -1.0, 0.0, 0.0, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (fr_scene_set_grid (scene, 1, 41, 0.025, 0.025, &error));
  g_clear_error (&error);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);
  g_assert_cmpuint (fr_scene_get_grid (scene)->nx, ==, 81);

  /* An edit that changes nothing records nothing. */
  g_assert_true (fr_scene_set_layer_velocity (scene, 0, 3.0, 0.5, 0.0, NULL));
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);

  while (fr_undo_undo (undo))
    ;
  assert_state (scene, start, v0);
  g_assert_cmpuint (fr_scene_get_grid (scene)->nx, ==, 41);
  g_assert_finalize_object (scene);
}

static void
count_modified_cb (FrScene *scene,
                   guint    what,
                   gpointer data)
{
  guint *seen = data;

  if ((what & (FR_SCENE_CHANGED_VELOCITY | FR_SCENE_CHANGED_MODEL)) && fr_scene_get_modified (scene))
    (*seen)++;
}

/* Model edits are modified by the time "changed" reports them (the
 * window's title and the autosave read the flag there). */
static void
test_modified_before_changed (void)
{
  FrScene *scene = layered_scene ();
  guint seen = 0;

  g_signal_connect (scene, "changed", G_CALLBACK (count_modified_cb), &seen);
  g_assert_false (fr_scene_get_modified (scene));
  g_assert_true (fr_scene_set_layer_velocity (scene, 0, 2.0, 0.0, 0.0, NULL));
  g_assert_cmpuint (seen, ==, 1);
  fr_scene_set_modified (scene, FALSE);
  EDIT (scene, "Move Node", g_array_index (((FrLayer *) m->layers->pdata[1])->nodes, FrVertex, 0).z = 0.45);
  g_assert_cmpuint (seen, ==, 2);
  g_assert_finalize_object (scene);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/model-undo/sequence", test_model_sequence);
  g_test_add_func ("/app/model-undo/panel-edits", test_panel_edits);
  g_test_add_func ("/app/model-undo/modified-before-changed", test_modified_before_changed);
  return g_test_run ();
}
