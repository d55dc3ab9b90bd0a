/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `--scene` expansion (see cli-scene.h).  The scene's model is rasterised
 * into a temporary .npy (and its receivers into a temporary CSV) that the
 * subcommand then reads like any other input, so its checks, messages and
 * outputs stay exactly those of the plain flags. */
#include "foldray-config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-common.h"
#include "cli-scene.h"

/* The value of --scene in argv (either form), or NULL. */
static const char *
find_scene (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--scene") == 0)
        return i + 1 < argc ? argv[i + 1] : "";
      if (strncmp (argv[i], "--scene=", 8) == 0)
        return argv[i] + 8;
    }
  return NULL;
}

#ifndef FOLDRAY_HAVE_SCENE

int
cli_run_with_scene (const char *subcommand, int (*run) (int argc, char **argv),
                    int argc, char **argv)
{
  (void) subcommand;
  if (find_scene (argc, argv) != NULL)
    return cli_fail (CLI_EXIT_USAGE, "--scene: this build has no scene support "
                     "(foldray-cli was built without json-glib)");
  return run (argc, argv);
}

#else

#include <glib.h>
#include <glib/gstdio.h>

#include "fr-array.h"
#include "fr-npy.h"
#include "fr-scene-file.h"

/* Whether the user gave flag (either form). */
static bool
given (int argc, char **argv, const char *flag)
{
  size_t n = strlen (flag);

  for (int i = 1; i < argc; i++)
    if (strncmp (argv[i], flag, n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '='))
      return true;
  return false;
}

static void
push (GPtrArray *args, const char *flag, char *value)
{
  g_ptr_array_add (args, g_strdup (flag));
  g_ptr_array_add (args, value);
}

static char *
pair (double a, double b)
{
  char x[G_ASCII_DTOSTR_BUF_SIZE], z[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("%s,%s", g_ascii_dtostr (x, sizeof x, a), g_ascii_dtostr (z, sizeof z, b));
}

/* Points as CSV with the header x,z (receivers, a horizon). */
static bool
write_points (const char *path, GArray *points, GError **error)
{
  g_autoptr(GString) s = g_string_new ("x,z\n");

  for (guint i = 0; i < points->len; i++)
    {
      const FrVertex *v = &g_array_index (points, FrVertex, i);
      char x[G_ASCII_DTOSTR_BUF_SIZE], z[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (s, "%s,%s\n", g_ascii_dtostr (x, sizeof x, v->x),
                              g_ascii_dtostr (z, sizeof z, v->z));
    }
  return g_file_set_contents (path, s->str, (gssize) s->len, error);
}

int
cli_run_with_scene (const char *subcommand, int (*run) (int argc, char **argv),
                    int argc, char **argv)
{
  const char *scene = find_scene (argc, argv);
  bool fold = strcmp (subcommand, "fold") == 0;
  g_autoptr(FrSceneDoc) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) velocity = NULL;
  g_autoptr(GPtrArray) args = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *npy = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *hcsv = NULL;
  bool speed_const;
  const FrModel *m;
  fr_array a;
  fr_error err = { 0 };
  int status;

  if (scene == NULL)
    return run (argc, argv);
  if (*scene == '\0')
    return cli_fail (CLI_EXIT_USAGE, "--scene needs a file name");
  if ((status = cli_check_input ("--scene", scene)) != CLI_EXIT_OK)
    return status;
  if ((doc = fr_scene_doc_load (scene, &error)) == NULL)
    return cli_fail (error->code == FR_SCENE_FILE_ERROR_IO ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE,
                     "--scene %s", error->message);
  m = doc->model;

  args = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (args, g_strdup (argv[0]));

  dir = g_dir_make_tmp ("foldray-scene-XXXXXX", &error);
  if (dir == NULL)
    return cli_fail (CLI_EXIT_FAILURE, "--scene: %s", error->message);
  npy = g_build_filename (dir, "velocity.npy", NULL);
  csv = g_build_filename (dir, "receivers.csv", NULL);

  hcsv = g_build_filename (dir, "horizon.csv", NULL);
  /* Folds with a constant F, as the app solves them: no grid file. */
  speed_const = fold && doc->has_fold && doc->has_fold_speed && !doc->fold_speed_from_grid;

  if (speed_const && !given (argc, argv, "--speed") && !given (argc, argv, "--speed-const"))
    {
      char v[G_ASCII_DTOSTR_BUF_SIZE];

      push (args, "--speed-const", g_strdup (g_ascii_dtostr (v, sizeof v, doc->fold_speed)));
      if (!given (argc, argv, "--shape"))
        push (args, "--shape", g_strdup_printf ("%zu,%zu", m->grid.nx, m->grid.nz));
    }
  else if (!given (argc, argv, fold ? "--speed" : "--velocity") && !given (argc, argv, "--speed-const"))
    {
      if ((velocity = fr_model_rasterise (m, &error)) == NULL)
        {
          status = cli_fail (CLI_EXIT_USAGE, "--scene %s: %s", scene, error->message);
          goto out;
        }
      a = fr_array_wrap_grid (&m->grid, FR_F32, (void *) g_bytes_get_data (velocity, NULL));
      if (fr_npy_write (npy, &a, &err) != FR_OK)
        {
          status = cli_fail_error (&err, "--scene");
          goto out;
        }
      push (args, fold ? "--speed" : "--velocity", g_strdup (npy));
    }
  if (!given (argc, argv, "--spacing"))
    push (args, "--spacing", pair (m->grid.dx, m->grid.dz));
  if (!given (argc, argv, "--origin"))
    push (args, "--origin", pair (m->grid.x0, m->grid.z0));
  /* The fold's starting horizon replaces the sources, as in the app. */
  if (fold && doc->has_fold && doc->fold_horizon != NULL && doc->fold_horizon->len >= 2 &&
      !given (argc, argv, "--source") && !given (argc, argv, "--boundary") &&
      !given (argc, argv, "--horizon"))
    {
      if (!write_points (hcsv, doc->fold_horizon, &error))
        {
          status = cli_fail (CLI_EXIT_FAILURE, "--scene: %s", error->message);
          goto out;
        }
      push (args, "--horizon", g_strdup (hcsv));
    }
  else if (!given (argc, argv, "--source") && !given (argc, argv, "--boundary") &&
           !(fold && given (argc, argv, "--horizon")))
    for (guint i = 0; i < doc->sources->len; i++)
      {
        const FrVertex *v = &g_array_index (doc->sources, FrVertex, i);
        push (args, "--source", pair (v->x, v->z));
      }
  if (!fold && !given (argc, argv, "--radius"))
    push (args, "--radius", g_strdup_printf ("%d", doc->radius));
  if (fold && doc->has_fold && doc->fold_backend != NULL && !given (argc, argv, "--backend"))
    push (args, "--backend", g_strdup (doc->fold_backend));
  else if (!given (argc, argv, "--backend") && doc->backend != NULL &&
           !(fold && strcmp (doc->backend, "dijkstra") == 0))
    push (args, "--backend", g_strdup (doc->backend));
  if (fold && doc->has_fold && !given (argc, argv, "--psi-a"))
    push (args, "--psi-a", pair (doc->psi_a[0], doc->psi_a[1]));
  if (fold && doc->has_fold && !given (argc, argv, "--method"))
    push (args, "--method", g_strdup (doc->fold_method));
  if (given (argc, argv, "--rays-out") && !given (argc, argv, "--receivers") && doc->receivers->len > 0)
    {
      if (!write_points (csv, doc->receivers, &error))
        {
          status = cli_fail (CLI_EXIT_FAILURE, "--scene: %s", error->message);
          goto out;
        }
      push (args, "--receivers", g_strdup (csv));
    }

  /* Then the user's own flags, less --scene itself. */
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--scene") == 0)
        {
          i++;
          continue;
        }
      if (strncmp (argv[i], "--scene=", 8) == 0)
        continue;
      g_ptr_array_add (args, g_strdup (argv[i]));
    }
  g_ptr_array_add (args, NULL);
  status = run ((int) args->len - 1, (char **) args->pdata);

out:
  g_unlink (npy);
  g_unlink (csv);
  g_unlink (hcsv);
  g_rmdir (dir);
  return status;
}

#endif
