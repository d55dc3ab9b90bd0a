/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-application"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "fr-application.h"
#include "fr-message.h"
#include "fr-bench.h"
#include "fr-segy.h"
#include "fr-side-panel.h"
#include "fr-window.h"

struct _FrApplication
{
  GtkApplication  parent_instance;

  int             exit_status;
  guint           pending_exports;
};

G_DEFINE_FINAL_TYPE (FrApplication, fr_application, GTK_TYPE_APPLICATION)

/* What --export-on-idle writes, with fixed names. */
static const struct {
  FrExportKind  kind;
  const char   *name;
} idle_exports[] = {
  { FR_EXPORT_PICTURE,      "canvas.png" },
  { FR_EXPORT_TIME_NPY,     "T.npy" },
  { FR_EXPORT_TIME_VTI,     "T.vti" },
  { FR_EXPORT_VELOCITY_NPY, "velocity.npy" },
  { FR_EXPORT_VELOCITY_VTI, "velocity.vti" },
  { FR_EXPORT_RAYS_CSV,     "rays.csv" },
  { FR_EXPORT_RAYS_VTP,     "rays.vtp" },
  { FR_EXPORT_FIGURE_SVG,   "figure.svg" },
  { FR_EXPORT_FIGURE_PDF,   "figure.pdf" },
  { FR_EXPORT_HORIZONS_CSV, "horizons.csv" },   /* folds mode only */
  { FR_EXPORT_HORIZONS_VTP, "horizons.vtp" },
  { FR_EXPORT_RECEIVERS_CSV, "receivers.csv" }, /* rays mode, where there are receivers */
  { FR_EXPORT_TIMES_CSV,    "times.csv" },
  { FR_EXPORT_CURVE_SVG,    "curve.svg" },
  { FR_EXPORT_CURVE_PDF,    "curve.pdf" },
};

/* What --example opens (fr-scene-io.c has a built-in stand-in for each). */
static const char * const example_names[] = { "three-layer", "gradient", NULL };

/* The numeric options' ranges: those of the side panel's spin buttons
 * (ui/fr-side-panel.ui), and window sizes GTK and GL can show. */
#define RADIUS_MIN        FR_SIDE_PANEL_RADIUS_MIN
#define RADIUS_MAX        FR_SIDE_PANEL_RADIUS_MAX
#define INTERVAL_MAX      100.0
#define GEOMETRY_MIN_W    200
#define GEOMETRY_MIN_H    150
#define GEOMETRY_MAX      16384
#define BENCH_SIZE_MIN    16
#define BENCH_SIZE_MAX    8192
#define BENCH_MOVES_MIN   2
#define BENCH_MOVES_MAX   100000

static const GOptionEntry option_entries[] = {
  { "source", 's', 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("Place a source at X,Z in model units (repeatable)"), "X,Z" },
  { "receiver", 'r', 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("Place a receiver at X,Z in model units (repeatable)"), "X,Z" },
  { "clear", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Start without the example’s source and receivers"), NULL },
  { "example", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Open a bundled example: three-layer (default) or gradient"), N_("NAME") },
  { "backend", 'b', 0, G_OPTION_ARG_STRING, NULL,
    N_("Solver back end: auto, dijkstra, cpu or cuda"), N_("NAME") },
  /* Numbers are read as text: GApplication leaves a 0 out of the options
   * dictionary, and a value out of range needs its own message. */
  { "radius", 'R', 0, G_OPTION_ARG_STRING, NULL,
    N_("Neighbourhood radius in nodes, along x and z or each (default 4)"), "R[,RZ]" },
  { "spacing", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Node spacing of FILE.npy when it has no sidecar FILE.json"), "D[,DZ]" },
  { "origin", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Origin of FILE.npy when it has no sidecar FILE.json"), "X0,Z0" },
  { "colormap", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Colour map: viridis, cividis or magma"), N_("NAME") },
  { "interval", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Time between isochrons"), "T" },
  { "wavefront", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Shade what the wave has not reached at time T"), "T" },
  { "geometry", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Window size in pixels"), "WxH" },
  { "export-on-idle", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Once the picture has settled, export everything into DIR and quit (for tests)"), N_("DIR") },
  { "bench-interaction", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Drag a source along a scripted path and report input-to-frame latency"), NULL },
  { "bench-size", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Grid size of the interaction benchmark (default 512)"), "N" },
  { "bench-moves", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Pointer moves in the interaction benchmark (default 240)"), "N" },
  { "bench-csv", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Where the interaction benchmark writes its CSV"), N_("FILE") },
  { "mode", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Start in rays or folds mode (default: the scene’s own, else rays)"), N_("MODE") },
  { "psi-a", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Folds mode: the anisotropy vector ψa"), "AX,AZ" },
  { "horizon", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Folds mode: read the starting horizon from FILE.csv (header x,z)"), N_("FILE") },
  { "bench-fold", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --bench-interaction: drag the ψa arrow’s tip in folds mode instead of a source"), NULL },
  { "bench-edit", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --bench-interaction: drag a node of a drawn model and time each move’s rasterising"), NULL },
  { "bench-receiver", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --bench-interaction: drag a receiver instead of the source"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

/* Parses "A,B" (or "A" when allow_one, giving A,A) in the C locale. */
static gboolean
parse_pair (const char *text,
            gboolean    allow_one,
            double      out[2])
{
  g_auto(GStrv) parts = NULL;
  guint n;

  if (text == NULL)
    return FALSE;
  parts = g_strsplit (text, ",", -1);
  n = g_strv_length (parts);
  if (n < 1 || n > 2 || (n == 1 && !allow_one))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      char *end = NULL;

      g_strstrip (parts[i]);
      out[i] = g_ascii_strtod (parts[i], &end);
      if (end == parts[i] || *end != '\0' || !isfinite (out[i]))
        return FALSE;
    }
  if (n == 1)
    out[1] = out[0];
  return TRUE;
}

static int
usage_error (GApplicationCommandLine *cmdline,
             const char              *format,
             ...) G_GNUC_PRINTF (2, 3);

/* One line on the caller's stderr, in UTF-8 whatever the message quotes
 * (a file name in Latin-1 shows its bytes as U+FFFD). */
static void
print_failure (GApplicationCommandLine *cmdline,
               const char              *message)
{
  g_autofree char *shown = fr_message_make_valid (message);

  g_application_command_line_printerr (cmdline, "foldray: %s\n", shown);
}

static int
usage_error (GApplicationCommandLine *cmdline,
             const char              *format,
             ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  print_failure (cmdline, msg);
  return 2;
}

/* Reads the whole-number option name into *value when it is given and in
 * [min, max]; *text is what was given, or NULL. */
static gboolean
int_option (GVariantDict  *options,
            const char    *name,
            int            min,
            int            max,
            int           *value,
            const char   **text)
{
  gint64 v;

  if (!g_variant_dict_lookup (options, name, "&s", text))
    {
      *text = NULL;
      return TRUE;
    }
  if (!g_ascii_string_to_signed (*text, 10, min, max, &v, NULL))
    return FALSE;
  *value = (int) v;
  return TRUE;
}

/* --radius R or R,RZ: whole numbers of nodes in [min, max], along x and
 * along z (one for both), as foldray-cli spr takes it.  TRUE when absent. */
static gboolean
radius_option (GVariantDict  *options,
               int            min,
               int            max,
               FrRadius      *value,
               const char   **text)
{
  g_auto(GStrv) parts = NULL;
  gint64 v[2];
  guint n;

  if (!g_variant_dict_lookup (options, "radius", "&s", text))
    {
      *text = NULL;
      return TRUE;
    }
  parts = g_strsplit (*text, ",", -1);
  n = g_strv_length (parts);
  if (n < 1 || n > 2)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!g_ascii_string_to_signed (parts[i], 10, min, max, &v[i], NULL))
      return FALSE;
  value->x = (int) v[0];
  value->z = (int) v[n - 1];
  return TRUE;
}

/* The same for a real number (C locale) in [min, max]. */
static gboolean
double_option (GVariantDict  *options,
               const char    *name,
               double         min,
               double         max,
               double        *value,
               const char   **text)
{
  char *end = NULL;
  double v;

  if (!g_variant_dict_lookup (options, name, "&s", text))
    {
      *text = NULL;
      return TRUE;
    }
  v = g_ascii_strtod (*text, &end);
  if (end == *text || *end != '\0' || !isfinite (v) || v < min || v > max)
    return FALSE;
  *value = v;
  return TRUE;
}

static gboolean
is_example (const char *name)
{
  return g_strv_contains ((const char * const *) example_names, name);
}

/* Opens the FILE argument, a scene (.json) or a velocity grid; on failure
 * *primary is what a dialog about it says first (as the Open action). */
static gboolean
open_file_argument (FrWindow      *window,
                    const char    *path,
                    const double  *spacing,
                    const double  *origin,
                    const char   **primary,
                    GError       **error)
{
  if (fr_scene_file_is_scene_name (path))
    {
      *primary = _("Could not open the scene");
      return fr_window_open_scene (window, path, error);
    }
  *primary = fr_segy_is_segy_name (path) ? _("Could not open the SEG-Y model")
                                         : _("Could not open the velocity grid");
  return fr_window_load_grid (window, path, spacing, origin, error);
}

static void
idle_export_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  FrApplication *self = FR_APPLICATION (user_data);
  g_autoptr(GError) error = NULL;

  if (!fr_window_export_finish (FR_WINDOW (object), result, &error))
    {
      g_autofree char *why = fr_message_make_valid (error->message);

      g_printerr ("foldray: export failed: %s\n", why);
      self->exit_status = 1;
    }
  if (--self->pending_exports == 0)
    g_application_quit (G_APPLICATION (self));
  g_application_release (G_APPLICATION (self));
}

static void
settled_export_cb (FrWindow *window,
                   gpointer  user_data)
{
  const char *dir = g_object_get_data (G_OBJECT (window), "export-dir");
  FrApplication *self = FR_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));
  guint receivers;

  /* Only the first settled picture is exported. */
  g_signal_handlers_disconnect_by_func (window, settled_export_cb, user_data);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_autofree char *shown = g_filename_display_name (dir);

      g_printerr ("foldray: %s: %s\n", shown, g_strerror (saved));
      self->exit_status = 1;
      g_application_quit (G_APPLICATION (self));
      return;
    }
  fr_scene_get_markers (fr_window_get_scene (window), FR_MARKER_RECEIVER, &receivers);
  for (guint i = 0; i < G_N_ELEMENTS (idle_exports); i++)
    {
      g_autofree char *path = g_build_filename (dir, idle_exports[i].name, NULL);

      if ((idle_exports[i].kind == FR_EXPORT_HORIZONS_CSV ||
           idle_exports[i].kind == FR_EXPORT_HORIZONS_VTP) && !fr_window_get_fold_mode (window))
        continue;
      /* Receivers, their times and curve are Rays mode's, as the menu has it. */
      if (fr_export_is_of_receivers (idle_exports[i].kind) &&
          (receivers == 0 || fr_window_get_fold_mode (window)))
        continue;
      self->pending_exports++;
      g_application_hold (G_APPLICATION (self));
      fr_window_export_async (window, idle_exports[i].kind, path, 1, NULL,
                              idle_export_done_cb, self);
    }
}

/* The side panel's settings given on the command line; a member left
 * out (0 or negative) keeps what the panel has, from its defaults or the
 * opened scene. */
typedef struct
{
  FrRadius radius;    /* x 0: left out */
  int    backend;     /* fr_spr_backend */
  int    colormap;    /* FrColormap */
  double interval;
  double front;
} PanelOptions;

static void
apply_panel_options (FrSidePanel        *panel,
                     const PanelOptions *o)
{
  if (o->radius.x > 0)
    fr_side_panel_set_radius (panel, o->radius);
  if (o->backend >= 0)
    fr_side_panel_set_backend (panel, (fr_spr_backend) o->backend);
  if (o->colormap >= 0)
    fr_side_panel_set_colormap (panel, (FrColormap) o->colormap);
  if (o->interval >= 0.0)
    fr_side_panel_set_interval (panel, o->interval);
  if (o->front >= 0.0)
    fr_side_panel_set_front (panel, TRUE, o->front);
}

static int
fr_application_command_line (GApplication            *app,
                             GApplicationCommandLine *cmdline)
{
  GVariantDict *options = g_application_command_line_get_options_dict (cmdline);
  g_auto(GStrv) args = NULL;
  g_autofree const char **sources = NULL;
  g_autofree const char **receivers = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) file_error = NULL;
  const char *file_primary = NULL;
  const char *backend_name = NULL, *spacing_text = NULL, *origin_text = NULL;
  const char *example = NULL, *geometry = NULL, *colormap_name = NULL;
  const char *export_dir = NULL, *bench_csv = NULL;
  const char *mode_name = NULL, *psi_text = NULL, *horizon_path = NULL;
  gboolean bench_fold = FALSE, bench_edit = FALSE, bench_receiver = FALSE;
  double psi[2] = { 0.0, 0.0 };
  double spacing[2], origin[2], interval = 0.0, front = 0.0;
  gboolean clear = FALSE, bench = FALSE;
  const char *radius_text, *interval_text, *front_text, *bench_size_text, *bench_moves_text;
  FrRadius radius = fr_radius_square (4);
  int bench_size = 512, bench_moves = 240;
  fr_spr_backend backend = FR_SPR_AUTO;
  FrColormap colormap = FR_COLORMAP_VIRIDIS;
  PanelOptions panel_options;
  FrWindow *window;
  int width = 1200, height = 760;
  int argc;

  args = g_application_command_line_get_arguments (cmdline, &argc);

  g_variant_dict_lookup (options, "source", "^a&s", &sources);
  g_variant_dict_lookup (options, "receiver", "^a&s", &receivers);
  g_variant_dict_lookup (options, "clear", "b", &clear);
  g_variant_dict_lookup (options, "example", "&s", &example);
  g_variant_dict_lookup (options, "backend", "&s", &backend_name);
  g_variant_dict_lookup (options, "spacing", "&s", &spacing_text);
  g_variant_dict_lookup (options, "origin", "&s", &origin_text);
  g_variant_dict_lookup (options, "colormap", "&s", &colormap_name);
  g_variant_dict_lookup (options, "geometry", "&s", &geometry);
  g_variant_dict_lookup (options, "export-on-idle", "^&ay", &export_dir);
  g_variant_dict_lookup (options, "bench-interaction", "b", &bench);
  g_variant_dict_lookup (options, "bench-csv", "^&ay", &bench_csv);
  g_variant_dict_lookup (options, "mode", "&s", &mode_name);
  g_variant_dict_lookup (options, "psi-a", "&s", &psi_text);
  g_variant_dict_lookup (options, "horizon", "^&ay", &horizon_path);
  g_variant_dict_lookup (options, "bench-fold", "b", &bench_fold);
  g_variant_dict_lookup (options, "bench-edit", "b", &bench_edit);
  g_variant_dict_lookup (options, "bench-receiver", "b", &bench_receiver);

  if (mode_name != NULL && !g_str_equal (mode_name, "rays") && !g_str_equal (mode_name, "folds"))
    return usage_error (cmdline, _("--mode: expected rays or folds, not “%s”"), mode_name);
  if (psi_text != NULL && !parse_pair (psi_text, FALSE, psi))
    return usage_error (cmdline, _("--psi-a: expected AX,AZ, not “%s”"), psi_text);

  if (backend_name != NULL && !fr_spr_backend_from_name (backend_name, &backend))
    return usage_error (cmdline, _("--backend: unknown back end “%s”"), backend_name);
  if (colormap_name != NULL && !fr_colormap_from_id (colormap_name, &colormap))
    return usage_error (cmdline, _("--colormap: unknown colour map “%s”"), colormap_name);
  if (example != NULL && !is_example (example))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) example_names);

      return usage_error (cmdline, _("--example: no example named “%s”; the examples are %s"),
                          example, known);
    }
  if (!radius_option (options, RADIUS_MIN, RADIUS_MAX, &radius, &radius_text))
    return usage_error (cmdline, _("%s: expected a whole number from %d to %d, or two as R,RZ "
                                   "(along x, along z), not “%s”"),
                        "--radius", RADIUS_MIN, RADIUS_MAX, radius_text);
  if (!double_option (options, "interval", 0.0, INTERVAL_MAX, &interval, &interval_text))
    return usage_error (cmdline, _("%s: expected a number from %g to %g, not “%s”"),
                        "--interval", 0.0, INTERVAL_MAX, interval_text);
  if (!double_option (options, "wavefront", 0.0, G_MAXDOUBLE, &front, &front_text))
    return usage_error (cmdline, _("%s: expected a number of %g or more, not “%s”"),
                        "--wavefront", 0.0, front_text);
  if (spacing_text != NULL && (!parse_pair (spacing_text, TRUE, spacing) ||
                               !(spacing[0] > 0.0 && spacing[1] > 0.0)))
    return usage_error (cmdline, _("--spacing: expected D or DX,DZ > 0, not “%s”"), spacing_text);
  if (origin_text != NULL && !parse_pair (origin_text, FALSE, origin))
    return usage_error (cmdline, _("--origin: expected X0,Z0, not “%s”"), origin_text);
  if (geometry != NULL)
    {
      int end = 0;

      if (sscanf (geometry, "%dx%d%n", &width, &height, &end) != 2 || geometry[end] != '\0')
        return usage_error (cmdline, _("--geometry: expected WxH, not “%s”"), geometry);
      if (width < GEOMETRY_MIN_W || width > GEOMETRY_MAX ||
          height < GEOMETRY_MIN_H || height > GEOMETRY_MAX)
        return usage_error (cmdline, _("--geometry: expected a width of %d to %d and a height of "
                                       "%d to %d pixels, not “%s”"),
                            GEOMETRY_MIN_W, GEOMETRY_MAX, GEOMETRY_MIN_H, GEOMETRY_MAX, geometry);
    }
  if (argc > 2)
    return usage_error (cmdline, _("expected at most one FILE.npy"));
  if (!int_option (options, "bench-size", BENCH_SIZE_MIN, BENCH_SIZE_MAX, &bench_size,
                   &bench_size_text))
    return usage_error (cmdline, _("%s: expected a whole number from %d to %d, not “%s”"),
                        "--bench-size", BENCH_SIZE_MIN, BENCH_SIZE_MAX, bench_size_text);
  if (!int_option (options, "bench-moves", BENCH_MOVES_MIN, BENCH_MOVES_MAX, &bench_moves,
                   &bench_moves_text))
    return usage_error (cmdline, _("%s: expected a whole number from %d to %d, not “%s”"),
                        "--bench-moves", BENCH_MOVES_MIN, BENCH_MOVES_MAX, bench_moves_text);

  window = fr_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  panel_options.radius = radius_text != NULL ? radius : (FrRadius) { 0, 0 };
  panel_options.backend = backend_name != NULL ? (int) backend : -1;
  panel_options.colormap = colormap_name != NULL ? (int) colormap : -1;
  panel_options.interval = interval_text != NULL ? interval : -1.0;
  panel_options.front = front_text != NULL ? front : -1.0;

  if (bench)
    {
      FrBenchOptions bo = {
        .size = bench_size,
        .radius = radius,
        .moves = bench_moves,
        .backend = backend_name != NULL ? backend : FR_SPR_CPU,
        .csv_path = bench_csv,
        .fold = bench_fold,
        .edit = bench_edit,
        .receiver = bench_receiver,
      };

      apply_panel_options (fr_window_get_side_panel (window), &panel_options);
      gtk_window_present (GTK_WINDOW (window));
      if (bo.edit)
        fr_bench_edit_start (window, &bo);
      else
        fr_bench_start (window, &bo);
      return 0;
    }

  if (argc == 2 &&
      !open_file_argument (window, args[1], spacing_text != NULL ? spacing : NULL,
                           origin_text != NULL ? origin : NULL, &file_primary, &file_error))
    {
      print_failure (cmdline, file_error->message);
      /* A test's run (--export-on-idle) fails.  Otherwise there may be no
       * terminal (a file manager started us): the window opens on the
       * example and says what went wrong. */
      if (export_dir != NULL)
        {
          gtk_window_destroy (GTK_WINDOW (window));
          return 2;
        }
    }
  if (argc < 2 || file_error != NULL)
    {
      gboolean with_markers = !clear && sources == NULL && receivers == NULL;

      if (!fr_window_load_example (window, example != NULL ? example : "three-layer",
                                   with_markers, &error))
        {
          print_failure (cmdline, error->message);
          gtk_window_destroy (GTK_WINDOW (window));
          return 2;
        }
    }

  /* Markers from the command line: one edit, then forget it (it is where
   * the session starts, not something to undo). */
  if ((sources != NULL || receivers != NULL) && fr_scene_has_model (fr_window_get_scene (window)))
    {
      FrScene *scene = fr_window_get_scene (window);

      fr_scene_begin_edit (scene);
      for (guint k = 0; k < 2; k++)
        {
          const char **list = k == 0 ? sources : receivers;

          for (guint i = 0; list != NULL && list[i] != NULL; i++)
            {
              double xz[2];

              if (!parse_pair (list[i], FALSE, xz))
                {
                  fr_scene_end_edit (scene, NULL);
                  gtk_window_destroy (GTK_WINDOW (window));
                  return usage_error (cmdline, _("--%s: expected X,Z, not “%s”"),
                                      k == 0 ? "source" : "receiver", list[i]);
                }
              /* Snapped to the nearest node, as a click is; outside the
               * grid it would land on the edge, somewhere else. */
              if (!fr_scene_grid_holds (scene, xz[0], xz[1]))
                {
                  const fr_grid *g = fr_scene_get_grid (scene);

                  fr_scene_end_edit (scene, NULL);
                  gtk_window_destroy (GTK_WINDOW (window));
                  return usage_error (cmdline, _("--%s %s lies outside the grid (x from %g to %g, "
                                                 "z from %g to %g)"),
                                      k == 0 ? "source" : "receiver", list[i], g->x0,
                                      g->x0 + (double) (g->nx - 1) * g->dx, g->z0,
                                      g->z0 + (double) (g->nz - 1) * g->dz);
                }
              fr_scene_add_marker (scene, k == 0 ? FR_MARKER_SOURCE : FR_MARKER_RECEIVER,
                                   xz[0], xz[1]);
            }
        }
      fr_scene_select (scene, FR_MARKER_NONE, 0);
      fr_scene_end_edit (scene, NULL);
      fr_window_forget_edits (window);
    }

  /* After the file: what the command line asks for wins over the
   * settings a scene was saved with. */
  apply_panel_options (fr_window_get_side_panel (window), &panel_options);
  if (psi_text != NULL)
    fr_fold_state_set_psi_a_given (fr_window_get_fold_state (window), psi[0], psi[1]);
  if (horizon_path != NULL &&
      !fr_fold_state_load_horizon_csv (fr_window_get_fold_state (window), horizon_path, &error))
    {
      print_failure (cmdline, error->message);
      gtk_window_destroy (GTK_WINDOW (window));
      return 2;
    }
  if (mode_name != NULL)
    fr_window_set_fold_mode (window, g_str_equal (mode_name, "folds"));

  if (export_dir != NULL)
    {
      g_object_set_data_full (G_OBJECT (window), "export-dir", g_strdup (export_dir), g_free);
      g_signal_connect (window, "settled", G_CALLBACK (settled_export_cb), NULL);
    }

  gtk_window_present (GTK_WINDOW (window));
  if (file_error != NULL)
    fr_window_show_error (window, file_primary, file_error);
  return 0;
}

static int
fr_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("foldray %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *app = user_data;
  const char *authors[] = { _("The Foldray developers"), NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", "Foldray",
                         "logo-icon-name", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Seismic shortest-path ray tracing and fold simulation, "
                                       "redrawn while you drag"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         /* Translators: your names, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  g_autolist(GtkWindow) windows = NULL;

  /* Closed, not destroyed: each window asks whether to save its unsaved
   * edits, as its own close button does; the application quits when the
   * last one has gone.  A copy, since closing changes the list. */
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (FR_IS_WINDOW (l->data))
      windows = g_list_prepend (windows, g_object_ref (l->data));
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static void
fr_application_startup (GApplication *app)
{
  static const GActionEntry actions[] = {
    { "about", about_action },
    { "quit", quit_action },
  };
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit",              { "<Control>q", NULL } },
    { "win.open",              { "<Control>o", NULL } },
    { "win.save",              { "<Control>s", NULL } },
    { "win.save-as",           { "<Control><Shift>s", NULL } },
    { "win.edit-model('select')", { "<Control>m", NULL } },
    { "win.edit-model('rectangle')", { "<Control>r", NULL } },
    { "win.edit-model('polygon')", { "<Control>g", NULL } },
    { "win.edit-model('off')", { "Escape", NULL } },
    { "win.export('picture')", { "<Control>e", NULL } },
    /* Delete, undo and redo are the window's own bindings (fr-window.c),
     * so that a focused text field gets them first. */
    { "win.fold-clear-horizon", { "<Control><Shift>Delete", NULL } },
    { "win.zoom-in",           { "<Control>plus", "<Control>equal", NULL } },
    { "win.zoom-out",          { "<Control>minus", NULL } },
    { "win.zoom-fit",          { "<Control>0", NULL } },
    /* The header's Rays | Folds switch, from the keyboard. */
    { "win.mode('rays')",      { "<Control>1", NULL } },
    { "win.mode('folds')",     { "<Control>2", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
    { "win.side-panel",        { "F9", NULL } },
  };

  G_APPLICATION_CLASS (fr_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), actions, G_N_ELEMENTS (actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
}

static void
fr_application_window_added (GtkApplication *app,
                             GtkWindow      *window)
{
  GTK_APPLICATION_CLASS (fr_application_parent_class)->window_added (app, window);

  if (GTK_IS_APPLICATION_WINDOW (window) &&
      gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/org/foldray/Foldray/ui/fr-shortcuts.ui");
      GtkShortcutsWindow *overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));

      gtk_application_window_set_help_overlay (GTK_APPLICATION_WINDOW (window), overlay);
    }
}

static void
fr_application_class_init (FrApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);

  app_class->command_line = fr_application_command_line;
  app_class->handle_local_options = fr_application_handle_local_options;
  app_class->startup = fr_application_startup;
  gtk_app_class->window_added = fr_application_window_added;
}

static void
fr_application_init (FrApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE.npy|SCENE.json]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Seismic shortest-path ray tracing, redrawn while you drag."));
}

FrApplication *
fr_application_new (void)
{
  /* Not unique: every invocation is its own process, which tests rely on
   * and which needs no session bus. */
  return g_object_new (FR_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_NON_UNIQUE,
                       "resource-base-path", "/org/foldray/Foldray",
                       NULL);
}

/* A failure that happened after g_application_run started (an export on
 * idle, a benchmark over its target) becomes the process's exit status. */
int
fr_application_get_exit_status (FrApplication *self)
{
  g_return_val_if_fail (FR_IS_APPLICATION (self), 1);
  return self->exit_status;
}

void
fr_application_set_exit_status (FrApplication *self,
                                int            status)
{
  g_return_if_fail (FR_IS_APPLICATION (self));
  self->exit_status = status;
}
