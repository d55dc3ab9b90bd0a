/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `--scene` expansion (see cli-scene.h).  The scene's model is rasterised
 * into a temporary .npy (and its receivers, a fold's characteristic points
 * or horizon into temporary CSVs) that the
 * subcommand then reads like any other input, so its checks and outputs
 * stay exactly those of the plain flags.  Its messages would name those
 * temporary files and flags the user never typed, so they are put back in
 * the scene's words before they are shown. */
#include "foldray-config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-common.h"
#include "cli-scene.h"

/* Finds the value of --scene (either form), NULL when absent.  Only spr
 * and fold take a scene, and only one, like every flag that is not a list. */
static int
find_scene (const char *subcommand, int argc, char **argv, const char **scene)
{
  int count = 0;

  *scene = NULL;
  for (int i = 1; i < argc; i++)
    {
      const char *value;

      if (strcmp (argv[i], "--scene") == 0)
        value = i + 1 < argc ? argv[++i] : "";
      else if (strncmp (argv[i], "--scene=", 8) == 0)
        value = argv[i] + 8;
      else
        continue;
      if (count++ == 0)
        *scene = value;
    }
  if (count == 0)
    return CLI_EXIT_OK;
  /* Said here, or the subcommand would refuse a flag that the expansion
   * made up (`info` knows no --velocity). */
  if (strcmp (subcommand, "spr") != 0 && strcmp (subcommand, "fold") != 0)
    return cli_fail (CLI_EXIT_USAGE, "--scene applies to spr and fold only, not to %s", subcommand);
  if (count > 1)
    return cli_fail (CLI_EXIT_USAGE, "--scene given more than once");
  if (**scene == '\0')
    return cli_fail (CLI_EXIT_USAGE, "--scene needs a file name");
  return CLI_EXIT_OK;
}

#ifndef FOLDRAY_HAVE_SCENE

int
cli_run_with_scene (const char *subcommand, int (*run) (int argc, char **argv),
                    int argc, char **argv)
{
  const char *scene;
  int status = find_scene (subcommand, argc, argv, &scene);

  if (status != CLI_EXIT_OK)
    return status;
  if (scene != NULL)
    return cli_fail (CLI_EXIT_USAGE, "--scene: this build has no scene support "
                     "(foldray-cli was built without json-glib)");
  return run (argc, argv);
}

#else

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "fr-array.h"
#include "fr-npy.h"
#include "fr-scene-file.h"
#include "cli-scratch.h"

/* --------------------------------------------------------- expansion */

/* What the scene turns into: the subcommand's argv, and for its messages
 * the scene's words for each flag and temporary file it was given. */
typedef struct
{
  char      *scene;     /* the scene's name, control characters blanked */
  GPtrArray *args;
  GPtrArray *words;     /* pairs: what a message may say, what to say instead */
} Expansion;

/* The index of the user's first flag (either form), or 0 when absent. */
static int
flag_index (int argc, char **argv, const char *flag)
{
  size_t n = strlen (flag);

  for (int i = 1; i < argc; i++)
    if (strncmp (argv[i], flag, n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '='))
      return i;
  return 0;
}

/* Whether the user gave flag (either form). */
static bool
given (int argc, char **argv, const char *flag)
{
  return flag_index (argc, argv, flag) > 0;
}

/* The value of the user's first flag (either form), NULL when absent. */
static const char *
flag_value (int argc, char **argv, const char *flag)
{
  int i = flag_index (argc, argv, flag);
  const char *eq = i > 0 ? strchr (argv[i], '=') : NULL;

  if (i == 0)
    return NULL;
  return eq != NULL ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
}

/* The scene and its background grid are inputs too: no output may
 * replace them (the subcommand checks the flags' own inputs). */
/* An output at the background's sidecar: one there is an input; where
 * there is none, the output would be read as one next time. */
static int
check_not_sidecar (const char *flag, const char *out, const char *scene, const char *sidecar,
                   const char *as_sidecar)
{
  if (out == NULL || sidecar == NULL || g_file_test (sidecar, G_FILE_TEST_EXISTS))
    return cli_check_not_input (flag, out, as_sidecar, sidecar);
  if (!cli_same_file (out, sidecar))
    return CLI_EXIT_OK;
  return cli_fail (CLI_EXIT_USAGE, "%s %s is where the sidecar of --scene %s's background grid "
                   "would be: the grid would be read with it next time; name another file",
                   flag, out, scene);
}

static int
check_scene_not_output (int argc, char **argv, const char *scene, const FrModel *m)
{
  static const char *const outputs[] = { "--out", "--rays-out", "--times-out", "--gather-out" };
  g_autofree char *as_scene = g_strdup_printf ("--scene %s", scene);
  g_autofree char *as_background = g_strdup_printf ("--scene %s (its background grid)", scene);
  g_autofree char *as_sidecar = g_strdup_printf ("--scene %s (its background grid's sidecar)", scene);
  g_autofree char *sidecar = NULL, *target_sidecar = NULL;
  int status;

  /* A .npy background's sidecar is an input too, where it is and where it
   * would be read: beside the grid, or beside a link's target. */
  if (m->background != NULL && g_strcmp0 (m->background->format, "npy") == 0)
    {
      g_autofree char *target = realpath (m->background->path, NULL);

      sidecar = fr_scene_file_sidecar_path (m->background->path);
      if (target != NULL)
        target_sidecar = fr_scene_file_sidecar_path (target);
    }
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      const char *out = flag_value (argc, argv, outputs[i]);

      if ((status = cli_check_not_input (outputs[i], out, as_scene, scene)) != CLI_EXIT_OK
          || (m->background != NULL
              && (status = cli_check_not_input (outputs[i], out, as_background, m->background->path))
                   != CLI_EXIT_OK)
          || (status = check_not_sidecar (outputs[i], out, scene, sidecar, as_sidecar)) != CLI_EXIT_OK
          || (status = check_not_sidecar (outputs[i], out, scene, target_sidecar, as_sidecar))
               != CLI_EXIT_OK)
        return status;
    }
  return CLI_EXIT_OK;
}

static void
say_instead (Expansion *ex, char *text, const char *what)
{
  g_ptr_array_add (ex->words, text);
  g_ptr_array_add (ex->words, g_strdup (what));
}

/* Passes flag value on to the subcommand; what is the scene's name for it.
 * The expansion only passes flags the user did not give, so every mention
 * of flag in a message is about the scene. */
static void
push (Expansion *ex, const char *flag, char *value, const char *what)
{
  if (cli_scratch_dir ()[0] != '\0' && g_str_has_prefix (value, cli_scratch_dir ()))
    {
      say_instead (ex, g_strdup_printf ("%s %s", flag, value), what);
      say_instead (ex, g_strdup (value), what);
    }
  say_instead (ex, g_strdup (flag), what);
  g_ptr_array_add (ex->args, g_strdup (flag));
  g_ptr_array_add (ex->args, value);
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

static bool
is_flag_char (char c)
{
  return g_ascii_isalnum (c) || c == '-';
}

/* Replaces flag where it stands as a whole word ("--speed" but not the
 * start of "--speed-const"); returns how many times. */
static guint
replace_flag (GString *s, const char *flag, const char *with)
{
  size_t n = strlen (flag), w = strlen (with);
  const char *p;
  guint replaced = 0;

  for (size_t i = 0; (p = strstr (s->str + i, flag)) != NULL;)
    {
      size_t at = (size_t) (p - s->str);

      if ((at == 0 || !is_flag_char (s->str[at - 1])) && !is_flag_char (s->str[at + n]))
        {
          g_string_erase (s, (gssize) at, (gssize) n);
          g_string_insert (s, (gssize) at, with);
          i = at + w;
          replaced++;
        }
      else
        i = at + n;
    }
  return replaced;
}

/* One line of the subcommand's stderr in the scene's words: its made-up
 * flags and scratch files by the scene's names for them, and, where any
 * was named, the scene once, after "foldray-cli: " (and a "note: " or
 * "warning: "). */
static void
reword_line (const Expansion *ex, GString *line, const char *scene)
{
  static const char *const kinds[] = { "note: ", "warning: " };
  guint named = 0;
  size_t at = 0;

  /* Paths first, so that "--velocity /tmp/…" goes as one; then any other
   * mention of the folder; then the flags. */
  for (guint i = 0; i < ex->words->len; i += 2)
    if (g_str_has_prefix (g_ptr_array_index (ex->words, i), cli_scratch_dir ()) ||
        strchr (g_ptr_array_index (ex->words, i), ' ') != NULL)
      named += g_string_replace (line, g_ptr_array_index (ex->words, i),
                                 g_ptr_array_index (ex->words, i + 1), 0);
  g_string_replace (line, cli_scratch_dir (), scene, 0);
  for (guint i = 0; i < ex->words->len; i += 2)
    if (g_str_has_prefix (g_ptr_array_index (ex->words, i), "--"))
      named += replace_flag (line, g_ptr_array_index (ex->words, i), g_ptr_array_index (ex->words, i + 1));
  if (named == 0)
    return;
  if (g_str_has_prefix (line->str, "foldray-cli: "))
    at = strlen ("foldray-cli: ");
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    if (g_str_has_prefix (line->str + at, kinds[k]))
      at += strlen (kinds[k]);
  g_string_insert (line, (gssize) at, scene);
  g_string_insert (line, (gssize) (at + strlen (scene)), ": ");
}

/* Shows what the subcommand wrote on stderr (held in fd), in the scene's
 * words, line by line. */
static void
replay_messages (const Expansion *ex, int fd)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *scene = g_strdup_printf ("--scene %s", ex->scene);
  g_auto(GStrv) lines = NULL;
  char buf[4096];
  ssize_t n;

  if (lseek (fd, 0, SEEK_SET) == 0)
    while ((n = read (fd, buf, sizeof buf)) != 0)
      {
        if (n < 0 && errno == EINTR)
          continue;
        if (n < 0)
          break;
        g_string_append_len (s, buf, n);
      }
  close (fd);

  lines = g_strsplit (s->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GString) line = g_string_new (lines[i]);

      reword_line (ex, line, scene);
      /* The scene's name goes in as its bytes. */
      cli_write_utf8 (stderr, line->str, line->len);
      if (lines[i + 1] != NULL)
        fputc ('\n', stderr);
    }
  fflush (stderr);
}

/* Each receiver must lie inside the grid: said here, the subcommand would
 * name a line of a temporary CSV. */
static int
check_receivers (const char *scene, const fr_grid *g, GArray *points, const char *noun)
{
  for (guint i = 0; i < points->len; i++)
    {
      const FrVertex *v = &g_array_index (points, FrVertex, i);

      if (!fr_grid_contains (g, v->x, 0.0, v->z))
        return cli_fail (CLI_EXIT_USAGE, "--scene %s: %s %u at (%.15g, %.15g) lies outside the grid "
                         "(x from %.15g to %.15g, z from %.15g to %.15g)", scene, noun, i + 1, v->x, v->z,
                         g->x0, g->x0 + (double) (g->nx - 1) * g->dx,
                         g->z0, g->z0 + (double) (g->nz - 1) * g->dz);
    }
  return CLI_EXIT_OK;
}

/* Rasterises the scene's model.  The loader has checked the model, so a
 * failure here is the machine's (memory), not the scene's; values the
 * solver would refuse are the scene's. */
static int
rasterise (const char *scene, const FrModel *m, GBytes **velocity)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *warning = NULL;

  if ((*velocity = fr_model_rasterise (m, &warning, &error)) == NULL)
    return cli_fail (CLI_EXIT_FAILURE, "--scene %s: %s", scene, error->message);
  if (!fr_model_check_velocity (&m->grid, *velocity, "its velocity", &error))
    return cli_fail (CLI_EXIT_USAGE, "--scene %s: %s", scene, error->message);
  /* The solve goes on, as in the app, which shows the same words. */
  if (warning != NULL)
    cli_warn ("--scene %s: %s", scene, warning);
  return CLI_EXIT_OK;
}

int
cli_run_with_scene (const char *subcommand, int (*run) (int argc, char **argv),
                    int argc, char **argv)
{
  const char *scene;
  bool fold = strcmp (subcommand, "fold") == 0;
  const char *vflag = fold ? "--speed" : "--velocity";
  g_autoptr(FrSceneDoc) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) velocity = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  Expansion ex = { NULL, args, words };
  GArray *receivers;
  const char *receiver_noun;
  bool speed_const, on_scene_grid, want_horizon, want_sources, want_receivers;
  /* The first of the outputs taken at the receivers that was given, or NULL. */
  const char *at_receivers;
  double fold_speed;
  const FrModel *m;
  fr_array a;
  fr_error err = { 0 };
  int status, capture = -1, saved_stderr = -1;

  if ((status = find_scene (subcommand, argc, argv, &scene)) != CLI_EXIT_OK)
    return status;
  if (scene == NULL)
    return run (argc, argv);
  if ((status = cli_check_input ("--scene", scene)) != CLI_EXIT_OK)
    return status;
  if ((doc = fr_scene_doc_load (scene, &error)) == NULL)
    return cli_fail (error->code == FR_SCENE_FILE_ERROR_IO ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE,
                     "--scene %s", error->message);
  m = doc->model;
  if ((status = check_scene_not_output (argc, argv, scene, m)) != CLI_EXIT_OK)
    return status;

  /* What the scene supplies: only what the user did not give.  Its "view"
   * and "display" are the application's (checked on reading, like every
   * member) and stand for no flag. */
  /* The fold's speed as the app's Folds mode takes it: the model's
   * velocities for "speed": "grid", else the constant, F = 1 where the
   * scene gives none (fr_fold_state_reset), 0 in impermeable obstacles
   * (below). */
  speed_const = fold && !(doc->has_fold && doc->has_fold_speed && doc->fold_speed_from_grid) &&
                !given (argc, argv, "--speed") && !given (argc, argv, "--speed-const");
  fold_speed = doc->has_fold && doc->has_fold_speed && !doc->fold_speed_from_grid ? doc->fold_speed
                                                                                  : 1.0;
  want_horizon = fold && doc->has_fold && doc->fold_horizon != NULL && doc->fold_horizon->len >= 2 &&
                 !given (argc, argv, "--source") && !given (argc, argv, "--boundary") &&
                 !given (argc, argv, "--horizon");
  want_sources = !want_horizon && !given (argc, argv, "--source") && !given (argc, argv, "--boundary") &&
                 !(fold && given (argc, argv, "--horizon"));
  /* A fold traces its characteristics from the points the app traces
   * them from, when the scene has any; else from its receivers. */
  if (fold && doc->has_fold && doc->fold_characteristics != NULL && doc->fold_characteristics->len > 0)
    {
      receivers = doc->fold_characteristics;
      receiver_noun = "characteristic point";
    }
  else
    {
      receivers = doc->receivers;
      receiver_noun = "receiver";
    }
  at_receivers = given (argc, argv, "--rays-out") ? "--rays-out"
                 : given (argc, argv, "--times-out") ? "--times-out"
                 : given (argc, argv, "--gather-out") ? "--gather-out" : NULL;
  want_receivers = at_receivers != NULL && !given (argc, argv, "--receivers") && receivers->len > 0;
  on_scene_grid = !given (argc, argv, vflag) && !given (argc, argv, "--speed-const") &&
                  !given (argc, argv, "--shape") && !given (argc, argv, "--spacing") &&
                  !given (argc, argv, "--origin");

  /* A fold horizon of one point is no horizon, nor is one the user
   * cleared (written empty): the app folds nothing from them, so the
   * scene's seismic sources must not stand in for them. */
  if (fold && doc->has_fold && doc->fold_horizon != NULL && doc->fold_horizon->len < 2 &&
      !given (argc, argv, "--source") && !given (argc, argv, "--boundary") &&
      !given (argc, argv, "--horizon"))
    return cli_fail (CLI_EXIT_USAGE, doc->fold_horizon->len == 1
                     ? "--scene %s: its fold horizon has 1 point, and a horizon needs at least 2: "
                       "give --horizon, --source or --boundary"
                     : "--scene %s: its fold horizon is empty (cleared): give --horizon, --source "
                       "or --boundary", scene);
  /* The scene's model is rasterised on the scene's grid, and a fold at
   * the scene's constant speed runs on it too: another spacing or origin
   * would stretch or shift it under the scene's sources, receivers and
   * horizon (a gradient of 5 solved as one of 2.5). */
  if (!given (argc, argv, vflag) && !given (argc, argv, "--speed-const"))
    for (guint i = 0; i < 2; i++)
      {
        const char *flag = i == 0 ? "--spacing" : "--origin";

        if (given (argc, argv, flag))
          return cli_fail (CLI_EXIT_USAGE, "%s: --scene %s solves its model on the scene's own grid; "
                           "change the grid in the scene, or give %s with it", flag, scene,
                           fold ? "--speed or --speed-const" : "--velocity");
      }
  if (at_receivers != NULL && !given (argc, argv, "--receivers") && receivers->len == 0)
    return cli_fail (CLI_EXIT_USAGE, fold ? "%s: --scene %s has no receivers nor fold "
                     "characteristic points: give --receivers"
                     : "%s: --scene %s has no receivers: give --receivers", at_receivers, scene);
  /* The scene's own faults, in its words, before any file is made. */
  if (!speed_const && !given (argc, argv, vflag) && !given (argc, argv, "--speed-const") &&
      (status = rasterise (scene, m, &velocity)) != CLI_EXIT_OK)
    return status;
  /* The scene's constant F goes round its impermeable obstacles, as in the
   * app: where it has any, F goes in as a grid on the scene's own grid
   * (--shape asks for another). */
  if (speed_const && !given (argc, argv, "--shape"))
    {
      g_autoptr(GBytes) model = NULL;
      g_autofree char *warning = NULL;

      /* Only where the velocity is 0 counts: its other values, and what
       * the rasteriser would say of them, are not the fold's. */
      if ((model = fr_model_rasterise (m, &warning, &error)) == NULL)
        return cli_fail (CLI_EXIT_FAILURE, "--scene %s: %s", scene, error->message);
      if ((velocity = fr_model_constant_speed (model, fold_speed, &error)) != NULL)
        speed_const = false;
      else if (error != NULL)
        return cli_fail (CLI_EXIT_FAILURE, "--scene %s: %s", scene, error->message);
    }
  if (want_sources && doc->sources->len == 0)
    return cli_fail (CLI_EXIT_USAGE, fold ? "--scene %s has no sources nor a fold horizon: "
                     "give --source, --boundary or --horizon" : "--scene %s has no sources: give --source",
                     scene);
  if (want_receivers && on_scene_grid &&
      (status = check_receivers (scene, &m->grid, receivers, receiver_noun)) != CLI_EXIT_OK)
    return status;

  ex.scene = g_strdup (scene);
  for (char *p = ex.scene; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = ' ';

  /* From here on every way out passes cli_scratch_end. */
  if (!cli_scratch_begin (&error))
    {
      status = cli_fail (CLI_EXIT_FAILURE, "--scene %s: %s", scene, error->message);
      goto out;
    }
  if (velocity != NULL)
    {
      a = fr_array_wrap_grid (&m->grid, FR_F32, (void *) g_bytes_get_data (velocity, NULL));
      if (fr_npy_write (cli_scratch_file (SCRATCH_VELOCITY), &a, &err) != FR_OK)
        {
          /* Our own temporary file: never the user's input. */
          status = cli_fail (CLI_EXIT_FAILURE, "--scene %s: %s", scene, err.message);
          goto out;
        }
    }
  if ((want_horizon && !write_points (cli_scratch_file (SCRATCH_HORIZON), doc->fold_horizon, &error)) ||
      (want_receivers && !write_points (cli_scratch_file (SCRATCH_RECEIVERS), receivers, &error)))
    {
      status = cli_fail (CLI_EXIT_FAILURE, "--scene %s: %s", scene, error->message);
      goto out;
    }
  capture = cli_scratch_capture ();
  cli_scratch_ready ();

  g_ptr_array_add (args, g_strdup (argv[0]));
  if (speed_const)
    {
      char v[G_ASCII_DTOSTR_BUF_SIZE];

      push (&ex, "--speed-const", g_strdup (g_ascii_dtostr (v, sizeof v, fold_speed)), "fold speed");
      if (!given (argc, argv, "--shape"))
        push (&ex, "--shape", g_strdup_printf ("%zu,%zu", m->grid.nx, m->grid.nz), "grid size");
    }
  else if (velocity != NULL)
    push (&ex, vflag, g_strdup (cli_scratch_file (SCRATCH_VELOCITY)), "velocity grid");
  /* The user's constant speed on the scene's grid, as their spacing or
   * origin would be: its size is the scene's too. */
  if (fold && given (argc, argv, "--speed-const") && !given (argc, argv, "--shape"))
    push (&ex, "--shape", g_strdup_printf ("%zu,%zu", m->grid.nx, m->grid.nz), "grid size");
  if (!given (argc, argv, "--spacing"))
    push (&ex, "--spacing", pair (m->grid.dx, m->grid.dz), "grid spacing");
  if (!given (argc, argv, "--origin"))
    push (&ex, "--origin", pair (m->grid.x0, m->grid.z0), "grid origin");
  /* The fold's starting horizon replaces the sources, as in the app. */
  if (want_horizon)
    push (&ex, "--horizon", g_strdup (cli_scratch_file (SCRATCH_HORIZON)), "fold horizon");
  else if (want_sources)
    for (guint i = 0; i < doc->sources->len; i++)
      {
        const FrVertex *v = &g_array_index (doc->sources, FrVertex, i);
        push (&ex, "--source", pair (v->x, v->z), "source");
      }
  if (!fold && !given (argc, argv, "--radius"))
    push (&ex, "--radius", fr_radius_to_string (doc->radius), "solver radius");
  if (fold && doc->has_fold && doc->fold_backend != NULL && !given (argc, argv, "--backend"))
    push (&ex, "--backend", g_strdup (doc->fold_backend), "fold back end");
  else if (!given (argc, argv, "--backend") && doc->backend != NULL &&
           !(fold && strcmp (doc->backend, "dijkstra") == 0))
    push (&ex, "--backend", g_strdup (doc->backend), "solver back end");
  if (fold && doc->has_fold && !given (argc, argv, "--psi-a"))
    push (&ex, "--psi-a", pair (doc->psi_a[0], doc->psi_a[1]), "fold psi_a");
  if (fold && doc->has_fold && !given (argc, argv, "--method"))
    push (&ex, "--method", g_strdup (doc->fold_method), "fold method");
  if (want_receivers)
    push (&ex, "--receivers", g_strdup (cli_scratch_file (SCRATCH_RECEIVERS)),
          receivers == doc->receivers ? "receivers" : "fold characteristic points");

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

  /* Its stderr goes to the capture until it returns. */
  if (capture >= 0)
    {
      fflush (stderr);
      saved_stderr = fcntl (STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
      if (saved_stderr >= 0 && dup2 (capture, STDERR_FILENO) < 0)
        {
          close (saved_stderr);
          saved_stderr = -1;
        }
    }
  status = run ((int) args->len - 1, (char **) args->pdata);
  if (saved_stderr >= 0)
    {
      fflush (stderr);
      dup2 (saved_stderr, STDERR_FILENO);
      close (saved_stderr);
    }

out:
  cli_scratch_end ();
  if (capture >= 0)
    replay_messages (&ex, capture);
  g_free (ex.scene);
  return status;
}

#endif
