/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which files the app takes for what by their names, in any case: Open's
 * chooser offers LINE.SGY and SCENE.JSON beside line.sgy (a pattern filter,
 * "*.sgy", hid them), and a scene named SCENE.JSON, as Save As writes it,
 * opens as a scene, not as a .npy grid ("not a .npy file (bad magic)").
 * app/fr-file-filter.c, fr_scene_file_is_scene_name. */
#include <gtk/gtk.h>

#include "fr-file-filter.h"
#include "fr-scene-file.h"

/* Whether filter lets the chooser show a file named name. */
static gboolean
shows (GtkFileFilter *filter,
       const char    *name)
{
  g_autoptr(GFileInfo) info = g_file_info_new ();

  g_file_info_set_display_name (info, name);
  g_file_info_set_name (info, name);
  g_file_info_set_file_type (info, G_FILE_TYPE_REGULAR);
  g_file_info_set_content_type (info, "application/octet-stream");
  return gtk_filter_match (GTK_FILTER (filter), info);
}

static void
test_open_filter (void)
{
  GtkFileFilter *filter = fr_file_filter_new_open ();
  static const char *opened[] = {
    "line.sgy", "LINE.SGY", "Line.Sgy", "survey.segy", "SURVEY.SEGY",
    "model.npy", "MODEL.NPY", "scene.json", "SCENE.JSON",
  };
  static const char *others[] = { "notes.txt", "line.sgy.txt", "sgy", "model.npz", "scene.jsonl" };

  for (guint i = 0; i < G_N_ELEMENTS (opened); i++)
    if (!shows (filter, opened[i]))
      g_error ("Open's chooser hides %s", opened[i]);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (shows (filter, others[i]))
      g_error ("Open's chooser offers %s", others[i]);
  g_assert_finalize_object (filter);
}

static void
test_csv_filter (void)
{
  GtkFileFilter *filter = fr_file_filter_new ("CSV", "csv", NULL);

  g_assert_true (shows (filter, "receivers.csv"));
  g_assert_true (shows (filter, "RECEIVERS.CSV"));
  g_assert_false (shows (filter, "receivers.txt"));
  g_assert_cmpstr (gtk_file_filter_get_name (filter), ==, "CSV");
  g_assert_finalize_object (filter);
}

static void
test_scene_name (void)
{
  g_assert_true (fr_scene_file_is_scene_name ("/data/three-layer.json"));
  g_assert_true (fr_scene_file_is_scene_name ("/data/LINE-7.JSON"));
  g_assert_true (fr_scene_file_is_scene_name ("Scene.Json"));
  g_assert_false (fr_scene_file_is_scene_name ("/data/line.npy"));
  g_assert_false (fr_scene_file_is_scene_name ("/data/json"));
  g_assert_false (fr_scene_file_is_scene_name (".jso"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/file-names/open-filter", test_open_filter);
  g_test_add_func ("/app/file-names/csv-filter", test_csv_filter);
  g_test_add_func ("/app/file-names/scene-name", test_scene_name);
  return g_test_run ();
}
