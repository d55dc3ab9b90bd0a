/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The undo stack (app/fr-undo.c) and the scene's edits through it; and
 * what is saved beside them but kept out of it (the display settings). */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "fr-colormap.h"
#include "fr-export.h"
#include "fr-fold-state.h"
#include "fr-scene.h"
#include "fr-scene-file.h"
#include "fr-undo.h"
#include "test-tmpdir.h"

typedef struct
{
  int before, after;
} Step;

static void
apply_before (gpointer data,
              gpointer user_data)
{
  *(int *) user_data = ((Step *) data)->before;
}

static void
apply_after (gpointer data,
             gpointer user_data)
{
  *(int *) user_data = ((Step *) data)->after;
}

static void
set_value (FrUndo *undo,
           int    *state,
           int     value)
{
  Step *s = g_new (Step, 1);

  s->before = *state;
  s->after = value;
  *state = value;
  fr_undo_push (undo, "set", s, g_free);
}

static void
test_sequence (void)
{
  int state = 0;
  FrUndo *undo = fr_undo_new (apply_before, apply_after, &state);

  g_assert_false (fr_undo_can_undo (undo));
  g_assert_false (fr_undo_undo (undo));

  set_value (undo, &state, 1);
  set_value (undo, &state, 2);
  set_value (undo, &state, 3);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);
  g_assert_cmpstr (fr_undo_peek_label (undo), ==, "set");

  g_assert_true (fr_undo_undo (undo));
  g_assert_cmpint (state, ==, 2);
  g_assert_true (fr_undo_undo (undo));
  g_assert_cmpint (state, ==, 1);
  g_assert_true (fr_undo_can_redo (undo));
  g_assert_true (fr_undo_redo (undo));
  g_assert_cmpint (state, ==, 2);

  /* A new edit drops the redo branch. */
  set_value (undo, &state, 7);
  g_assert_false (fr_undo_can_redo (undo));
  g_assert_false (fr_undo_redo (undo));
  g_assert_true (fr_undo_undo (undo));
  g_assert_cmpint (state, ==, 2);
  g_assert_true (fr_undo_undo (undo));
  g_assert_true (fr_undo_undo (undo));
  g_assert_cmpint (state, ==, 0);
  g_assert_false (fr_undo_undo (undo));
  g_assert_false (fr_undo_can_undo (undo));

  fr_undo_clear (undo);
  g_assert_false (fr_undo_can_redo (undo));
  g_assert_finalize_object (undo);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    data)
{
  (*(int *) data)++;
}

static void
test_notify (void)
{
  int state = 0, notified = 0;
  FrUndo *undo = fr_undo_new (apply_before, apply_after, &state);

  g_signal_connect (undo, "notify::can-undo", G_CALLBACK (count_notify), &notified);
  set_value (undo, &state, 1);
  g_assert_cmpint (notified, ==, 1);
  fr_undo_undo (undo);
  g_assert_cmpint (notified, ==, 2);
  g_assert_finalize_object (undo);
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

/* Receivers from a file: snapped as clicks are, replacing the old ones in
 * one undo step; a bad file (unreadable, 3D, empty, a point off the 1 × 0.5
 * grid, named by its line) changes nothing and says why. */
static void
test_import_receivers (void)
{
  FrScene *scene = small_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  g_autofree char *dir = g_dir_make_tmp ("foldray-receivers-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "spread.csv", NULL);
  g_autofree char *missing = g_build_filename (dir, "none.csv", NULL);
  const struct {
    const char *name, *text, *says;
  } bad[] = {
    { "three.csv", "x,y,z\n0.1,0,0.2\n", "3D" },
    { "empty.csv", "x,z\n", "no receivers" },
    { "right.csv", "x,z\n0.5,0.1\n1.2,0.1\n", "line 3: the receiver at 1.2, 0.1 lies outside the grid" },
    { "deep.csv", "x,z\n0.5,-0.01\n", "line 2: the receiver at 0.5, -0.01 lies outside the grid" },
    { "text.csv", "x,z\n0.5,deep\n", "line 2" },
  };
  g_autoptr(GError) error = NULL;
  const FrPoint *p;
  guint n;

  g_assert_nonnull (dir);
  fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.5, 0.0);
  fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.2, 0.2);
  fr_scene_select (scene, FR_MARKER_RECEIVER, 0);
  g_assert_true (g_file_set_contents (good, "x,z\r\n0.02,0.0\r\n 0.46 , 0.28\r\n1.0,0.5\r\n", -1, NULL));
  g_assert_true (fr_scene_import_receivers (scene, good, &error));
  g_assert_no_error (error);
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (p[1].x, 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (p[1].z, 0.3, 1e-12);
  g_assert_cmpfloat_with_epsilon (p[2].x, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (p[2].z, 0.5, 1e-12);
  fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpuint (n, ==, 1);
  /* The selected receiver went with the old ones. */
  g_assert_cmpint (fr_scene_get_selection (scene, NULL), ==, FR_MARKER_NONE);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);
  g_assert_cmpstr (fr_undo_peek_label (undo), ==, "Import Receivers");

  for (guint i = 0; i <= G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *path = i < G_N_ELEMENTS (bad) ? g_build_filename (dir, bad[i].name, NULL)
                                                      : g_strdup (missing);
      if (i < G_N_ELEMENTS (bad))
        g_assert_true (g_file_set_contents (path, bad[i].text, -1, NULL));
      g_assert_false (fr_scene_import_receivers (scene, path, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, i < G_N_ELEMENTS (bad) ? bad[i].name : "none.csv"));
      if (i < G_N_ELEMENTS (bad))
        g_assert_nonnull (strstr (error->message, bad[i].says));
      g_clear_error (&error);
      fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
      g_assert_cmpuint (n, ==, 3);
      g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);
    }

  g_assert_true (fr_undo_undo (undo));
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.2, 1e-12);
  test_tmpdir_remove (dir);
  g_assert_finalize_object (scene);
}

/* A receiver line on the 1 × 0.5 grid of 0.1: evenly from the first x to
 * the last at one depth (a level line; test_receiver_line_any_direction
 * has the others), each on its nearest node, in place of the old
 * receivers, as one undo step.  11 from 0 to 1 are every node; 4 fall at
 * 0, 1/3, 2/3 and 1, on 0, 0.3, 0.7 and 1; one is at the first x; from
 * right to left they run that way.  12 would put two on a node, an end
 * off the grid is no line: refused, nothing changed. */
static void
test_receiver_line (void)
{
  FrScene *scene = small_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  g_autoptr(GError) error = NULL;
  static const double four[] = { 0.0, 0.3, 0.7, 1.0 };
  const FrPoint *p;
  guint n;

  fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.4, 0.4);
  fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.5, 0.0);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 2);

  g_assert_true (fr_scene_lay_receiver_line (scene, 0.0, 0.2, 1.0, 0.2, 11, &error));
  g_assert_no_error (error);
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 11);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpfloat_with_epsilon (p[k].x, 0.1 * k, 1e-12);
      g_assert_cmpfloat_with_epsilon (p[k].z, 0.2, 1e-12);
    }
  fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);
  g_assert_cmpstr (fr_undo_peek_label (undo), ==, "Receiver Line");

  g_assert_true (fr_scene_lay_receiver_line (scene, 0.0, 0.46, 1.0, 0.46, 4, &error));
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 4);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpfloat_with_epsilon (p[k].x, four[k], 1e-12);
      g_assert_cmpfloat_with_epsilon (p[k].z, 0.5, 1e-12);
    }
  g_assert_true (fr_scene_lay_receiver_line (scene, 0.7, 0.0, 0.1, 0.0, 1, &error));
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.7, 1e-12);
  g_assert_true (fr_scene_lay_receiver_line (scene, 0.9, 0.0, 0.1, 0.0, 5, &error));
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 5);
  for (guint k = 0; k < n; k++)
    g_assert_cmpfloat_with_epsilon (p[k].x, 0.9 - 0.2 * k, 1e-12);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 6);

  g_assert_false (fr_scene_lay_receiver_line (scene, 0.0, 0.2, 1.0, 0.2, 12, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "12 receivers do not fit"));
  g_assert_nonnull (strstr (error->message, "about 11 nodes"));
  g_clear_error (&error);
  g_assert_false (fr_scene_lay_receiver_line (scene, 0.0, 0.2, 1.2, 0.2, 3, &error));
  g_assert_nonnull (strstr (error->message, "leaves the grid"));
  g_clear_error (&error);
  g_assert_false (fr_scene_lay_receiver_line (scene, 0.0, -0.1, 1.0, -0.1, 3, &error));
  g_clear_error (&error);
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 6);

  /* Undo, step by step, back to the one receiver placed by hand. */
  for (int i = 0; i < 4; i++)
    g_assert_true (fr_undo_undo (undo));
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.4, 1e-12);
  g_assert_cmpfloat_with_epsilon (p[0].z, 0.4, 1e-12);
  g_assert_finalize_object (scene);
}

/* A line down a borehole and a slanting one, on the same grid: six down
 * the column x = 0.3 from the surface to the bottom are its every node;
 * six from (0, 0) to (1, 0.5) are every second node in x and every node
 * in z; thirty on that slant would put two on a node (the message counts
 * the 11 its longer side crosses), and one that leaves the grid at its
 * bottom end is no line. */
static void
test_receiver_line_any_direction (void)
{
  FrScene *scene = small_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  g_autoptr(GError) error = NULL;
  const FrPoint *p;
  guint n;

  g_assert_true (fr_scene_lay_receiver_line (scene, 0.3, 0.0, 0.3, 0.5, 6, &error));
  g_assert_no_error (error);
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 6);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpfloat_with_epsilon (p[k].x, 0.3, 1e-12);
      g_assert_cmpfloat_with_epsilon (p[k].z, 0.1 * k, 1e-12);
    }
  g_assert_true (fr_scene_lay_receiver_line (scene, 0.0, 0.0, 1.0, 0.5, 6, &error));
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 6);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpfloat_with_epsilon (p[k].x, 0.2 * k, 1e-12);
      g_assert_cmpfloat_with_epsilon (p[k].z, 0.1 * k, 1e-12);
    }
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 2);

  g_assert_false (fr_scene_lay_receiver_line (scene, 0.0, 0.0, 1.0, 0.5, 30, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "30 receivers do not fit"));
  g_assert_nonnull (strstr (error->message, "about 11 nodes"));
  g_clear_error (&error);
  g_assert_false (fr_scene_lay_receiver_line (scene, 0.3, 0.0, 0.3, 0.7, 3, &error));
  g_assert_nonnull (strstr (error->message, "leaves the grid"));
  g_clear_error (&error);
  p = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpfloat_with_epsilon (p[5].x, 1.0, 1e-12);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 2);
  g_assert_finalize_object (scene);
}

/* Export Receivers writes what Import Receivers (and foldray-cli) reads:
 * the receivers of one scene exported and imported into another are the
 * same nodes, in the same order, to the last bit; node positions such as
 * 7 × 0.1 are written as the decimals a user would type (0.7).  With no
 * receivers the export says how to place some and writes no file. */
static void
test_export_receivers (void)
{
  FrScene *from = small_scene (), *to = small_scene ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-receivers-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "R.csv", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  const FrPoint *a, *b;
  guint na, nb;

  g_assert_nonnull (dir);
  g_assert_false (fr_export_receivers (from, path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
  g_assert_nonnull (strstr (error->message, "Shift+click"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* Clicks, snapped: 0.7 is 7 × 0.1 = 0.7000000000000001 in binary. */
  fr_scene_add_marker (from, FR_MARKER_RECEIVER, 0.68, 0.31);
  fr_scene_add_marker (from, FR_MARKER_RECEIVER, 1.0, 0.0);
  fr_scene_add_marker (from, FR_MARKER_RECEIVER, 0.0, 0.5);
  fr_scene_add_marker (from, FR_MARKER_SOURCE, 0.5, 0.0);
  g_assert_true (fr_export_receivers (from, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "x,z\n0.7,0.3\n1,0\n0,0.5\n");

  fr_scene_add_marker (to, FR_MARKER_RECEIVER, 0.2, 0.2);
  g_assert_true (fr_scene_import_receivers (to, path, &error));
  g_assert_no_error (error);
  a = fr_scene_get_markers (from, FR_MARKER_RECEIVER, &na);
  b = fr_scene_get_markers (to, FR_MARKER_RECEIVER, &nb);
  g_assert_cmpuint (na, ==, 3);
  g_assert_cmpuint (nb, ==, na);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpfloat (b[i].x, ==, a[i].x);
      g_assert_cmpfloat (b[i].z, ==, a[i].z);
    }
  test_tmpdir_remove (dir);
  g_assert_finalize_object (from);
  g_assert_finalize_object (to);
}

static void
test_scene_edits (void)
{
  FrScene *scene = small_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  const FrPoint *p;
  FrMarkerKind kind;
  guint n, index;

  /* Placing snaps to the nearest node. */
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.33, 0.26), ==, 0);
  p = fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.3, 1e-12);
  g_assert_cmpfloat_with_epsilon (p[0].z, 0.3, 1e-12);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.9, 0.0), ==, 0);
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 2);

  /* A drag: many moves, one undo step. */
  fr_scene_begin_edit (scene);
  for (int i = 0; i < 5; i++)
    fr_scene_move_marker (scene, FR_MARKER_SOURCE, 0, 0.3 + 0.1 * i, 0.3);
  fr_scene_end_edit (scene, "Move Source");
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);
  p = fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.7, 1e-12);

  /* A drag that ends where it started records nothing. */
  fr_scene_begin_edit (scene);
  fr_scene_move_marker (scene, FR_MARKER_SOURCE, 0, 0.2, 0.3);
  fr_scene_move_marker (scene, FR_MARKER_SOURCE, 0, 0.7, 0.3);
  fr_scene_end_edit (scene, "Move Source");
  g_assert_cmpuint (fr_undo_get_depth (undo), ==, 3);

  g_assert_true (fr_scene_pick (scene, 0.72, 0.31, 0.05, &kind, &index));
  g_assert_cmpint (kind, ==, FR_MARKER_SOURCE);
  g_assert_cmpuint (index, ==, 0);
  g_assert_false (fr_scene_pick (scene, 0.5, 0.5, 0.05, NULL, NULL));

  /* Delete the selection, then undo it all step by step. */
  fr_scene_select (scene, FR_MARKER_SOURCE, 0);
  g_assert_true (fr_scene_delete_selection (scene));
  fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_false (fr_scene_delete_selection (scene));

  g_assert_true (fr_undo_undo (undo));   /* delete */
  p = fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.7, 1e-12);
  g_assert_true (fr_undo_undo (undo));   /* move */
  p = fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.3, 1e-12);
  g_assert_true (fr_undo_undo (undo));   /* receiver */
  fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_true (fr_undo_redo (undo));
  fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_true (fr_undo_redo (undo));   /* move again */
  p = fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  g_assert_cmpfloat_with_epsilon (p[0].x, 0.7, 1e-12);

  g_assert_finalize_object (scene);
}

/* What a "changed" handler sees: the window's title and the autosave
 * read the modified flag there, so it must already be set. */
typedef struct
{
  guint    n_edits;          /* emissions that changed geometry */
  guint    n_seen_modified;  /* ... with the scene already modified */
} ChangedLog;

static void
changed_log_cb (FrScene *scene,
                guint    what,
                gpointer data)
{
  ChangedLog *log = data;

  if (!(what & (FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_VELOCITY)))
    return;
  log->n_edits++;
  if (fr_scene_get_modified (scene))
    log->n_seen_modified++;
}

static void
test_modified_before_changed (void)
{
  FrScene *scene = small_scene ();
  ChangedLog log = { 0 };

  g_signal_connect (scene, "changed", G_CALLBACK (changed_log_cb), &log);

  /* Selecting is not an edit. */
  g_assert_false (fr_scene_get_modified (scene));
  fr_scene_select (scene, FR_MARKER_NONE, 0);
  g_assert_false (fr_scene_get_modified (scene));

  /* A click places a marker: the handler must see the edit. */
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.3, 0.3), ==, 0);
  g_assert_cmpuint (log.n_edits, ==, 1);
  g_assert_cmpuint (log.n_seen_modified, ==, 1);

  /* Saved (the session clears the flag), then more edits. */
  fr_scene_set_modified (scene, FALSE);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.9, 0.0), ==, 0);
  fr_scene_set_modified (scene, FALSE);
  g_assert_true (fr_scene_remove_marker (scene, FR_MARKER_RECEIVER, 0));
  fr_scene_set_modified (scene, FALSE);
  fr_scene_begin_edit (scene);
  fr_scene_move_marker (scene, FR_MARKER_SOURCE, 0, 0.7, 0.3);
  fr_scene_end_edit (scene, "Move Source");
  fr_scene_set_modified (scene, FALSE);
  fr_scene_clear_markers (scene);
  g_assert_cmpuint (log.n_edits, ==, 5);
  g_assert_cmpuint (log.n_seen_modified, ==, 5);
  g_assert_true (fr_scene_get_modified (scene));

  g_assert_finalize_object (scene);
}

/* A document without folds, opened after one with them, keeps nothing of
 * them: no horizon, no ψa, nothing to undo. */
static void
test_fold_reset (void)
{
  FrFoldState *fold = fr_fold_state_new ();
  FrUndo *undo = fr_fold_state_get_undo (fold);
  fr_grid g = fr_grid_2d (11, 6, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.0));
  double ax, az;
  guint n;

  fr_fold_state_begin_edit (fold);
  fr_fold_state_add_node (fold, 0.1, 0.2);
  fr_fold_state_add_node (fold, 0.9, 0.3);
  fr_fold_state_set_psi_a (fold, 0.3, -0.2);
  fr_fold_state_end_edit (fold, "Draw Horizon");
  fr_fold_state_get_horizon (fold, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (fr_undo_can_undo (undo));

  g_assert_false (doc->has_fold);
  fr_fold_state_load_doc (fold, doc);
  fr_fold_state_get_horizon (fold, &n);
  g_assert_cmpuint (n, ==, 0);
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat (ax, ==, 0.0);
  g_assert_cmpfloat (az, ==, 0.0);
  g_assert_false (fr_undo_can_undo (undo));
  g_assert_false (fr_undo_undo (undo));
  fr_fold_state_get_horizon (fold, &n);
  g_assert_cmpuint (n, ==, 0);

  g_assert_finalize_object (fold);
}

/* Whether the document has a starting horizon of its own decides whether
 * Folds mode starts on the bundled one (fr-window.c): a new document and a
 * scene without one have none; a drawn, loaded or cleared horizon is the
 * document's, and a cleared one is written empty so that it stays cleared.
 * The characteristic points go to the file and come back. */
static void
test_fold_own_horizon (void)
{
  FrFoldState *fold = fr_fold_state_new ();
  fr_grid g = fr_grid_2d (11, 6, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.0));
  g_autoptr(FrSceneDoc) back = NULL;
  g_autoptr(FrSceneDoc) bare = fr_scene_doc_new (fr_model_new (&g, 1.0));
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  const FrPoint *rays;
  guint n;

  g_assert_false (fr_fold_state_has_own_horizon (fold));
  fr_fold_state_to_doc (fold, doc);
  g_assert_null (doc->fold_horizon);
  g_assert_null (doc->fold_characteristics);

  fr_fold_state_begin_edit (fold);
  fr_fold_state_add_node (fold, 0.1, 0.2);
  fr_fold_state_add_node (fold, 0.9, 0.3);
  fr_fold_state_add_ray_point (fold, 0.5, 0.45);
  fr_fold_state_end_edit (fold, "Draw Horizon");
  g_assert_true (fr_fold_state_has_own_horizon (fold));
  fr_fold_state_to_doc (fold, doc);
  g_assert_cmpuint (doc->fold_horizon->len, ==, 2);
  g_assert_cmpuint (doc->fold_characteristics->len, ==, 1);

  /* Cleared, as the panel's Clear does: still the document's own. */
  fr_fold_state_begin_edit (fold);
  fr_fold_state_set_horizon (fold, NULL, 0);
  fr_fold_state_end_edit (fold, "Clear Horizon");
  g_assert_true (fr_fold_state_has_own_horizon (fold));
  fr_fold_state_to_doc (fold, doc);
  g_assert_nonnull (doc->fold_horizon);
  g_assert_cmpuint (doc->fold_horizon->len, ==, 0);
  json = fr_scene_doc_to_json (doc, NULL);
  g_assert_nonnull (strstr (json, "\"horizon\": []"));
  g_assert_nonnull (strstr (json, "\"characteristics\": [[0.5, 0.45]]"));

  /* Read back into a fresh state: still cleared, with its point. */
  back = fr_scene_doc_parse (json, -1, "cleared.json", NULL, &error);
  g_assert_no_error (error);
  fr_fold_state_reset (fold);
  g_assert_false (fr_fold_state_has_own_horizon (fold));
  fr_fold_state_load_doc (fold, back);
  g_assert_true (fr_fold_state_has_own_horizon (fold));
  fr_fold_state_get_horizon (fold, &n);
  g_assert_cmpuint (n, ==, 0);
  rays = fr_fold_state_get_ray_points (fold, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (rays[0].x, ==, 0.5);
  g_assert_cmpfloat (rays[0].z, ==, 0.45);

  /* A scene with fold settings but no horizon has none of its own. */
  bare->has_fold = TRUE;
  fr_fold_state_load_doc (fold, bare);
  g_assert_false (fr_fold_state_has_own_horizon (fold));
  fr_fold_state_get_ray_points (fold, &n);
  g_assert_cmpuint (n, ==, 0);

  g_assert_finalize_object (fold);
}

/* A scene's ψa is solved as given while |ψa| < F, as foldray-cli solves
 * it (the app shortened 0.97 F to the drag's margin, 0.95 F, so the same
 * file gave other times); at F or beyond it is shortened onto the margin.
 * An edit keeps the margin, and undoing it restores the scene's value. */
static void
test_fold_psi_given (void)
{
  FrFoldState *fold = fr_fold_state_new ();
  fr_grid g = fr_grid_2d (11, 6, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.0));
  g_autoptr(FrSceneDoc) back = fr_scene_doc_new (fr_model_new (&g, 1.0));
  double ax, az;

  doc->has_fold = TRUE;
  doc->has_fold_speed = TRUE;
  doc->fold_speed = 2.0;
  doc->psi_a[0] = 1.94;
  doc->psi_a[1] = 0.0;
  fr_fold_state_load_doc (fold, doc);
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat (ax, ==, 1.94);
  g_assert_false (fr_fold_state_get_psi_clamped (fold));
  fr_fold_state_to_doc (fold, back);
  g_assert_cmpfloat (back->psi_a[0], ==, 1.94);

  /* An edit keeps the margin; its undo gives the scene's value back. */
  fr_fold_state_begin_edit (fold);
  g_assert_true (fr_fold_state_set_psi_a (fold, 1.96, 0.0));
  fr_fold_state_end_edit (fold, "Change ψa");
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat (ax, ==, FR_FOLD_PSI_MARGIN * 2.0);
  g_assert_true (fr_undo_undo (fr_fold_state_get_undo (fold)));
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat (ax, ==, 1.94);

  /* |ψa| = F is no valid ψa: shortened onto the margin, with the hint. */
  doc->psi_a[0] = 0.0;
  doc->psi_a[1] = -2.0;
  fr_fold_state_load_doc (fold, doc);
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat (az, ==, -FR_FOLD_PSI_MARGIN * 2.0);
  g_assert_true (fr_fold_state_get_psi_clamped (fold));

  g_assert_finalize_object (fold);
}

/* With F the velocity grid, a velocity edit that lowers the least speed
 * shortens ψa, and one that raises it again (or the edit's undo, which
 * is the scene's, not the fold's) gives the ψa asked for back, as a
 * larger constant F does (helper-61: it stayed shortened).  An undo step
 * of the fold in between keeps the ψa asked for, not the shortened one. */
static void
test_fold_psi_follows_grid_speed (void)
{
  FrFoldState *fold = fr_fold_state_new ();
  double ax, az;

  fr_fold_state_set_grid_min_speed (fold, 1.5);
  fr_fold_state_set_speed (fold, TRUE, 1.0);
  g_assert_false (fr_fold_state_set_psi_a (fold, 1.4, 0.0));

  fr_fold_state_set_grid_min_speed (fold, 1.0);
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat_with_epsilon (ax, FR_FOLD_PSI_MARGIN * 1.0, 1e-12);
  g_assert_true (fr_fold_state_get_psi_clamped (fold));
  fr_fold_state_get_psi_asked (fold, &ax, &az);
  g_assert_cmpfloat (ax, ==, 1.4);

  /* A fold edit and its undo meanwhile. */
  fr_fold_state_begin_edit (fold);
  fr_fold_state_set_method (fold, FR_FOLD_SOLAS);
  fr_fold_state_end_edit (fold, "Change Fold Solver");
  g_assert_true (fr_undo_undo (fr_fold_state_get_undo (fold)));

  fr_fold_state_set_grid_min_speed (fold, 1.5);
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat (ax, ==, 1.4);
  g_assert_false (fr_fold_state_get_psi_clamped (fold));

  /* A constant F likewise, and the grid's speed no longer counts. */
  fr_fold_state_set_speed (fold, FALSE, 1.0);
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat_with_epsilon (ax, FR_FOLD_PSI_MARGIN * 1.0, 1e-12);
  fr_fold_state_set_grid_min_speed (fold, 0.5);
  fr_fold_state_set_speed (fold, FALSE, 3.0);
  fr_fold_state_get_psi_a (fold, &ax, &az);
  g_assert_cmpfloat (ax, ==, 1.4);

  g_assert_finalize_object (fold);
}

/* The bundled horizons are drawn across the 3 × 1.5 km three-layer model;
 * loaded into another model they are fitted to it (taken as they were,
 * they lay outside a model in metres, and Folds mode showed nothing). */
static void
test_fold_example_fitted (void)
{
  FrFoldState *fold = fr_fold_state_new ();
  const FrPoint *p;
  guint n;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, zlo = G_MAXDOUBLE, zhi = -G_MAXDOUBLE;
  g_autofree double *kx = NULL;

  /* In the drawing's own box: the points as written. */
  g_assert_true (fr_fold_state_load_example (fold, "anticline-syncline", 0.0, 0.0, 3.0, 1.5, NULL));
  p = fr_fold_state_get_horizon (fold, &n);
  g_assert_cmpuint (n, >=, 10);
  g_assert_cmpfloat (p[0].x, ==, 0.0);
  g_assert_cmpfloat (p[0].z, ==, 0.8);
  g_assert_cmpfloat (p[n - 1].x, ==, 3.0);
  kx = g_new (double, n);
  for (guint i = 0; i < n; i++)
    kx[i] = p[i].z;

  /* A model in metres from (1000, 200) to (2500, 800): across it, at the
   * same fraction of its depth. */
  g_assert_true (fr_fold_state_load_example (fold, "anticline-syncline", 1000.0, 200.0, 2500.0,
                                             800.0, NULL));
  p = fr_fold_state_get_horizon (fold, &n);
  for (guint i = 0; i < n; i++)
    {
      lo = MIN (lo, p[i].x);
      hi = MAX (hi, p[i].x);
      zlo = MIN (zlo, p[i].z);
      zhi = MAX (zhi, p[i].z);
      g_assert_cmpfloat (fabs (p[i].z - (200.0 + kx[i] * 600.0 / 1.5)), <, 1e-9);
    }
  g_assert_cmpfloat (fabs (lo - 1000.0), <, 1e-9);
  g_assert_cmpfloat (fabs (hi - 2500.0), <, 1e-9);
  g_assert_cmpfloat (zlo, >, 200.0);
  g_assert_cmpfloat (zhi, <, 800.0);
  g_assert_true (fr_fold_state_has_own_horizon (fold));

  g_assert_false (fr_fold_state_load_example (fold, "no-such-horizon", 0.0, 0.0, 3.0, 1.5, NULL));
  g_assert_finalize_object (fold);
}

/* The characteristics' points stay on the grid's nodes, which a scene
 * file's must lie on: moved onto the edge when the grid shrinks, when a
 * click in the last half cell adds one beyond the last node, and when
 * an undo or redo step from before brings one back; and back where they
 * were placed when the grid grows again. */
static void
test_fold_points_on_grid (void)
{
  FrFoldState *fold = fr_fold_state_new ();
  FrUndo *undo = fr_fold_state_get_undo (fold);
  const FrPoint *p;
  guint n;

  fr_fold_state_set_grid_span (fold, 0.0, 0.0, 3.0, 1.5);
  fr_fold_state_begin_edit (fold);
  fr_fold_state_add_ray_point (fold, 2.9, 1.4);
  fr_fold_state_end_edit (fold, "Trace Characteristic");
  fr_fold_state_begin_edit (fold);
  fr_fold_state_add_ray_point (fold, 3.004, -0.004);
  fr_fold_state_end_edit (fold, "Trace Characteristic");
  p = fr_fold_state_get_ray_points (fold, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (p[0].x, ==, 2.9);
  g_assert_cmpfloat (p[1].x, ==, 3.0);
  g_assert_cmpfloat (p[1].z, ==, 0.0);

  /* The grid two wide: onto its edge. */
  fr_fold_state_set_grid_span (fold, 0.0, 0.0, 2.0, 1.5);
  p = fr_fold_state_get_ray_points (fold, &n);
  g_assert_cmpfloat (p[0].x, ==, 2.0);
  g_assert_cmpfloat (p[0].z, ==, 1.4);
  g_assert_cmpfloat (p[1].x, ==, 2.0);

  /* Back to one point, then forward: the step's (2.9, 1.4) stays off. */
  g_assert_true (fr_undo_undo (undo));
  g_assert_true (fr_undo_undo (undo));
  g_assert_true (fr_undo_redo (undo));
  p = fr_fold_state_get_ray_points (fold, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (p[0].x, ==, 2.0);
  g_assert_cmpfloat (p[0].z, ==, 1.4);

  /* The grid three wide again (the Extent change undone): the point is
   * back where it was placed.  It stayed on the edge at x = 2. */
  fr_fold_state_set_grid_span (fold, 0.0, 0.0, 3.0, 1.5);
  p = fr_fold_state_get_ray_points (fold, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (p[0].x, ==, 2.9);
  g_assert_cmpfloat (p[0].z, ==, 1.4);

  g_assert_finalize_object (fold);
}

/* Speed F set to the model's grid keeps the constant F set before in the
 * scene file ("speed_constant"), so that going back to a constant after
 * reopening finds it: it came back as 1. */
static void
test_fold_speed_constant_kept (void)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-speed-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.json", NULL);
  fr_grid g = fr_grid_2d (11, 11, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 2.0));
  g_autoptr(FrSceneDoc) back = NULL;
  g_autoptr(GError) error = NULL;
  FrFoldState *fold = fr_fold_state_new ();
  FrFoldState *again = fr_fold_state_new ();
  double c = 0.0;

  fr_fold_state_set_speed (fold, FALSE, 1.7);
  fr_fold_state_set_speed (fold, TRUE, 1.7);
  fr_fold_state_to_doc (fold, doc);
  g_assert_true (fr_scene_doc_save (doc, path, &error));
  g_assert_no_error (error);
  back = fr_scene_doc_load (path, &error);
  g_assert_no_error (error);
  fr_fold_state_load_doc (again, back);
  g_assert_true (fr_fold_state_get_speed (again, &c));
  g_assert_cmpfloat (c, ==, 1.7);

  g_assert_finalize_object (fold);
  g_assert_finalize_object (again);
  test_tmpdir_remove (dir);
}

/* Load CSV… takes a horizon only as far out as a scene file may hold a
 * point (FR_GRID_MAX_EXTENT): one at 1e200 was taken, failed every solve,
 * and was saved in a scene that the app and foldray-cli refused to open.
 * The horizon drawn before stays; one at the limit is taken and its scene
 * reads back. */
static void
test_fold_horizon_far (void)
{
  FrFoldState *fold = fr_fold_state_new ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-horizon-XXXXXX", NULL);
  g_autofree char *far = g_build_filename (dir, "far.csv", NULL);
  g_autofree char *edge = g_build_filename (dir, "edge.csv", NULL);
  fr_grid g = fr_grid_2d (11, 6, 0.1, 0.1, 0.0, 0.0);
  g_autoptr(FrSceneDoc) doc = fr_scene_doc_new (fr_model_new (&g, 1.0));
  g_autoptr(FrSceneDoc) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  const FrPoint *p;
  guint n;

  g_assert_nonnull (dir);
  g_assert_true (g_file_set_contents (far, "x,z\n0,0.5\n1e200,0.5\n", -1, NULL));
  g_assert_true (g_file_set_contents (edge, "x,z\n-1e150,0.5\n0.5,1e150\n", -1, NULL));
  fr_fold_state_add_node (fold, 0.1, 0.2);
  fr_fold_state_add_node (fold, 0.9, 0.3);

  g_assert_false (fr_fold_state_load_horizon_csv (fold, far, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "point 2"));
  g_assert_nonnull (strstr (error->message, "too far out"));
  g_clear_error (&error);
  p = fr_fold_state_get_horizon (fold, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (p[1].x, ==, 0.9);

  g_assert_true (fr_fold_state_load_horizon_csv (fold, edge, &error));
  g_assert_no_error (error);
  fr_fold_state_to_doc (fold, doc);
  json = fr_scene_doc_to_json (doc, NULL);
  back = fr_scene_doc_parse (json, -1, "edge.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->fold_horizon->len, ==, 2);

  test_tmpdir_remove (dir);
  g_assert_finalize_object (fold);
}

/* The display settings are no undo step (the window marks the scene
 * modified, nothing else), so only their file form is the app's to test
 * here: the colour maps a scene may name are exactly fr-colormap's.  The
 * scene library has no GTK and keeps its own list of names. */
static void
test_display_colormaps (void)
{
  g_autoptr(GString) known = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(FrSceneDoc) bad = NULL;
  g_autofree char *want = NULL;

  for (FrColormap map = 0; map < FR_N_COLORMAPS; map++)
    {
      const char *id = fr_colormap_get_id (map);
      g_autofree char *text =
        g_strdup_printf ("{\"format\": \"foldray-scene\", \"version\": 1, "
                         "\"grid\": {\"nx\": 4, \"nz\": 4, \"spacing\": [1, 1]}, "
                         "\"display\": {\"colormap\": \"%s\"}}", id);
      g_autoptr(FrSceneDoc) doc = fr_scene_doc_parse (text, -1, "map.json", NULL, &error);
      FrColormap back = FR_N_COLORMAPS;

      g_assert_no_error (error);
      g_assert_cmpstr (doc->display_colormap, ==, id);
      g_assert_true (fr_colormap_from_id (doc->display_colormap, &back));
      g_assert_cmpint (back, ==, map);
      g_string_append_printf (known, "%s%s", map > 0 ? ", " : "", id);
    }
  /* Refused names are answered with the list, which is fr-colormap's. */
  bad = fr_scene_doc_parse ("{\"format\": \"foldray-scene\", \"version\": 1, "
                            "\"grid\": {\"nx\": 4, \"nz\": 4, \"spacing\": [1, 1]}, "
                            "\"display\": {\"colormap\": \"jet\"}}", -1, "map.json", NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID);
  want = g_strdup_printf ("(known: %s)", known->str);
  g_assert_nonnull (strstr (error->message, want));
  /* A scene without display settings gets the side panel's first map. */
  g_assert_cmpstr (FR_SCENE_DISPLAY_COLORMAP, ==, fr_colormap_get_id (0));
}

/* The clean mark: undo and redo tell when the state is the one saved,
 * checked against the state itself (every value set below is new, so the
 * state is the saved one exactly when it holds the saved value). */
static void
test_clean_mark (void)
{
  int state = 0, saved;
  FrUndo *undo = fr_undo_new (apply_before, apply_after, &state);

  g_assert_true (fr_undo_is_clean (undo));           /* a new document */
  set_value (undo, &state, 1);
  g_assert_false (fr_undo_is_clean (undo));
  g_assert_true (fr_undo_undo (undo));
  g_assert_true (fr_undo_is_clean (undo));
  g_assert_true (fr_undo_redo (undo));
  g_assert_false (fr_undo_is_clean (undo));

  /* Saved at 2: back and forth around it. */
  set_value (undo, &state, 2);
  fr_undo_mark_clean (undo);
  saved = state;
  g_assert_true (fr_undo_undo (undo));
  g_assert_cmpint (state, !=, saved);
  g_assert_false (fr_undo_is_clean (undo));
  g_assert_true (fr_undo_redo (undo));
  g_assert_cmpint (state, ==, saved);
  g_assert_true (fr_undo_is_clean (undo));

  /* An edit after undoing past the save drops the saved state with the
   * redo branch: never clean again until the next save. */
  g_assert_true (fr_undo_undo (undo));
  set_value (undo, &state, 3);
  while (fr_undo_undo (undo))
    g_assert_false (fr_undo_is_clean (undo));
  while (fr_undo_redo (undo))
    g_assert_false (fr_undo_is_clean (undo));

  /* Cleared: nothing is known to be saved. */
  fr_undo_clear (undo);
  g_assert_false (fr_undo_is_clean (undo));

  /* The oldest commands drop off past the stack's depth (500).  Saved
   * before them, the save is out of reach once one dropped. */
  fr_undo_mark_clean (undo);
  saved = state;
  for (int i = 0; i < 501; i++)
    set_value (undo, &state, 100 + i);
  while (fr_undo_undo (undo))
    ;
  g_assert_cmpint (state, !=, saved);
  g_assert_false (fr_undo_is_clean (undo));

  /* Saved after the oldest command kept: still reached by undoing all. */
  fr_undo_clear (undo);
  set_value (undo, &state, 1000);
  fr_undo_mark_clean (undo);
  saved = state;
  for (int i = 0; i < 500; i++)
    set_value (undo, &state, 2000 + i);
  while (fr_undo_undo (undo))
    ;
  g_assert_cmpint (state, ==, saved);
  g_assert_true (fr_undo_is_clean (undo));
  g_object_unref (undo);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/undo/sequence", test_sequence);
  g_test_add_func ("/app/undo/notify", test_notify);
  g_test_add_func ("/app/undo/clean-mark", test_clean_mark);
  g_test_add_func ("/app/undo/scene-edits", test_scene_edits);
  g_test_add_func ("/app/undo/import-receivers", test_import_receivers);
  g_test_add_func ("/app/undo/export-receivers", test_export_receivers);
  g_test_add_func ("/app/undo/modified-before-changed", test_modified_before_changed);
  g_test_add_func ("/app/undo/fold-reset", test_fold_reset);
  g_test_add_func ("/app/undo/fold-own-horizon", test_fold_own_horizon);
  g_test_add_func ("/app/undo/fold-psi-given", test_fold_psi_given);
  g_test_add_func ("/app/undo/fold-psi-follows-grid-speed", test_fold_psi_follows_grid_speed);
  g_test_add_func ("/app/undo/fold-example-fitted", test_fold_example_fitted);
  g_test_add_func ("/app/undo/fold-horizon-far", test_fold_horizon_far);
  g_test_add_func ("/app/undo/fold-points-on-grid", test_fold_points_on_grid);
  g_test_add_func ("/app/undo/fold-speed-constant-kept", test_fold_speed_constant_kept);
  g_test_add_func ("/app/undo/display-colormaps", test_display_colormaps);
  g_test_add_func ("/app/undo/receiver-line", test_receiver_line);
  g_test_add_func ("/app/undo/receiver-line-any-direction", test_receiver_line_any_direction);
  return g_test_run ();
}
