/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Undo and redo of drawn-model edits through the scene (app/fr-scene.c):
 * interface nodes, obstacles, layer velocities, layers and the grid, the
 * way the editor (fr-editor.c) and the model panel make them; and the
 * arithmetic of the panel's linked Extent, Nodes and Spacing rows
 * (app/fr-model.c). */
#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib.h>

#include "fr-model.h"
#include "fr-scene.h"
#include "fr-scene-file.h"

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
  g_assert_true (fr_scene_load_model (scene, "layers", m, NULL));
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

/* A seismic line in its own coordinates, x from 452 000 m: a layer added
 * there takes its velocity at the line's first node, and a lateral
 * gradient typed in runs from there (2000 m/s at the left, 2100 m/s 10 km
 * on), not from x = 0, which made 6520 m/s at the left.  Its reference
 * goes into the scene file and comes back. */
static void
test_layer_in_line_coordinates (void)
{
  fr_grid g = fr_grid_2d (801, 41, 12.5, 12.5, 452000.0, 0.0);
  FrModel *m = fr_model_new (&g, 1500.0);
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrSceneDoc) doc = NULL, back = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  const FrLayer *l;
  const float *v;

  g_assert_true (fr_scene_load_model (scene, "line", m, NULL));
  g_assert_true (fr_scene_add_layer (scene, NULL));
  l = g_ptr_array_index (fr_scene_get_model (scene)->layers, 0);
  g_assert_cmpfloat (l->x_ref, ==, 452000.0);
  g_assert_true (fr_scene_set_layer_velocity (scene, 0, 2000.0, 0.0, 0.01, NULL));
  v = g_bytes_get_data (fr_scene_get_velocity (scene), NULL);
  /* Deep in the layer: the first cell's mean over x 451993.75 to 452006.25,
   * the last's at 462000. */
  g_assert_cmpfloat_with_epsilon (v[fr_grid_index (&g, 0, 0, 40)], 2000.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (v[fr_grid_index (&g, 800, 0, 40)], 2100.0, 1e-3);

  doc = fr_scene_doc_new (fr_model_copy (fr_scene_get_model (scene)));
  json = fr_scene_doc_to_json (doc, NULL);
  g_assert_nonnull (strstr (json, "\"dvdx_from\": 452000"));
  back = fr_scene_doc_parse (json, -1, "line.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (fr_model_equal (back->model, fr_scene_get_model (scene)));
}

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

/* Field by field: fr_grid has padding after ndim. */
static gboolean
same_grid (const fr_grid *a,
           const fr_grid *b)
{
  return a->nx == b->nx && a->nz == b->nz && a->dx == b->dx && a->dz == b->dz &&
         a->x0 == b->x0 && a->z0 == b->z0;
}

static void
assert_grid (const fr_grid *g,
             size_t         nx,
             size_t         nz,
             double         dx,
             double         dz)
{
  g_assert_cmpuint (g->nx, ==, nx);
  g_assert_cmpuint (g->nz, ==, nz);
  g_assert_cmpfloat_with_epsilon (g->dx, dx, 1e-12);
  g_assert_cmpfloat_with_epsilon (g->dz, dz, 1e-12);
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
  /* Twice the nodes over the same 2 × 1: half the spacing. */
  g_assert_true (fr_scene_set_nodes (scene, 81, 41, NULL));
  g = fr_scene_get_grid (scene);
  assert_grid (g, 81, 41, 0.025, 0.025);
  g_assert_cmpuint (g_bytes_get_size (fr_scene_get_velocity (scene)), ==, 81 * 41 * sizeof (float));
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);

  /* Refused: no such layer, a negative velocity, a one-node grid. */
  g_assert_false (fr_scene_remove_layer (scene, 7, &error));
  g_clear_error (&error);
  g_assert_false (fr_scene_set_layer_velocity (scene, 0, -1.0, 0.0, 0.0, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (fr_scene_set_nodes (scene, 1, 41, &error));
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

/* Extent = (n − 1)·d along each axis: Extent keeps the spacing, Nodes the
 * extent, Spacing the extent to whole cells; the origin always stays. */
static void
test_grid_arithmetic (void)
{
  fr_grid g = fr_grid_2d (301, 151, 0.01, 0.01, -0.5, 0.25);
  fr_grid third = fr_grid_2d (7, 4, 1.0 / 3.0, 0.1, 0.0, 0.0);
  fr_grid out;
  double w, d;

  fr_model_grid_extent (&g, &w, &d);
  g_assert_cmpfloat_with_epsilon (w, 3.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (d, 1.5, 1e-12);

  /* Nodes: twice as fine over the same 3 × 1.5; z untouched, exactly. */
  g_assert_true (fr_model_grid_with_nodes (&g, 601, 151, &out));
  assert_grid (&out, 601, 151, 0.005, 0.01);
  g_assert_true (out.dz == g.dz && out.x0 == g.x0 && out.z0 == g.z0);
  fr_model_grid_extent (&out, &w, &d);
  g_assert_cmpfloat_with_epsilon (w, 3.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (d, 1.5, 1e-12);
  /* Coarser: 31 nodes over 3.0, 0.1 apart. */
  g_assert_true (fr_model_grid_with_nodes (&g, 31, 151, &out));
  assert_grid (&out, 31, 151, 0.1, 0.01);

  /* Extent: 4 × 1 at the same 0.01, so 401 × 101 nodes. */
  g_assert_true (fr_model_grid_with_extent (&g, 4.0, 1.0, &out));
  assert_grid (&out, 401, 101, 0.01, 0.01);
  g_assert_true (out.dx == g.dx && out.dz == g.dz);
  /* To whole cells: 2.504 is 250.4 cells, so 251 nodes (2.5). */
  g_assert_true (fr_model_grid_with_extent (&g, 2.504, 1.5, &out));
  assert_grid (&out, 251, 151, 0.01, 0.01);
  /* Less than one cell still leaves two nodes. */
  g_assert_true (fr_model_grid_with_extent (&g, 0.004, 1.5, &out));
  g_assert_cmpuint (out.nx, ==, 2);

  /* Spacing: 3.0 / 0.007 = 428.6 cells, rounded to 429: 430 nodes, and
   * the extent becomes 429 · 0.007 = 3.003. */
  g_assert_true (fr_model_grid_with_spacing (&g, 0.007, 0.01, &out));
  assert_grid (&out, 430, 151, 0.007, 0.01);
  fr_model_grid_extent (&out, &w, NULL);
  g_assert_cmpfloat_with_epsilon (w, 3.003, 1e-12);
  g_assert_true (fr_model_grid_with_spacing (&g, 0.02, 0.005, &out));
  assert_grid (&out, 151, 301, 0.02, 0.005);

  /* An axis given its current value stays exactly, also where the
   * extent is not a whole number of spacings in binary (1/3). */
  g_assert_true (fr_model_grid_with_nodes (&third, 7, 11, &out));
  g_assert_true (out.dx == third.dx && out.nx == 7);
  g_assert_cmpfloat_with_epsilon (out.dz, 0.03, 1e-12);
  fr_model_grid_extent (&third, &w, &d);
  g_assert_true (fr_model_grid_with_extent (&third, w, d, &out));
  g_assert_true (same_grid (&out, &third));
  g_assert_true (fr_model_grid_with_spacing (&third, third.dx, third.dz, &out));
  g_assert_true (same_grid (&out, &third));

  /* Refused: too few or too many nodes, no extent, no spacing. */
  g_assert_false (fr_model_grid_with_nodes (&g, 1, 151, &out));
  g_assert_false (fr_model_grid_with_nodes (&g, FR_MODEL_MAX_NODES + 1, 151, &out));
  g_assert_true (fr_model_grid_with_nodes (&g, FR_MODEL_MAX_NODES, 151, &out));
  g_assert_false (fr_model_grid_with_extent (&g, 100.0, 1.5, &out));
  g_assert_false (fr_model_grid_with_extent (&g, 0.0, 1.5, &out));
  g_assert_false (fr_model_grid_with_extent (&g, 3.0, -1.0, &out));
  g_assert_false (fr_model_grid_with_extent (&g, NAN, 1.5, &out));
  g_assert_false (fr_model_grid_with_spacing (&g, 0.0, 0.01, &out));
  g_assert_false (fr_model_grid_with_spacing (&g, 0.01, INFINITY, &out));
  g_assert_false (fr_model_grid_with_spacing (&g, 1e-4, 0.01, &out));

  /* A loaded grid wider than the limit: the other axis is still edited,
   * and the wide one kept as it is; only a change of it is refused. */
  {
    fr_grid wide = fr_grid_2d (FR_MODEL_MAX_NODES + 1809, 151, 0.01, 0.01, 0.0, 0.0);

    fr_model_grid_extent (&wide, &w, &d);
    g_assert_true (fr_model_grid_with_nodes (&wide, wide.nx, 301, &out));
    assert_grid (&out, wide.nx, 301, 0.01, 0.005);
    g_assert_true (fr_model_grid_with_extent (&wide, w, 3.0, &out));
    assert_grid (&out, wide.nx, 301, 0.01, 0.01);
    g_assert_true (fr_model_grid_with_spacing (&wide, wide.dx, 0.005, &out));
    assert_grid (&out, wide.nx, 301, 0.01, 0.005);
    g_assert_false (fr_model_grid_with_nodes (&wide, wide.nx + 1, 151, &out));
    g_assert_false (fr_model_grid_with_extent (&wide, w + 1.0, d, &out));
  }
}

/* The panel's rows through the scene: each edit is one undo step that
 * restores the grid before it; the layers (in model units) stay put, so
 * Nodes refines the same model rather than extending it. */
static void
test_grid_rows (void)
{
  FrScene *scene = layered_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  g_autoptr(FrModel) start = fr_model_copy (fr_scene_get_model (scene));
  g_autoptr(GError) error = NULL;
  const fr_grid *g = fr_scene_get_grid (scene);
  fr_grid grids[4];
  double x0, z0, x1, z1;

  grids[0] = *g;
  /* Nodes 81: the same 2 × 1, spacing halved. */
  g_assert_true (fr_scene_set_nodes (scene, 81, 21, NULL));
  assert_grid (g, 81, 21, 0.025, 0.05);
  g_assert_true (fr_scene_get_modified (scene));
  fr_scene_get_bounds (scene, &x0, &z0, &x1, &z1);
  g_assert_cmpfloat_with_epsilon (x1 - x0, 2.0 + 0.025, 1e-12);
  g_assert_cmpuint (g_bytes_get_size (fr_scene_get_velocity (scene)), ==, 81 * 21 * sizeof (float));
  /* The second interface still runs from z = 0.4 to 0.6 over x = 0 to 2. */
  g_assert_cmpmem (((FrLayer *) fr_scene_get_model (scene)->layers->pdata[1])->nodes->data,
                   2 * sizeof (FrVertex),
                   ((FrLayer *) start->layers->pdata[1])->nodes->data, 2 * sizeof (FrVertex));
  grids[1] = *g;

  /* Extent 3 × 1: more nodes at the same spacing. */
  g_assert_true (fr_scene_set_extent (scene, 3.0, 1.0, NULL));
  assert_grid (g, 121, 21, 0.025, 0.05);
  grids[2] = *g;

  /* Spacing 0.04 along z: 1.0 / 0.04 = 25 cells, 26 nodes. */
  g_assert_true (fr_scene_set_spacing (scene, 0.025, 0.04, NULL));
  assert_grid (g, 121, 26, 0.025, 0.04);
  grids[3] = *g;
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);

  /* Refused edits change nothing and record nothing. */
  g_assert_false (fr_scene_set_extent (scene, 1000.0, 1.0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (fr_scene_set_nodes (scene, 1, 26, &error));
  g_clear_error (&error);
  g_assert_false (fr_scene_set_spacing (scene, -0.1, 0.04, &error));
  g_clear_error (&error);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);
  /* Nor does an edit to the values it has. */
  g_assert_true (fr_scene_set_nodes (scene, 121, 26, NULL));
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);

  /* Each undo brings back the grid before its edit, and the velocity on it. */
  for (int i = 2; i >= 0; i--)
    {
      g_assert_true (fr_undo_undo (undo));
      g_assert_true (same_grid (g, &grids[i]));
      g_assert_cmpuint (g_bytes_get_size (fr_scene_get_velocity (scene)), ==,
                        grids[i].nx * grids[i].nz * sizeof (float));
    }
  g_assert_true (fr_model_equal (fr_scene_get_model (scene), start));
  for (int i = 1; i <= 3; i++)
    {
      g_assert_true (fr_undo_redo (undo));
      g_assert_true (same_grid (g, &grids[i]));
    }
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

/* A drag cancelled (Escape): the model and its velocities are as before
 * it, the velocity grid rasterised again from that model, and no undo step
 * is left; inside a nested edit nothing is cancelled. */
static void
or_changes (FrScene *scene,
            guint    what,
            guint   *seen)
{
  *seen |= what;
}

static void
test_cancel_edit (void)
{
  FrScene *scene = layered_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  FrModel *before = fr_model_copy (fr_scene_get_model (scene));
  GBytes *v_before = velocity_of (scene);
  guint seen = 0;

  /* An edit that leaves no step says so (NO_STEP), so that the window
   * takes back the modified mark its moves set; one that leaves a step
   * does not. */
  g_signal_connect (scene, "changed", G_CALLBACK (or_changes), &seen);

  fr_scene_begin_edit (scene);
  for (int i = 1; i <= 4; i++)
    {
      FrModel *m = fr_scene_edit_model (scene);

      g_array_index (((FrLayer *) m->layers->pdata[1])->nodes, FrVertex, 1).z = 0.6 + 0.05 * i;
      g_assert_true (fr_scene_model_changed (scene, NULL));
    }
  g_assert_false (fr_model_equal (fr_scene_get_model (scene), before));
  fr_scene_begin_edit (scene);
  g_assert_false (fr_scene_cancel_edit (scene));   /* nested: refused */
  fr_scene_end_edit (scene, "inner");
  g_assert_false (seen & FR_SCENE_CHANGED_NO_STEP);
  g_assert_true (fr_scene_cancel_edit (scene));
  g_assert_true (seen & FR_SCENE_CHANGED_NO_STEP);
  assert_state (scene, before, v_before);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 0);
  g_assert_false (fr_scene_cancel_edit (scene));   /* no edit open */

  /* A node moved and moved back by hand: no step, and said so. */
  seen = 0;
  fr_scene_begin_edit (scene);
  for (int i = 1; i >= 0; i--)
    {
      FrModel *m = fr_scene_edit_model (scene);
      FrVertex *v = &g_array_index (((FrLayer *) m->layers->pdata[1])->nodes, FrVertex, 1);

      v->z = ((FrVertex *) ((FrLayer *) before->layers->pdata[1])->nodes->data)[1].z + 0.1 * i;
      g_assert_true (fr_scene_model_changed (scene, NULL));
    }
  fr_scene_end_edit (scene, "Move Node");
  g_assert_true (seen & FR_SCENE_CHANGED_NO_STEP);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 0);

  /* The scene edits normally after it: one step, undone to the start. */
  seen = 0;
  EDIT (scene, "Move Node", g_array_index (((FrLayer *) m->layers->pdata[1])->nodes, FrVertex, 0).z = 0.45);
  g_assert_false (seen & FR_SCENE_CHANGED_NO_STEP);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 1);
  fr_undo_undo (undo);
  assert_state (scene, before, v_before);

  g_signal_handlers_disconnect_by_func (scene, or_changes, &seen);
  fr_model_free (before);
  g_bytes_unref (v_before);
  g_assert_finalize_object (scene);
}

/* Grids are compared field by field: fr_grid has padding after ndim,
 * which memcmp reads, so two equal grids built apart could differ there. */
static void
test_grids_equal_padding (void)
{
  fr_grid a, b;

  memset (&a, 0x00, sizeof a);
  memset (&b, 0xa5, sizeof b);
  b.ndim = a.ndim = 2;
  b.nx = a.nx = 301, b.ny = a.ny = 1, b.nz = a.nz = 151;
  b.dx = a.dx = 0.01, b.dy = a.dy = 0.01, b.dz = a.dz = 0.01;
  b.x0 = a.x0 = 0.0, b.y0 = a.y0 = 0.0, b.z0 = a.z0 = 0.0;
  g_assert_true (fr_model_grids_equal (&a, &b));
  b.dz = 0.005;
  g_assert_false (fr_model_grids_equal (&a, &b));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/model-undo/sequence", test_model_sequence);
  g_test_add_func ("/app/model-undo/layer-in-line-coordinates", test_layer_in_line_coordinates);
  g_test_add_func ("/app/model-undo/panel-edits", test_panel_edits);
  g_test_add_func ("/app/model-undo/modified-before-changed", test_modified_before_changed);
  g_test_add_func ("/app/model-undo/cancel-edit", test_cancel_edit);
  g_test_add_func ("/app/model-undo/grid-arithmetic", test_grid_arithmetic);
  g_test_add_func ("/app/model-undo/grid-rows", test_grid_rows);
  g_test_add_func ("/app/model-undo/grids-equal-padding", test_grids_equal_padding);
  return g_test_run ();
}
