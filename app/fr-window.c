/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-window"

#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "fr-axes.h"
#include "fr-csv.h"
#include "fr-device.h"
#include "fr-figure.h"
#include "fr-fold-job.h"
#include "fr-fold-panel.h"
#include "fr-fold-state.h"
#include "fr-fold-tool.h"
#include "fr-editor.h"
#include "fr-file-filter.h"
#include "fr-model-memory.h"
#include "fr-model-panel.h"
#include "fr-message.h"
#include "fr-receiver-line-dialog.h"
#include "fr-scene-io.h"
#include "fr-segy.h"
#include "fr-session.h"
#include "fr-shot-job.h"
#include "fr-window.h"

struct _FrWindow
{
  GtkApplicationWindow  parent_instance;

  /* Template children. */
  FrCanvas             *canvas;
  FrAxes               *axes;
  FrSidePanel          *side_panel;
  GtkWidget            *side_scroll;  /* the side panel's column, which F9 hides */
  FrFoldPanel          *fold_panel;
  FrEditor             *editor;          /* the drawn model's tools, over the canvas */
  FrSession            *session;         /* the scene file, autosave, recovery */
  GtkLabel             *backend_label;
  GtkLabel             *grid_label;
  GtkLabel             *solve_label;
  GtkWidget            *failure_bar;
  GtkWidget            *model_bar;      /* fr_scene_get_velocity_warning */
  GtkWidget            *autosave_bar;   /* fr_window_set_autosave_failure */
  GtkLabel             *autosave_label;
  GtkLabel             *model_label;
  GPtrArray            *pending_exports;  /* PendingExport: waiting for the solve */
  GtkLabel             *failure_label;
  GtkLabel             *cursor_label;
  /* The readout's width while it shows, measured for this grid, unit and
   * velocity range. */
  int                   readout_px;
  fr_grid               readout_grid;
  FrLengthUnit          readout_unit;
  float                 readout_vrange[2];
  /* The pointer's last place, to write the readout again in a new unit. */
  double                cursor_x, cursor_z;
  gboolean              cursor_inside;

  FrScene              *scene;
  FrSolverThread       *solver;
  gboolean              solve_deferred;  /* a drag moved on while a solve ran */
  guint                 solve_idle_id;   /* coalesces the edits of one main-loop turn */
  gboolean              settled;
  FILE                 *frame_log;       /* FOLDRAY_DEBUG_FRAMES */
  GtkNativeDialog      *chooser;

  /* Folds mode (fr-fold-*.c). */
  FrFoldState          *fold;
  FrFoldTool           *fold_tool;
  gboolean              fold_mode;
  FrResult             *fold_result;     /* the last fold result: a Δ or Count change reuses its T */
  FrResult             *rays_result;     /* the last Rays result: its solves are taken again for
                                          * the shots whose sources have not moved */
  gboolean              edited_beside_undo; /* saved settings changed since the save */
};

/* An export waiting for the solve of the scene as it is now. */
typedef struct
{
  GTask        *task;
  FrExportKind  kind;
  char         *path;
  int           scale;
} PendingExport;

static void
pending_export_free (gpointer data)
{
  PendingExport *pe = data;

  g_clear_object (&pe->task);
  g_free (pe->path);
  g_free (pe);
}

static void flush_pending_exports (FrWindow *self);

/* Gives up the exports that wait for the solve (cancelled: no dialog). */
static void
drop_pending_exports (FrWindow *self)
{
  g_autoptr(GPtrArray) left = g_steal_pointer (&self->pending_exports);

  self->pending_exports = g_ptr_array_new_with_free_func (pending_export_free);
  for (guint i = 0; i < left->len; i++)
    g_task_return_new_error (((PendingExport *) g_ptr_array_index (left, i))->task,
                             G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("The window closed before the solve finished"));
}

enum { RESPONSE_CLOSE_WITHOUT_EXPORTING = 1 };

static void
close_question_response_cb (GtkDialog *dialog,
                            int        response,
                            FrWindow  *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response != RESPONSE_CLOSE_WITHOUT_EXPORTING)
    return;
  drop_pending_exports (self);
  gtk_window_close (GTK_WINDOW (self));     /* on to the save question */
}

/* Closing (the close button, Ctrl+Q) while exports wait for the solve
 * asks first: they were dropped without a word, though the user had
 * chosen their files.  Connected before the session's save question. */
static gboolean
close_request_cb (FrWindow *self,
                  gpointer  unused)
{
  guint n = self->pending_exports->len;
  GtkWidget *dialog;

  if (n == 0)
    return FALSE;
  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   g_dngettext (GETTEXT_PACKAGE,
                                                "An export is waiting for the solve to finish",
                                                "%u exports are waiting for the solve to finish", n),
                                   n);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            g_dngettext (GETTEXT_PACKAGE,
                                                         "It is written once the solve ends; "
                                                         "closing now drops it.",
                                                         "They are written once the solve ends; "
                                                         "closing now drops them.", n));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("Close _without Exporting"), RESPONSE_CLOSE_WITHOUT_EXPORTING, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_question_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

G_DEFINE_FINAL_TYPE (FrWindow, fr_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  SETTLED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const struct {
  const char   *id;
  FrExportKind  kind;
  const char   *basename;
} export_kinds[] = {
  { "picture",      FR_EXPORT_PICTURE,      "foldray" },
  { "time-npy",     FR_EXPORT_TIME_NPY,     "T" },
  { "time-vti",     FR_EXPORT_TIME_VTI,     "T" },
  { "velocity-npy", FR_EXPORT_VELOCITY_NPY, "velocity" },
  { "velocity-vti", FR_EXPORT_VELOCITY_VTI, "velocity" },
  { "rays-csv",     FR_EXPORT_RAYS_CSV,     "rays" },
  { "rays-vtp",     FR_EXPORT_RAYS_VTP,     "rays" },
  { "figure-svg",   FR_EXPORT_FIGURE_SVG,   "figure" },
  { "figure-pdf",   FR_EXPORT_FIGURE_PDF,   "figure" },
  { "horizons-csv", FR_EXPORT_HORIZONS_CSV, "horizons" },
  { "horizons-vtp", FR_EXPORT_HORIZONS_VTP, "horizons" },
  { "receivers-csv", FR_EXPORT_RECEIVERS_CSV, "receivers" },
  { "times-csv",    FR_EXPORT_TIMES_CSV,    "arrival-times" },
  { "curve-svg",    FR_EXPORT_CURVE_SVG,    "traveltime-curve" },
  { "curve-pdf",    FR_EXPORT_CURVE_PDF,    "traveltime-curve" },
};

static void
log_line (FrWindow   *self,
          const char *format,
          ...) G_GNUC_PRINTF (2, 3);

/* Test hook: one line per job, frame and view change, for the GUI tests
 * and the drag-storm check (serials drawn must only increase). */
static void
log_line (FrWindow   *self,
          const char *format,
          ...)
{
  va_list args;

  if (self->frame_log == NULL)
    return;
  fprintf (self->frame_log, "%.3f ", g_get_monotonic_time () / 1000.0);
  va_start (args, format);
  vfprintf (self->frame_log, format, args);
  va_end (args);
  fputc ('\n', self->frame_log);
  fflush (self->frame_log);
}

static const char *
backend_label (fr_spr_backend backend)
{
  switch (backend)
    {
    case FR_SPR_DIJKSTRA:
      return _("Dijkstra (reference)");
    case FR_SPR_CPU:
      return _("CPU (OpenMP)");
    case FR_SPR_CUDA:
      return _("CUDA");
    case FR_SPR_AUTO:
    default:
      return _("Automatic");
    }
}

static void
update_title (FrWindow *self)
{
  const char *title = fr_scene_get_title (self->scene);
  g_autofree char *text = NULL;

  if (title != NULL)
    text = g_strdup_printf ("%s — Foldray", title);
  gtk_window_set_title (GTK_WINDOW (self), text != NULL ? text : "Foldray");
}

static void
update_grid_label (FrWindow *self)
{
  const fr_grid *g = fr_scene_get_grid (self->scene);
  FrLengthUnit unit = fr_scene_get_length_unit (self->scene);
  g_autofree char *text = NULL;

  if (!fr_scene_has_model (self->scene))
    {
      gtk_label_set_text (self->grid_label, "");
      return;
    }
  if (unit != FR_LENGTH_UNIT_NONE)
    /* Translators: the grid size with the length unit of the spacing,
     * e.g. "301 × 151 nodes, spacing 0.01 × 0.01 km". */
    text = g_strdup_printf (_("%zu × %zu nodes, spacing %g × %g %s"), g->nx, g->nz, g->dx, g->dz,
                            fr_length_unit_get_id (unit));
  else
    /* Translators: the grid size, e.g. "301 × 151 nodes, spacing 0.01 × 0.01". */
    text = g_strdup_printf (_("%zu × %zu nodes, spacing %g × %g"), g->nx, g->nz, g->dx, g->dz);
  gtk_label_set_text (self->grid_label, text);
}

/* A coordinate of the readout, to a tenth of the grid's finer spacing:
 * "%.4g" wrote a UTM x of 514000 m as 5.14e+05, to the nearest kilometre
 * (helper-60). */
static char *
format_coordinate (double v,
                   double spacing)
{
  const int decimals = CLAMP ((int) ceil (-log10 (spacing)) + 1, 0, 12);

  if (!(fabs (v) < 1e15) || !(spacing > 0.0))
    return g_strdup_printf ("%.4g", v);
  return g_strdup_printf ("%.*f", decimals, v);
}

/* The readout's text for x and z (already formatted), v and t (NAN: T
 * not reached). */
static char *
format_readout (FrLengthUnit  unit,
                const char   *xs,
                const char   *zs,
                double        v,
                double        t)
{
  if (unit != FR_LENGTH_UNIT_NONE)
    {
      const char *l = fr_length_unit_get_id (unit);
      g_autofree char *lt = g_strdup_printf ("%s/s", l);

      /* The units close up the gaps: two spaces, not three. */
      if (!isnan (t))
        /* Translators: the cursor readout with units: x and z (already
         * formatted) in a length unit, v in it per second, T in seconds
         * ("x 1.200 km  z 0.350 km  v 2.5 km/s  T 0.43989 s"). */
        return g_strdup_printf (_("x %s %s  z %s %s  v %.6g %s  T %.5g s"), xs, l, zs, l, v, lt, t);
      return g_strdup_printf (_("x %s %s  z %s %s  v %.6g %s  T —"), xs, l, zs, l, v, lt);
    }
  if (!isnan (t))
    return g_strdup_printf (_("x %s   z %s   v %.6g   T %.5g"), xs, zs, v, t);
  return g_strdup_printf (_("x %s   z %s   v %.6g   T —"), xs, zs, v);
}

/* The width of text in layout's font, in pixels. */
static int
text_px (PangoLayout *layout,
         const char  *text)
{
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

/* The wider of two formatted numbers, its digits made 8s. */
static char *
widest_of (PangoLayout *layout,
           char        *a,
           char        *b)
{
  char *w;

  for (char *c = a; *c != '\0'; c++)
    *c = g_ascii_isdigit (*c) ? '8' : *c;
  for (char *c = b; *c != '\0'; c++)
    *c = g_ascii_isdigit (*c) ? '8' : *c;
  w = g_strdup (text_px (layout, a) >= text_px (layout, b) ? a : b);
  g_free (a);
  g_free (b);
  return w;
}

/* The value in decades 10^e_lo .. 10^e_hi whose "%.*g" text, precision
 * digits, is widest in layout's font.  The text's form (fixed or
 * exponent, the zeros after the point, the exponent's sign) changes with
 * the decade alone, and its digits are tabular: 8.888… of each decade
 * stands for all of it. */
static double
widest_g (PangoLayout *layout,
          int          precision,
          int          e_lo,
          int          e_hi)
{
  double widest = 0.0;
  int widest_px = -1;

  for (int e = e_lo; e <= e_hi; e++)
    {
      double v = 8.888888888 * pow (10.0, e);
      g_autofree char *text = g_strdup_printf ("%.*g", precision, v);
      int w = text_px (layout, text);

      if (w > widest_px)
        {
          widest_px = w;
          widest = v;
        }
    }
  return widest;
}

/* The width in pixels the readout keeps while it shows: its widest text
 * for the model, measured once a grid, unit and velocity range, not at
 * every pointer move: the longest x and z of the model; the widest v of
 * the model's velocities (format_readout's "%.6g", exponent form from
 * 1e6 up and below 1e-4, a wall's 0 narrower); the widest T ("%.5g"):
 * interpolated between nodes, a T near a source or a starting horizon
 * can be as small as any, so every decade from 1e-99 to a float's 1e38.
 * A v of six digits below 1 and a T from 0.001 s were assumed before, and
 * the readout widened while the pointer crossed values in exponent form.
 * Its digits are tabular, so a number's width follows its form.
 * Measured, not counted in characters: 54 "average" characters came to
 * 430 px where the text took 300, and held the status bar wider than a
 * window at its smallest width (the readout's end went past the window's
 * edge). */
static int
readout_width (FrWindow     *self,
               FrLengthUnit  unit)
{
  const fr_grid *g = fr_scene_get_grid (self->scene);
  const double spacing = MIN (g->dx, g->dz);
  g_autofree char *xs = NULL, *zs = NULL, *text = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  double x0, z0, x1, z1, v, t;
  float vrange[2];

  fr_scene_get_velocity_range (self->scene, NULL, &vrange[1]);
  vrange[0] = fr_scene_get_least_velocity (self->scene);
  if (self->readout_px > 0 && unit == self->readout_unit &&
      fr_model_grids_equal (g, &self->readout_grid) &&
      vrange[0] == self->readout_vrange[0] && vrange[1] == self->readout_vrange[1])
    return self->readout_px;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->cursor_label), NULL);
  pango_layout_set_attributes (layout, gtk_label_get_attributes (self->cursor_label));
  fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  xs = widest_of (layout, format_coordinate (x0, spacing), format_coordinate (x1, spacing));
  zs = widest_of (layout, format_coordinate (z0, spacing), format_coordinate (z1, spacing));
  v = widest_g (layout, 6, (int) floor (log10 (MAX (vrange[0], FLT_MIN))),
                (int) floor (log10 (MAX (vrange[1], FLT_MIN))));
  t = widest_g (layout, 5, -99, 38);
  text = format_readout (unit, xs, zs, v, t);
  self->readout_px = text_px (layout, text);
  self->readout_grid = *g;
  self->readout_unit = unit;
  self->readout_vrange[0] = vrange[0];
  self->readout_vrange[1] = vrange[1];
  return self->readout_px;
}

static void
update_cursor_label (FrWindow *self,
                     double    x,
                     double    z,
                     gboolean  inside)
{
  FrLengthUnit unit = fr_side_panel_get_length_unit (self->side_panel);
  g_autofree char *text = NULL, *xs = NULL, *zs = NULL;
  float v;
  double t;

  self->cursor_x = x;
  self->cursor_z = z;
  self->cursor_inside = inside;
  if (!inside || !fr_scene_has_model (self->scene) ||
      isnan (v = fr_scene_velocity_at (self->scene, x, z)))
    {
      /* No room kept while it shows nothing: the solve's status before it
       * was cut short at the default width ("Folded in 23.9 ms (solas, …", as it read then). */
      gtk_widget_set_size_request (GTK_WIDGET (self->cursor_label), -1, -1);
      gtk_label_set_text (self->cursor_label, "");
      return;
    }
  /* While it shows, room for its widest text, so that it keeps its width
   * as the numbers change. */
  gtk_widget_set_size_request (GTK_WIDGET (self->cursor_label), readout_width (self, unit), -1);
  {
    const fr_grid *g = fr_scene_get_grid (self->scene);
    const double spacing = MIN (g->dx, g->dz);

    xs = format_coordinate (x, spacing);
    zs = format_coordinate (z, spacing);
  }
  text = format_readout (unit, xs, zs, v, fr_canvas_time_at (self->canvas, x, z, &t) ? t : NAN);
  gtk_label_set_text (self->cursor_label, text);
  log_line (self, "readout %s", text);
}

/* ---------------------------------------------------------------- Folds mode */

static void request_solve (FrWindow *self);
static void undo_state_cb (FrWindow *self, GParamSpec *pspec, FrUndo *undo);

/* In Folds mode, a document without a starting horizon of its own (a new
 * model, a scene saved without one) starts on the bundled anticline–
 * syncline, so there is something to fold; one the user cleared stays
 * clear.  Not an edit: the document is as it was opened. */
static void
start_fold_horizon (FrWindow *self)
{
  if (self->fold_mode && fr_scene_has_model (self->scene) &&
      !fr_fold_state_has_own_horizon (self->fold))
    fr_window_load_fold_example (self, "anticline-syncline", NULL);
}

/* A new model: the ψa arrow starts near its top centre, and a grid F has
 * a new smallest speed (the |ψa| limit). */
/* With Speed F on the velocity grid, |ψa| must stay below the grid's
 * least speed: after any change of the velocities, not only of the grid. */
static void
fold_speeds_changed (FrWindow *self)
{
  if (self->fold != NULL && fr_scene_has_model (self->scene))
    fr_fold_state_set_grid_min_speed (self->fold, fr_scene_get_least_velocity (self->scene));
}

static void
fold_model_changed (FrWindow *self)
{
  const fr_grid *g;
  double x0, z0, x1, z1;

  if (self->fold == NULL || !fr_scene_has_model (self->scene))
    return;
  fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  fr_fold_state_set_arrow_base (self->fold, x0 + 0.5 * (x1 - x0), z0 + 0.2 * (z1 - z0));
  /* A grid made smaller in Rays mode left the characteristics' points
   * beyond it, and the scene saved then was refused when opened: they
   * keep to the span from the first node to the last. */
  g = fr_scene_get_grid (self->scene);
  fr_grid_node_position (g, g->nx - 1, 0, g->nz - 1, &x1, NULL, &z1);
  fr_fold_state_set_grid_span (self->fold, g->x0, g->z0, x1, z1);
}

/* How many distinct levels k the folded horizons of result hold. */
static guint
levels_traced (FrResult *result)
{
  g_autoptr(GHashTable) seen = NULL;

  if (result->horizon_levels == NULL)
    return 0;
  seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < result->horizon_levels->len; i++)
    g_hash_table_add (seen, GINT_TO_POINTER (g_array_index (result->horizon_levels, int, i)));
  return g_hash_table_size (seen);
}

static void
fold_result_status (FrWindow *self,
                    FrResult *result)
{
  g_autofree char *text = NULL;
  const char *method = result->method != NULL ? result->method : "";
  guint n_levels;

  if (result->job->fold.n_horizon < 2)
    {
      gtk_label_set_text (self->solve_label, _("Click to draw a horizon, node by node"));
      return;
    }
  /* The levels T = k·delta that were traced, as the panel's Count counts
   * them: each is one horizon on each side of the start, in as many
   * pieces as obstacles and the model's edges cut it into, so counting
   * the pieces said 16 or 23 for a Count of 8. */
  n_levels = levels_traced (result);
  /* The levels first: the status bar cuts its end off when the readout
   * takes room, and a level short is what the user must see (helper-61). */
  /* Translators: e.g. "8 of 8 levels folded in 84.2 ms (las)": the levels
   * the front reached of the Count asked for, the time, the method. */
  if (result->horizons_error != NULL)
    text = fr_fold_result_horizons_failure (result);
  else if (fr_fold_job_reuses_solve (result->job))
    /* Translators: a new Δ or Count, contoured from the last solve's T
     * without solving: e.g. "9 of 9 levels contoured again from the last
     * solve (84.2 ms, las)", that solve's time and method. */
    text = g_strdup_printf (ngettext ("%u of %d level contoured again from the last solve (%.1f ms, %s)",
                                      "%u of %d levels contoured again from the last solve (%.1f ms, %s)",
                                      (gulong) result->job->fold.count),
                            n_levels, result->job->fold.count, result->solve_ms, method);
  else
    text = g_strdup_printf (ngettext ("%u of %d level folded in %.1f ms (%s)",
                                      "%u of %d levels folded in %.1f ms (%s)",
                                      (gulong) result->job->fold.count),
                            n_levels, result->job->fold.count, result->solve_ms, method);
  log_line (self, "status serial=%u pieces=%u %s", result->serial,
            result->horizons != NULL ? result->horizons->len : 0, text);
  if (result->notice != NULL)
    {
      g_autofree char *with = g_strdup_printf ("%s — %s", text, result->notice);

      gtk_label_set_text (self->solve_label, with);
    }
  else
    gtk_label_set_text (self->solve_label, text);
}

static char *
fold_backend_label (FrResult *result)
{
  fr_fold_backend used = FR_FOLD_CPU;

  fr_fold_backend_from_name (result->backend, &used);
  if (used == FR_FOLD_CPU)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Back end: %s, %d thread",
                                         "Back end: %s, %d threads", result->job->threads),
                            _("CPU (OpenMP)"), result->job->threads);
  return g_strdup_printf (_("Back end: %s"), used == FR_FOLD_CUDA ? _("CUDA") : result->backend);
}

static void
fold_state_changed_cb (FrWindow    *self,
                       guint        what,
                       FrFoldState *fold)
{
  if (self->fold_mode && (what & FR_FOLD_CHANGED_SOLVE))
    request_solve (self);
  /* The fold is saved with the scene: a user edit modifies it. */
  if ((what & FR_FOLD_CHANGED_EDITED) && fr_scene_has_model (self->scene))
    {
      fr_scene_set_modified (self->scene, TRUE);
      if (self->session != NULL)
        fr_session_scene_edited (self->session);
    }
}

static void
fold_mode_changed_cb (GSimpleAction *action,
                      GVariant      *value,
                      gpointer       user_data)
{
  FrWindow *self = user_data;

  g_simple_action_set_state (action, value);
  fr_window_set_fold_mode (self, g_str_equal (g_variant_get_string (value, NULL), "folds"));
}

static void
fold_init (FrWindow *self)
{
  g_autoptr(GSimpleAction) mode = NULL;

  self->fold = fr_fold_state_new ();
  self->fold_tool = fr_fold_tool_new (self->fold, self->scene);
  g_signal_connect_object (self->fold, "changed", G_CALLBACK (fold_state_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (fr_fold_state_get_undo (self->fold), "notify::can-undo",
                           G_CALLBACK (undo_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (fr_fold_state_get_undo (self->fold), "notify::can-redo",
                           G_CALLBACK (undo_state_cb), self, G_CONNECT_SWAPPED);
  fr_fold_panel_set_state (self->fold_panel, self->fold);

  mode = g_simple_action_new_stateful ("mode", G_VARIANT_TYPE_STRING, g_variant_new_string ("rays"));
  g_signal_connect_object (mode, "change-state", G_CALLBACK (fold_mode_changed_cb), self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (mode));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.fold-clear-horizon", FALSE);
}

/* The path of the file an open chooser chose; NULL, with error set, for
 * one that is not local (a network location). */
static char *
chosen_local_file (GtkNativeDialog  *chooser,
                   GError          **error)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  char *path = file != NULL ? g_file_get_path (file) : NULL;

  if (path == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         _("Only local files can be opened"));
  return path;
}

static void
fold_horizon_response_cb (GtkNativeDialog *chooser,
                          int              response,
                          FrWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = chosen_local_file (chooser, &error);

      fr_fold_state_begin_edit (self->fold);
      if (error != NULL || !fr_fold_state_load_horizon_csv (self->fold, path, &error))
        fr_window_show_error (self, _("Could not read the horizon"), error);
      fr_fold_state_end_edit (self->fold, _("Load Horizon"));
    }
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

/* Asks for a CSV file to read (a horizon, receivers); response_cb gets
 * the answer.  The window holds the chooser while it is open. */
static void
show_csv_open_chooser (FrWindow   *self,
                       const char *title,
                       const char *accept,
                       const char *filter_name,
                       GCallback   response_cb)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = fr_file_filter_new (filter_name, "csv", NULL);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         accept, _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect_object (chooser, "response", response_cb, self, 0);
  g_clear_object (&self->chooser);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

static void
fold_load_horizon_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  show_csv_open_chooser (FR_WINDOW (widget), _("Open Horizon"), _("_Open"),
                         _("Horizon polylines (CSV, x,z)"), G_CALLBACK (fold_horizon_response_cb));
}

/* Whether the pointer holds something: a marker, a model node or
 * obstacle, or the fold tool's handle.  An edit that removes or replaces
 * what it holds waits until it lets go (Delete in the middle of dragging
 * an obstacle freed it under the drag: a crash; in a marker drag, the
 * next marker followed the pointer instead). */
static gboolean
pointer_holds_item (FrWindow *self)
{
  return fr_canvas_is_dragging (self->canvas) || fr_editor_is_dragging (self->editor);
}

static void
fold_clear_horizon_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  if (pointer_holds_item (self))
    return;
  fr_fold_state_begin_edit (self->fold);
  fr_fold_state_set_horizon (self->fold, NULL, 0);
  fr_fold_state_clear_ray_points (self->fold);
  fr_fold_state_end_edit (self->fold, _("Clear Horizon"));
}

static void
fold_example_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  fr_fold_state_begin_edit (self->fold);
  if (!fr_window_load_fold_example (self, g_variant_get_string (parameter, NULL), &error))
    fr_window_show_error (self, _("Could not read the horizon"), error);
  fr_fold_state_end_edit (self->fold, _("Load Horizon"));
}

/* Snapshots the scene and hands it to the solver thread (latest wins). */
static void
submit_job (FrWindow *self)
{
  g_autoptr(FrJob) job = NULL;
  guint serial;

  self->solve_deferred = FALSE;
  self->settled = FALSE;
  if (!fr_scene_has_model (self->scene))
    return;

  if (self->fold_mode)
    job = fr_fold_state_make_job (self->fold, self->scene);
  else
    {
      job = fr_scene_make_job (self->scene, fr_side_panel_get_radius (self->side_panel),
                               fr_side_panel_get_backend (self->side_panel));
      /* T of another radius or back end is stale until this one lands. */
      fr_marker_panel_set_solver (fr_side_panel_get_marker_panel (self->side_panel),
                                  job->radius, job->backend);
    }
  /* Leave one core to the main thread and the GL rasteriser: OpenMP
   * threads that spin at barriers while GTK draws on the same cores slow a
   * solve tenfold (measured on 2 cores with llvmpipe). */
  job->threads = MAX (1, fr_cpu_threads () - 1);
  job->input_seq = fr_canvas_get_input_seq (self->canvas);
  job->input_time = g_get_monotonic_time ();
  if (job->kind == FR_JOB_FOLD)
    fr_fold_job_reuse (job, self->fold_result);
  else
    fr_job_reuse_solves (job, self->rays_result);
  serial = fr_solver_thread_submit (self->solver, job);
  log_line (self, "job serial=%u input=%" G_GUINT64_FORMAT " sources=%u nx=%zu nz=%zu "
            "dx=%.9g dz=%.9g", serial, job->input_seq, job->n_sources, job->grid.nx,
            job->grid.nz, job->grid.dx, job->grid.dz);
  if (job->kind == FR_JOB_FOLD)
    log_line (self, "fold serial=%u psi_x=%.9g psi_z=%.9g nodes=%u rays=%u reuse=%u", serial,
              job->fold.psi_a[0], job->fold.psi_a[1], job->fold.n_horizon, job->n_receivers,
              job->fold.solved != NULL ? job->fold.solved->serial : 0);
  else
    log_line (self, "spr serial=%u radius=%d radius_z=%d backend=%s receivers=%u shot=%d kept=%u",
              serial, job->radius.x, job->radius.z, fr_spr_backend_name (job->backend), job->n_receivers,
              job->shot, fr_job_n_solves_kept (job));
  if (job->n_sources > 0 || (job->kind == FR_JOB_FOLD && job->fold.n_horizon >= 2))
    gtk_label_set_text (self->solve_label, _("Solving…"));
}

/* A scene edit wants a new solve.  While a marker is dragged and a solve is
 * running, the change waits for that solve's result instead of cancelling
 * it: every drag then shows progress, at most one solve behind.  Anything
 * else cancels the running solve and starts over. */
static gboolean
solve_idle_cb (gpointer data)
{
  FrWindow *self = data;

  self->solve_idle_id = 0;
  if ((fr_canvas_is_dragging (self->canvas) || fr_editor_is_dragging (self->editor)) &&
      fr_solver_thread_is_busy (self->solver))
    self->solve_deferred = TRUE;
  else
    submit_job (self);
  return G_SOURCE_REMOVE;
}

/* Edits made in one turn of the main loop (an example's markers, a batch
 * of motion events) become one job. */
static void
request_solve (FrWindow *self)
{
  self->settled = FALSE;
  if (self->solve_idle_id == 0)
    self->solve_idle_id = g_idle_add_full (G_PRIORITY_DEFAULT, solve_idle_cb, self, NULL);
}

/* An edit's or an undo's model could not be rasterised (out of memory):
 * the scene kept a model that its velocity shows, and says which. */
static void
raster_failed_cb (FrWindow     *self,
                  const GError *error)
{
  fr_window_show_error (self, _("Could not compute the velocity grid"), error);
}

static void update_modified (FrWindow *self);

static void
scene_changed_cb (FrWindow *self,
                  guint     what,
                  FrScene  *scene)
{
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_VELOCITY))
    fold_speeds_changed (self);
  if (what & FR_SCENE_CHANGED_MODEL)
    {
      fold_model_changed (self);
      update_title (self);
      update_grid_label (self);
      gtk_label_set_text (self->solve_label, "");
      gtk_widget_set_visible (self->failure_bar, FALSE);
    }
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_VELOCITY |
              FR_SCENE_CHANGED_SHOT))
    request_solve (self);
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_VELOCITY))
    {
      const char *warning = fr_scene_get_velocity_warning (self->scene);

      gtk_label_set_text (self->model_label, warning != NULL ? warning : "");
      gtk_widget_set_visible (self->model_bar, warning != NULL);
      if (warning != NULL)
        log_line (self, "model warning %s", warning);
    }
  if (what & (FR_SCENE_CHANGED_VELOCITY | FR_SCENE_CHANGED_OUTLINES))
    undo_state_cb (self, NULL, NULL);
  if (self->session != NULL &&
      (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_VELOCITY |
               FR_SCENE_CHANGED_OUTLINES)))
    fr_session_scene_edited (self->session);
  /* The edit's moves marked the scene modified; with no step left it is
   * as modified as the histories say (a scene opened, a marker dragged
   * and Escaped: no "•", no question on closing). */
  if (what & FR_SCENE_CHANGED_NO_STEP)
    update_modified (self);
}

/* On cells much longer one way than the other, a radius of like counts
 * leaves the stencil few directions near the finer axis, and paths that
 * way come out long (diamond-shaped isochrons).  Says so, with the radius
 * that reaches as far both ways, where that at least halves the excess;
 * NULL otherwise. */
static char *
stencil_note (const FrJob *job)
{
  FrRadius even = fr_radius_even_reach (job->radius, job->grid.dx, job->grid.dz);
  double now, then;

  /* Square cells, or a radius that reaches as far both ways already. */
  if (fr_radius_equal (even, job->radius))
    return NULL;
  now = fr_radius_stencil_error (job->radius, job->grid.dx, job->grid.dz);
  then = fr_radius_stencil_error (even, job->grid.dx, job->grid.dz);
  if (!(now > 0.01 && then < 0.5 * now))
    return NULL;
  /* TRANSLATORS: after "Solved in 12.3 ms — ": the stencil's largest error
   * on cells of unlike spacings, and the Radius fields that shrink it. */
  return g_strdup_printf (_("on these cells the radius lengthens paths by up to %.1f %%; "
                            "%d along x and %d along z give %.1f %%"),
                          100.0 * now, even.x, even.z, 100.0 * then);
}

static void
solver_result_cb (FrWindow       *self,
                  FrResult       *result,
                  FrSolverThread *solver)
{
  g_autofree char *text = NULL;
  gboolean same_shot = FALSE;

  /* The solver thread emits only the newest job's result; a result for a
   * model replaced meanwhile cannot reach here, but check anyway. */
  if (!fr_scene_job_is_current (self->scene, result->job))
    return;

  if (result->job->kind == FR_JOB_FOLD)
    {
      g_clear_pointer (&self->fold_result, fr_result_unref);
      self->fold_result = fr_result_ref (result);
    }
  else
    {
      /* Whether the shot shown is the one shown before, from its place:
       * a result that solved nothing then only traced rays again. */
      same_shot = self->rays_result != NULL && self->rays_result->shots != NULL &&
                  result->shots != NULL && self->rays_result->job->shot == result->job->shot &&
                  memcmp (self->rays_result->job->sources + 2 * result->job->shot,
                          result->job->sources + 2 * result->job->shot, 2 * sizeof (double)) == 0;
      g_clear_pointer (&self->rays_result, fr_result_unref);
      self->rays_result = fr_result_ref (result);
    }
  fr_canvas_set_result (self->canvas, result);
  fr_marker_panel_set_result (fr_side_panel_get_marker_panel (self->side_panel), result);

  gtk_widget_set_visible (self->failure_bar, !result->ok);
  if (!result->ok)
    {
      text = g_strdup_printf (_("Solve failed: %s"), result->error);
      gtk_label_set_text (self->solve_label, text);
      gtk_label_set_text (self->failure_label, text);
    }
  else if (result->job->kind == FR_JOB_FOLD)
    fold_result_status (self, result);
  else if (result->job->n_sources == 0)
    gtk_label_set_text (self->solve_label, _("Click to place a source"));
  else
    {
      g_autofree char *stencil = stencil_note (result->job);

      if (result->shots != NULL && result->n_shots_solved == 0 && same_shot)
        /* Translators: each source fired alone, receivers moved (or added or
         * removed): every shot's rays traced again from the solves kept,
         * none solved; the source whose shot the canvas shows ("S2") */
        text = g_strdup_printf (_("Rays traced from the last solves, showing S%d’s"),
                                result->job->shot + 1);
      else if (result->shots != NULL && result->n_shots_solved == 0)
        /* Translators: another source selected, each fired alone: its shot
         * shown from the shots solved before, without solving; the source as
         * the marker list names it ("S2") */
        text = g_strdup_printf (_("Showing S%d’s shot, solved before"), result->job->shot + 1);
      else if (result->shots != NULL && result->n_shots_solved < result->shots->n)
        /* Translators: each source fired alone, only the shots of the sources
         * moved solved again: how many, of how many shots, the time they took,
         * and the source whose shot the canvas shows ("S2") */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Solved %u of %u shots in %.1f ms, the others kept, showing S%d’s",
                                             "Solved %u of %u shots in %.1f ms, the others kept, showing S%d’s",
                                             result->n_shots_solved),
                                result->n_shots_solved, result->shots->n, result->solve_ms,
                                result->job->shot + 1);
      else if (result->shots != NULL)
        /* Translators: each source fired alone; the count of shots (sources), the
         * time all their solves took, and the source whose shot the canvas
         * shows, as the marker list names it ("S2") */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Solved %u shot in %.1f ms, showing S%d’s",
                                             "Solved %u shots in %.1f ms, showing S%d’s", result->shots->n),
                                result->shots->n, result->solve_ms, result->job->shot + 1);
      else if (result->n_shots_solved == 0)
        /* Translators: receivers moved, added or removed (or the scene edited
         * elsewhere): the sources' T is the last solve's, only the rays were
         * traced again */
        text = g_strdup (_("Rays traced from the last solve"));
      else
        text = g_strdup_printf (_("Solved in %.1f ms"), result->solve_ms);
      if (result->notice != NULL)
        {
          char *with = g_strdup_printf ("%s (%s)", text, result->notice);

          g_free (text);
          text = with;
        }
      if (stencil != NULL)
        {
          char *with = g_strdup_printf ("%s — %s", text, stencil);

          g_free (text);
          text = with;
        }
      gtk_label_set_text (self->solve_label, text);
      log_line (self, "rays-status serial=%u %s", result->serial, text);
      fr_side_panel_set_front_max (self->side_panel, result->time_max);
    }

  if (result->ok && result->backend != NULL)
    {
      fr_spr_backend used;
      g_autofree char *label = NULL;

      if (result->job->kind == FR_JOB_FOLD)
        label = fold_backend_label (result);
      else if (fr_spr_backend_from_name (result->backend, &used) && used == FR_SPR_CPU)
        label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Back end: %s, %d thread",
                                              "Back end: %s, %d threads", result->job->threads),
                                 backend_label (used), result->job->threads);
      else if (fr_spr_backend_from_name (result->backend, &used))
        label = g_strdup_printf (_("Back end: %s"), backend_label (used));
      else
        label = g_strdup_printf (_("Back end: %s"), result->backend);
      gtk_label_set_text (self->backend_label, label);
    }

  if (self->solve_deferred)
    submit_job (self);
  flush_pending_exports (self);
}

static void
frame_drawn_cb (FrWindow *self,
                FrResult *result,
                gint64    time,
                FrCanvas *canvas)
{
  log_line (self, "frame serial=%u input=%" G_GUINT64_FORMAT " drawn=%.3f uploads=%u", result->serial,
            result->job->input_seq, time / 1000.0, fr_canvas_get_time_uploads (canvas));

  if (!self->solve_deferred && !fr_solver_thread_is_busy (self->solver) &&
      result->serial == fr_solver_thread_get_latest_serial (self->solver) && !self->settled)
    {
      self->settled = TRUE;
      log_line (self, "settled serial=%u", result->serial);
      g_signal_emit (self, signals[SETTLED], 0);
    }
}

static void
view_changed_cb (FrWindow *self,
                 FrCanvas *canvas)
{
  const FrView *view;
  graphene_point_t origin;
  double sx = 0.0, sy = 0.0;

  if (self->frame_log == NULL)
    return;
  /* Where the canvas sits in the window's surface, so tests can turn model
   * coordinates into screen pixels. */
  if (!gtk_widget_compute_point (GTK_WIDGET (canvas), GTK_WIDGET (self),
                                 &GRAPHENE_POINT_INIT (0, 0), &origin))
    return;
  if (gtk_native_get_surface (GTK_NATIVE (self)) != NULL)
    gtk_native_get_surface_transform (GTK_NATIVE (self), &sx, &sy);
  view = fr_canvas_get_view (canvas);
  log_line (self, "view ox=%.2f oy=%.2f w=%.0f h=%.0f scale=%.9g cx=%.9g cz=%.9g",
            origin.x + sx, origin.y + sy, view->width, view->height, view->scale,
            view->cx, view->cz);
}

static void
cursor_moved_cb (FrWindow *self,
                 double    x,
                 double    z,
                 gboolean  inside,
                 FrCanvas *canvas)
{
  update_cursor_label (self, x, z, inside);
}

static void
solver_settings_changed_cb (FrWindow    *self,
                            FrSidePanel *panel)
{
  request_solve (self);
}

static void
display_settings_changed_cb (FrWindow    *self,
                             FrSidePanel *panel)
{
  FrLengthUnit unit = fr_side_panel_get_length_unit (panel);
  double front = 0.0;
  gboolean enabled;

  enabled = fr_side_panel_get_front (panel, &front);
  fr_canvas_set_interval (self->canvas, fr_side_panel_get_interval (panel));
  fr_canvas_set_colormap (self->canvas, fr_side_panel_get_colormap (panel));
  fr_canvas_set_front (self->canvas, enabled, front);
  if (unit != fr_scene_get_length_unit (self->scene))
    {
      /* The axes, the figures and the readout name it. */
      fr_scene_set_length_unit (self->scene, unit);
      gtk_widget_queue_draw (GTK_WIDGET (self->axes));
      update_cursor_label (self, self->cursor_x, self->cursor_z, self->cursor_inside);
      /* So do the panels' fields and the grid's spacing. */
      fr_model_panel_set_length_unit (fr_side_panel_get_model_panel (panel), unit);
      fr_marker_panel_set_length_unit (fr_side_panel_get_marker_panel (panel), unit);
      fr_fold_panel_set_length_unit (self->fold_panel, unit);
      update_grid_label (self);
    }
}

/* The solver and display settings are saved with the scene, so the
 * user's change modifies it (title, autosave, the question before
 * closing); like the view they are no undo step.  The view, also saved,
 * is no edit: panning and zooming only look. */
static void
settings_edited_cb (FrWindow    *self,
                    FrSidePanel *panel)
{
  if (!fr_scene_has_model (self->scene))
    return;
  self->edited_beside_undo = TRUE;
  fr_scene_set_modified (self->scene, TRUE);
  if (self->session != NULL)
    fr_session_scene_edited (self->session);
}

/* Undo and redo act on the fold's history in Folds mode, else on the
 * scene's. */
static FrUndo *
active_undo (FrWindow *self)
{
  if (self->fold_mode && self->fold != NULL)
    return fr_fold_state_get_undo (self->fold);
  return fr_scene_get_undo (self->scene);
}

static void
undo_state_cb (FrWindow   *self,
               GParamSpec *pspec,
               FrUndo     *undo)
{
  undo = active_undo (self);
  /* A wheel burst still gathering steps is undone whole, before it is on
   * the stack (undo_action finishes it first). */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo",
                                 fr_undo_can_undo (undo) ||
                                 (!self->fold_mode && fr_editor_has_open_edit (self->editor)));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo", fr_undo_can_redo (undo));
}

/* ------------------------------------------------------------------ dialogs */

/* A bar over the picture while the autosave cannot be written (its
 * error), so that the user knows a crash would lose the edits and saves;
 * NULL takes it away.  It went to stderr alone. */
void
fr_window_set_autosave_failure (FrWindow     *self,
                                const GError *error)
{
  g_autofree char *text = NULL;

  g_return_if_fail (FR_IS_WINDOW (self));

  if (error != NULL)
    {
      g_autofree char *why = fr_message_make_valid (error->message);

      text = g_strdup_printf (_("The unsaved changes could not be kept for recovery (%s). "
                                "Save the scene to keep them."), why);
      gtk_label_set_text (self->autosave_label, text);
    }
  if (gtk_widget_get_visible (self->autosave_bar) != (error != NULL))
    log_line (self, "autosave bar %s", error != NULL ? "shown" : "hidden");
  gtk_widget_set_visible (self->autosave_bar, error != NULL);
}

/* Shows an error in a modal message dialog (GTK 4.8 has no GtkAlertDialog). */
void
fr_window_show_error (FrWindow     *self,
                      const char   *primary,
                      const GError *error)
{
  GtkWidget *dialog;

  g_return_if_fail (FR_IS_WINDOW (self));

  /* The user's error, not the program's: a warning would be fatal under
   * G_DEBUG=fatal-warnings and reads as a defect in the log. */
  g_debug ("%s: %s", primary, error != NULL ? error->message : "");
  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);
  /* A file's name in the message may not be UTF-8 (a Latin-1 name): GTK
   * takes only UTF-8, and showed nothing of it. */
  if (error != NULL)
    {
      g_autofree char *shown = fr_message_make_valid (error->message);

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", shown);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

typedef struct
{
  FrWindow     *self;
  char         *path;
  char         *title;
  fr_grid       grid;
  GBytes       *velocity;
  GtkSpinButton *spins[4];
} SpacingDialog;

/* Commits what is typed in the spacing dialog's field that has the focus
 * (the others did when it left them, showing any message then); FALSE
 * where it was refused (no number) or clamped: the dialog then stays, its
 * message saying so, and the next Open takes the value the field shows. */
static gboolean
spacing_fields_valid (SpacingDialog *sd,
                      GtkWidget     *dialog)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (dialog));

  for (guint i = 0; i < 4; i++)
    {
      GtkWidget *spin = GTK_WIDGET (sd->spins[i]);

      if (focus == NULL || (focus != spin && !gtk_widget_is_ancestor (focus, spin)))
        continue;
      gtk_spin_button_update (sd->spins[i]);
      return !gtk_widget_has_css_class (spin, "error") && !gtk_widget_has_css_class (spin, "warning");
    }
  return TRUE;
}

static void
spacing_dialog_free (gpointer data)
{
  SpacingDialog *sd = data;

  g_free (sd->path);
  g_free (sd->title);
  g_clear_pointer (&sd->velocity, g_bytes_unref);
  g_free (sd);
}

static void
spacing_response_cb (GtkDialog *dialog,
                     int        response,
                     gpointer   data)
{
  SpacingDialog *sd = data;

  /* "2,5" was read as 2 and "0" as 1e-9 without a word, and the grid
   * opened with that spacing. */
  if (response == GTK_RESPONSE_OK && !spacing_fields_valid (sd, GTK_WIDGET (dialog)))
    {
      gtk_widget_error_bell (GTK_WIDGET (dialog));
      return;
    }
  if (response == GTK_RESPONSE_OK)
    {
      double v[4];
      fr_error err = { 0 };
      fr_grid g;

      for (guint i = 0; i < 4; i++)
        v[i] = gtk_spin_button_get_value (sd->spins[i]);
      g = fr_grid_2d (sd->grid.nx, sd->grid.nz, v[0], v[1], v[2], v[3]);
      if (fr_grid_check (&g, &err) == FR_OK)
        {
          g_autoptr(GError) error = NULL;

          if (fr_window_load_model (sd->self, sd->title, &g, sd->velocity, &error))
            fr_scene_set_background_source (sd->self->scene, sd->path, fr_segy_is_segy_name (sd->path) ? "segy" : "npy");
          else
            fr_window_show_error (sd->self, fr_segy_is_segy_name (sd->path)
                                              ? _("Could not open the SEG-Y model")
                                              : _("Could not open the velocity grid"), error);
        }
      else
        {
          g_autoptr(GError) error = g_error_new_literal (FR_SCENE_IO_ERROR,
                                                         FR_SCENE_IO_ERROR_INVALID, err.message);
          fr_window_show_error (sd->self, _("The grid spacing is not valid"), error);
        }
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Asks for the spacing and origin of a grid that came without a sidecar. */
static void
ask_spacing (FrWindow      *self,
             const char    *path,
             const fr_grid *grid,
             GBytes        *velocity)
{
  static const char *labels[4] = { N_("Spacing _x"), N_("Spacing _z"), N_("Origin x"), N_("Origin z") };
  /* What the file gave (a SEG-Y's CDP X spacing without an interval),
   * else 1 and 0. */
  const double given[4] = { grid->dx, grid->dz, grid->x0, grid->z0 };
  SpacingDialog *sd;
  GtkWidget *dialog, *content, *grid_widget, *intro, *message;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *msg = NULL;

  sd = g_new0 (SpacingDialog, 1);
  sd->self = self;
  sd->path = g_strdup (path);
  sd->title = g_strdup (base);
  sd->grid = *grid;
  sd->velocity = g_bytes_ref (velocity);

  dialog = gtk_dialog_new_with_buttons (_("Grid Spacing"), GTK_WINDOW (self),
                                        GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT |
                                        GTK_DIALOG_USE_HEADER_BAR,
                                        _("_Cancel"), GTK_RESPONSE_CANCEL,
                                        _("_Open"), GTK_RESPONSE_OK,
                                        NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  content = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  gtk_widget_set_margin_start (content, 18);
  gtk_widget_set_margin_end (content, 18);
  gtk_widget_set_margin_top (content, 12);
  gtk_widget_set_margin_bottom (content, 18);
  gtk_box_set_spacing (GTK_BOX (content), 12);

  if (fr_segy_is_segy_name (path))
    msg = g_strdup_printf (_("“%s” has %zu × %zu nodes, and its headers give no sample interval, "
                             "two that disagree (binary and trace headers; the trace headers' is "
                             "offered), or no evenly stepping trace positions (CDP X). Node (ix, "
                             "iz) lies at (x0 + ix·dx, z0 + iz·dz)."),
                           base, grid->nx, grid->nz);
  else
    {
      g_autofree char *sidecar = fr_scene_file_sidecar_path (base);

      msg = g_strdup_printf (_("“%s” has %zu × %zu nodes and no sidecar file (%s) giving its "
                               "geometry. Node (ix, iz) lies at (x0 + ix·dx, z0 + iz·dz)."),
                             base, grid->nx, grid->nz, sidecar);
    }
  intro = gtk_label_new (msg);
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 50);
  gtk_label_set_xalign (GTK_LABEL (intro), 0.0f);
  gtk_box_append (GTK_BOX (content), intro);

  grid_widget = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid_widget), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid_widget), 12);
  for (guint i = 0; i < 4; i++)
    {
      GtkWidget *label = gtk_label_new_with_mnemonic (_(labels[i]));
      GtkWidget *spin = gtk_spin_button_new_with_range (i < 2 ? 1e-9 : -1e9, 1e9, 0.001);

      /* Significant digits, as the side panel's Spacing fields: six fixed
       * decimals showed 1.25e-5 as 0.000013, which leaving the field again
       * read back as the spacing.  Not numeric (new_with_range's default):
       * a numeric field refuses the text 1e-9 and is left blank. */
      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), FALSE);
      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 6);
      g_signal_connect (spin, "output", G_CALLBACK (fr_panel_significant_output), NULL);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), given[i]);
      gtk_widget_set_hexpand (spin, TRUE);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_grid_attach (GTK_GRID (grid_widget), label, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid_widget), spin, 1, i, 1, 1);
      sd->spins[i] = GTK_SPIN_BUTTON (spin);
    }
  gtk_box_append (GTK_BOX (content), grid_widget);

  /* What was typed and not taken, as in the side panel. */
  message = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (message), 50);
  gtk_label_set_xalign (GTK_LABEL (message), 0.0f);
  gtk_widget_add_css_class (message, "caption");
  gtk_widget_set_visible (message, FALSE);
  gtk_box_append (GTK_BOX (content), message);
  fr_panel_guard_entries (grid_widget, GTK_LABEL (message));

  g_signal_connect_data (dialog, "response", G_CALLBACK (spacing_response_cb), sd,
                         (GClosureNotify) (void (*) (void)) spacing_dialog_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
open_response_cb (GtkNativeDialog *chooser,
                  int              response,
                  FrWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        fr_window_open_file (self, file);
    }
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  FrWindow *self = FR_WINDOW (object);
  g_autoptr(GError) error = NULL;

  /* Cancelled: the window closed before the solve it waited for. */
  if (!fr_window_export_finish (self, result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    fr_window_show_error (self, _("Could not export"), error);
}

static void
export_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    FrWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autofree char *target = NULL;
      g_autoptr(GError) error = NULL;
      FrExportKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (chooser), "kind"));
      int scale = fr_export_chooser_get_scale (GTK_FILE_CHOOSER (chooser), kind);

      if (path == NULL)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                     _("Only local files can be written"));
      /* The name says the format: the export's own suffix, added if need be. */
      else
        target = fr_export_file_for (kind, path, &error);
      if (target == NULL)
        fr_window_show_error (self, _("Could not export"), error);
      else
        fr_window_export_async (self, kind, target, scale, NULL, export_done_cb, NULL);
    }
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

/* A field's value, once taken (Enter, focus out, its buttons), is the
 * model's: Ctrl+Z then undoes the edit it made.  The field's own text
 * took Ctrl+Z first and turned "-2" back into "-", while the model kept
 * −2.  So each spin button remembers the text it showed when its value
 * was last taken or when it got the focus; while it still shows that,
 * nothing is being typed, and Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y go to the
 * window.  Text being typed keeps the field's own undo. */
static void
remember_taken_text (GtkSpinButton *spin)
{
  g_object_set_data_full (G_OBJECT (spin), "fr-taken-text",
                          g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin))), g_free);
}

static void
field_focus_enter_cb (GtkEventControllerFocus *focus,
                      gpointer                 user_data)
{
  remember_taken_text (GTK_SPIN_BUTTON (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (focus))));
}

static void
watch_fields (GtkWidget *widget)
{
  if (GTK_IS_SPIN_BUTTON (widget))
    {
      GtkEventController *focus = gtk_event_controller_focus_new ();

      g_signal_connect_after (widget, "value-changed", G_CALLBACK (remember_taken_text), NULL);
      g_signal_connect (focus, "enter", G_CALLBACK (field_focus_enter_cb), NULL);
      gtk_widget_add_controller (widget, focus);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    watch_fields (c);
}

static gboolean
undo_key_cb (GtkEventControllerKey *keys,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             FrWindow              *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  GtkWidget *spin = focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_SPIN_BUTTON) : NULL;
  const char *taken;
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != GDK_CONTROL_MASK || spin == NULL ||
      !(keyval == GDK_KEY_z || keyval == GDK_KEY_Z || keyval == GDK_KEY_y))
    return FALSE;
  taken = g_object_get_data (G_OBJECT (spin), "fr-taken-text");
  if (taken == NULL || g_strcmp0 (taken, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    return FALSE;   /* typing: the field's own undo */
  gtk_widget_activate_action (GTK_WIDGET (self), keyval == GDK_KEY_y || shift ? "win.redo" : "win.undo",
                              NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ actions */

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = fr_file_filter_new_open ();

  chooser = gtk_file_chooser_native_new (_("Open Scene or Velocity Grid"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect_object (chooser, "response", G_CALLBACK (open_response_cb), self, 0);
  g_clear_object (&self->chooser);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

static void
open_example_now (FrWindow *self,
                  gpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (!fr_window_load_example (self, data, TRUE, &error))
    fr_window_show_error (self, _("Could not open the example"), error);
}

static void
open_example_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  fr_session_confirm (self->session, FR_SESSION_CONFIRM_OPEN, open_example_now,
                      g_strdup (g_variant_get_string (parameter, NULL)), g_free);
}

static void
open_example_scene_now (FrWindow *self,
                        gpointer  data)
{
  const char *name = data;
  g_autofree char *path = fr_scene_io_find_example_scene (name);
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    error = g_error_new (FR_SCENE_IO_ERROR, FR_SCENE_IO_ERROR_FAILED,
                         _("The example scene “%s” is not installed (%s.json in Foldray’s "
                           "scenes folder)"), name, name);
  if (error != NULL || !fr_session_open_copy (self->session, path, &error))
    fr_window_show_error (self, _("Could not open the example"), error);
}

/* A bundled scene (data/scenes), as a new document: Save asks where. */
static void
open_example_scene_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  fr_session_confirm (self->session, FR_SESSION_CONFIRM_OPEN, open_example_scene_now,
                      g_strdup (g_variant_get_string (parameter, NULL)), g_free);
}

/* Asks for the file of the export named id (export_kinds) and writes it. */
static void
export_by_id (FrWindow   *self,
              const char *id)
{
  GtkFileChooserNative *chooser;
  FrExportKind kind = FR_EXPORT_PICTURE;
  const char *basename = "foldray";

  /* A wheel burst still gathering its steps ends here, so that its last
   * velocity is what the export writes and draws. */
  fr_editor_finish_edits (self->editor);
  for (guint i = 0; i < G_N_ELEMENTS (export_kinds); i++)
    if (g_strcmp0 (export_kinds[i].id, id) == 0)
      {
        kind = export_kinds[i].kind;
        basename = export_kinds[i].basename;
      }

  /* Say now, not after a file name was chosen, that there is nothing. */
  if (kind == FR_EXPORT_HORIZONS_CSV || kind == FR_EXPORT_HORIZONS_VTP)
    {
      FrResult *result = fr_canvas_get_result (self->canvas);
      g_autofree char *failure = result != NULL ? fr_fold_result_horizons_failure (result) : NULL;
      guint n = 0;

      fr_fold_state_get_horizon (self->fold, &n);
      if (!self->fold_mode || n < 2 || result == NULL || result->horizons == NULL ||
          result->horizons->len == 0)
        {
          /* Say which of the three is missing. */
          g_autoptr(GError) error =
            g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                                 !self->fold_mode || n < 2
                                 ? _("There are no folded horizons to export: switch to Folds mode and draw a horizon")
                                 : result != NULL && !result->ok
                                 ? _("There are no folded horizons to export: the fold solve failed")
                                 : failure != NULL ? failure
                                 : _("There are no folded horizons to export: no level of Horizons every and Count falls in the model"));

          fr_window_show_error (self, _("Could not export"), error);
          return;
        }
    }
  if (fr_export_is_of_receivers (kind))
    {
      g_autoptr(GError) error = NULL;

      /* The menu items are off in Folds mode; win.export's targets are
       * not, so they are refused here too. */
      if (self->fold_mode)
        {
          error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                       kind == FR_EXPORT_RECEIVERS_CSV
                                       ? _("Receivers belong to Rays mode: switch to Rays mode to export them")
                                       : kind == FR_EXPORT_TIMES_CSV
                                       ? _("Arrival times belong to Rays mode: switch to Rays mode to export them")
                                       : _("The traveltime curve belongs to Rays mode: switch to Rays mode to export it"));
          fr_window_show_error (self, _("Could not export"), error);
          return;
        }
      if (!fr_export_has_receivers (self->scene, &error))
        {
          fr_window_show_error (self, _("Could not export"), error);
          return;
        }
    }

  chooser = gtk_file_chooser_native_new (_("Export"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  fr_export_chooser_setup (GTK_FILE_CHOOSER (chooser), kind,
                           self->session != NULL ? fr_session_get_path (self->session) : NULL,
                           basename);
  /* GTK 4's save chooser asks before replacing an existing file. */
  g_object_set_data (G_OBJECT (chooser), "kind", GUINT_TO_POINTER (kind));
  g_signal_connect_object (chooser, "response", G_CALLBACK (export_response_cb), self, 0);
  g_clear_object (&self->chooser);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  export_by_id (FR_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

/* Export → Receivers, Arrival Times and Traveltime Curve have actions of
 * their own, not targets of win.export, so that Folds mode can turn them
 * off as it does Import Receivers. */
static void
export_receivers_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  export_by_id (FR_WINDOW (widget), "receivers-csv");
}

static void
export_times_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  export_by_id (FR_WINDOW (widget), "times-csv");
}

/* Its target: "curve-svg" or "curve-pdf". */
static void
export_curve_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  const char *id = g_variant_get_string (parameter, NULL);

  g_return_if_fail (g_str_has_prefix (id, "curve-"));
  export_by_id (FR_WINDOW (widget), id);
}

/* After an undo or redo, or an edit that left no step: the scene is
 * unmodified again exactly when both histories stand where it was saved
 * and nothing kept beside them (the solver and display settings) changed
 * since. */
static void
update_modified (FrWindow *self)
{
  gboolean clean = !self->edited_beside_undo &&
                   fr_undo_is_clean (fr_scene_get_undo (self->scene)) &&
                   (self->fold == NULL || fr_undo_is_clean (fr_fold_state_get_undo (self->fold)));

  fr_scene_set_modified (self->scene, !clean);
  if (self->session != NULL)
    fr_session_scene_edited (self->session);
}

/* The document was saved or loaded (clean), or holds changes that no undo
 * takes back (a recovered autosave). */
void
fr_window_set_clean (FrWindow *self,
                     gboolean  clean)
{
  g_return_if_fail (FR_IS_WINDOW (self));

  self->edited_beside_undo = !clean;
  if (clean)
    {
      fr_undo_mark_clean (fr_scene_get_undo (self->scene));
      if (self->fold != NULL)
        fr_undo_mark_clean (fr_fold_state_get_undo (self->fold));
    }
  fr_scene_set_modified (self->scene, !clean);
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  if (pointer_holds_item (self))
    return;
  fr_editor_finish_edits (self->editor);
  if (fr_undo_undo (active_undo (self)))
    update_modified (self);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  if (pointer_holds_item (self))
    return;
  fr_editor_finish_edits (self->editor);
  if (fr_undo_redo (active_undo (self)))
    update_modified (self);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  if (pointer_holds_item (self))
    return;
  if (!fr_editor_delete_selection (self->editor))
    fr_scene_delete_selection (self->scene);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  if (g_str_equal (action_name, "win.save"))
    fr_session_save (self->session);
  else
    fr_session_save_as (self->session);
}

/* Model editing on or off; the obstacle tools (rectangles, polygons,
 * impermeable or slow) imply it.  "off" (Escape) first drops a polygon
 * being drawn. */
static void
edit_model_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);
  const char *tool = g_variant_get_string (parameter, NULL);
  gboolean slow = g_str_has_prefix (tool, "slow-");
  const char *shape = slow ? tool + strlen ("slow-") : tool;

  if (g_str_equal (tool, "off"))
    {
      /* Escape during a drag (a marker, or a node, an obstacle or a
       * rectangle in the editor) cancels the drag, and only that. */
      if (fr_canvas_cancel_drag (self->canvas) || fr_editor_cancel_drag (self->editor))
        return;
      if (!fr_editor_cancel (self->editor))
        fr_editor_set_active (self->editor, FALSE);
      return;
    }
  if (fr_scene_get_model (self->scene) == NULL)
    return;
  fr_editor_set_active (self->editor, TRUE);
  fr_editor_set_tool (self->editor, g_str_equal (shape, "rectangle") ? FR_EDITOR_TOOL_RECTANGLE
                                    : g_str_equal (shape, "polygon") ? FR_EDITOR_TOOL_POLYGON
                                    : FR_EDITOR_TOOL_SELECT);
  fr_editor_set_obstacle_velocity (self->editor, slow
                                   ? 0.5 * fr_scene_get_model (self->scene)->default_velocity : 0.0);
}

static gboolean
recovery_idle_cb (gpointer data)
{
  FrWindow *self = data;

  if (self->session != NULL)
    fr_session_check_recovery (self->session);
  return G_SOURCE_REMOVE;
}

static void
clear_markers_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  if (!pointer_holds_item (FR_WINDOW (widget)))
    fr_scene_clear_markers (FR_WINDOW (widget)->scene);
}

static void
import_receivers_response_cb (GtkNativeDialog *chooser,
                              int              response,
                              FrWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = chosen_local_file (chooser, &error);

      /* The pointer may have taken a marker while the chooser was open. */
      if (path != NULL && pointer_holds_item (self))
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_BUSY,
                                     _("A marker is being dragged; let go of it and import again"));
      if (error != NULL || !fr_scene_import_receivers (self->scene, path, &error))
        fr_window_show_error (self, _("Could not import the receivers"), error);
    }
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

/* Replaces the receivers with a receivers file's (R.csv of foldray-cli). */
static void
import_receivers_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  show_csv_open_chooser (FR_WINDOW (widget), _("Import Receivers"), _("_Import"),
                         _("Receivers (CSV, x,z)"), G_CALLBACK (import_receivers_response_cb));
}

/* Lays out a line of receivers in place of the scene's (a geophone
 * spread), in a small modal window. */
static void
receiver_line_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!fr_scene_has_model (self->scene))
    {
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                                   _("There is no model to place receivers on"));
      fr_window_show_error (self, _("Could not lay out the receivers"), error);
      return;
    }
  gtk_window_present (GTK_WINDOW (fr_receiver_line_dialog_new (GTK_WINDOW (self), self->scene)));
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  FrWindow *self = FR_WINDOW (widget);

  if (g_str_equal (action_name, "win.zoom-in"))
    fr_canvas_zoom_by (self->canvas, 1.25);
  else if (g_str_equal (action_name, "win.zoom-out"))
    fr_canvas_zoom_by (self->canvas, 1.0 / 1.25);
  else
    fr_canvas_zoom_fit (self->canvas);
}

/* ------------------------------------------------------------------ GObject */

static void
fr_window_dispose (GObject *object)
{
  FrWindow *self = (FrWindow *)object;

  g_clear_object (&self->session);
  g_clear_handle_id (&self->solve_idle_id, g_source_remove);
  if (self->pending_exports != NULL)
    {
      drop_pending_exports (self);
      g_clear_pointer (&self->pending_exports, g_ptr_array_unref);
    }
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);

  /* Stop the worker before the scene it may still be reading goes. */
  if (self->solver != NULL)
    g_signal_handlers_disconnect_by_data (self->solver, self);
  g_clear_object (&self->solver);
  g_clear_pointer (&self->fold_result, fr_result_unref);
  g_clear_pointer (&self->rays_result, fr_result_unref);

  gtk_widget_dispose_template (GTK_WIDGET (self), FR_TYPE_WINDOW);
  g_clear_object (&self->scene);
  g_clear_object (&self->fold_tool);
  g_clear_object (&self->fold);

  if (self->frame_log != NULL && self->frame_log != stderr)
    fclose (self->frame_log);
  self->frame_log = NULL;

  G_OBJECT_CLASS (fr_window_parent_class)->dispose (object);
}

static void
fr_window_class_init (FrWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_window_dispose;

  /**
   * FrWindow::settled:
   *
   * Emitted when a frame shows the newest job's result and no solve is
   * pending: the picture matches the scene.
   */
  signals[SETTLED] =
    g_signal_new ("settled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (FR_TYPE_CANVAS);
  g_type_ensure (FR_TYPE_AXES);
  g_type_ensure (FR_TYPE_EDITOR);
  g_type_ensure (FR_TYPE_SIDE_PANEL);
  g_type_ensure (FR_TYPE_FOLD_PANEL);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/foldray/Foldray/ui/fr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FrWindow, canvas);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, axes);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, editor);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, side_panel);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, side_scroll);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, fold_panel);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, backend_label);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, grid_label);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, solve_label);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, failure_bar);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, model_bar);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, autosave_bar);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, autosave_label);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, model_label);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, failure_label);
  gtk_widget_class_bind_template_child (widget_class, FrWindow, cursor_label);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-example", "s", open_example_action);
  gtk_widget_class_install_action (widget_class, "win.open-example-scene", "s",
                                   open_example_scene_action);
  gtk_widget_class_install_action (widget_class, "win.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "win.export-receivers", NULL, export_receivers_action);
  gtk_widget_class_install_action (widget_class, "win.export-times", NULL, export_times_action);
  gtk_widget_class_install_action (widget_class, "win.export-curve", "s", export_curve_action);
  gtk_widget_class_install_action (widget_class, "win.receiver-line", NULL, receiver_line_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.delete-marker", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.edit-model", "s", edit_model_action);
  gtk_widget_class_install_action (widget_class, "win.clear-markers", NULL, clear_markers_action);
  gtk_widget_class_install_action (widget_class, "win.import-receivers", NULL, import_receivers_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.fold-load-horizon", NULL, fold_load_horizon_action);
  gtk_widget_class_install_action (widget_class, "win.fold-clear-horizon", NULL, fold_clear_horizon_action);
  gtk_widget_class_install_action (widget_class, "win.fold-example", "s", fold_example_action);

  /* Delete is a window binding, not an application accelerator: those
   * run in the capture phase, before a focused text field could delete
   * a character, while bindings bubble up from the focus widget, which
   * handles the key first when it edits text. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "win.delete-marker", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "win.delete-marker", NULL);
  /* Undo and redo likewise: in a text field they undo its typing. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "win.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "win.redo", NULL);
}

static void
fr_window_init (FrWindow *self)
{
  const char *log_path = g_getenv ("FOLDRAY_DEBUG_FRAMES");

  gtk_widget_init_template (GTK_WIDGET (self));
  self->pending_exports = g_ptr_array_new_with_free_func (pending_export_free);

  if (log_path != NULL && *log_path != '\0')
    {
      if (g_str_equal (log_path, "1") || g_str_equal (log_path, "stderr"))
        self->frame_log = stderr;
      else if ((self->frame_log = g_fopen (log_path, "w")) == NULL)
        g_warning ("FOLDRAY_DEBUG_FRAMES: %s: %s", log_path, g_strerror (errno));
    }

  self->scene = fr_scene_new ();
  self->solver = fr_solver_thread_new ();

  g_signal_connect_object (self->scene, "changed", G_CALLBACK (scene_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->scene, "raster-failed", G_CALLBACK (raster_failed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (fr_scene_get_undo (self->scene), "notify::can-undo",
                           G_CALLBACK (undo_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (fr_scene_get_undo (self->scene), "notify::can-redo",
                           G_CALLBACK (undo_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->solver, "result", G_CALLBACK (solver_result_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->canvas, "frame-drawn", G_CALLBACK (frame_drawn_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->canvas, "view-changed", G_CALLBACK (view_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->canvas, "cursor-moved", G_CALLBACK (cursor_moved_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->side_panel, "solver-changed",
                           G_CALLBACK (solver_settings_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->side_panel, "display-changed",
                           G_CALLBACK (display_settings_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->side_panel, "edited",
                           G_CALLBACK (settings_edited_cb), self, G_CONNECT_SWAPPED);

  gtk_label_set_width_chars (self->cursor_label, 0);
  watch_fields (GTK_WIDGET (self->side_panel));
  watch_fields (GTK_WIDGET (self->fold_panel));
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect_object (keys, "key-pressed", G_CALLBACK (undo_key_cb), self, 0);
    gtk_widget_add_controller (GTK_WIDGET (self), keys);
  }
  fr_canvas_set_scene (self->canvas, self->scene);
  fr_editor_set_scene (self->editor, self->scene);
  fr_model_panel_set_scene (fr_side_panel_get_model_panel (self->side_panel), self->scene);
  fr_marker_panel_set_scene (fr_side_panel_get_marker_panel (self->side_panel), self->scene);
  fr_model_panel_set_editor (fr_side_panel_get_model_panel (self->side_panel), self->editor);
  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), NULL);
  self->session = fr_session_new (self);
  /* After the application has opened what it opens at start. */
  g_idle_add_full (G_PRIORITY_LOW, recovery_idle_cb, g_object_ref (self), g_object_unref);
  fold_init (self);
  {
    /* Toggles the column's visibility; the picture takes the room. */
    g_autoptr(GPropertyAction) side = g_property_action_new ("side-panel", self->side_scroll,
                                                              "visible");
    g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (side));
  }
  display_settings_changed_cb (self, self->side_panel);
  undo_state_cb (self, NULL, fr_scene_get_undo (self->scene));
  gtk_label_set_text (self->backend_label, _("Back end: —"));
  /* The keys start on the picture (arrows pan, Delete removes the
   * selected marker), not in the first text field, whose value a stray
   * digit would change. */
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->canvas));
}

/* ---------------------------------------------------------------- public API */

FrWindow *
fr_window_new (GtkApplication *application)
{
  return g_object_new (FR_TYPE_WINDOW, "application", application, NULL);
}

FrCanvas *
fr_window_get_canvas (FrWindow *self)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), NULL);
  return self->canvas;
}

FrScene *
fr_window_get_scene (FrWindow *self)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), NULL);
  return self->scene;
}

FrSidePanel *
fr_window_get_side_panel (FrWindow *self)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), NULL);
  return self->side_panel;
}

FrSolverThread *
fr_window_get_solver (FrWindow *self)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), NULL);
  return self->solver;
}

/* Replaces the model with a new document that has no scene file yet, so
 * Save asks for a name instead of overwriting the previous document's
 * file; its folds and undo histories start afresh.  The scene's "changed"
 * starts a solve.  FALSE, with the window's document as it was, when the
 * scene refuses the grid (fr_scene_load_model: too large to hold). */
gboolean
fr_window_load_model (FrWindow       *self,
                      const char     *title,
                      const fr_grid  *grid,
                      GBytes         *velocity,
                      GError        **error)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);

  if (!fr_scene_set_model (self->scene, title, grid, velocity, error))
    return FALSE;
  fr_canvas_set_result (self->canvas, NULL);
  fr_fold_state_reset (self->fold);
  /* A back end the previous scene's file asked for (and this build
   * lacks) is not this document's: the one shown is. */
  fr_side_panel_set_backend (self->side_panel, fr_side_panel_get_backend (self->side_panel));
  /* Nor is its length unit: a grid file names none. */
  fr_side_panel_set_length_unit (self->side_panel, FR_LENGTH_UNIT_NONE);
  start_fold_horizon (self);
  fr_session_reset (self->session, NULL);
  return TRUE;
}

/* What the window shows now is where its document starts (an example's
 * markers, markers from the command line): nothing to save, nothing to
 * undo. */
void
fr_window_forget_edits (FrWindow *self)
{
  g_return_if_fail (FR_IS_WINDOW (self));

  fr_undo_clear (fr_scene_get_undo (self->scene));
  fr_session_reset (self->session, fr_session_get_path (self->session));
}

/* Opens a bundled example; with_markers places its default source at the
 * top centre and its receivers (from NAME-receivers.csv when present). */
gboolean
fr_window_load_example (FrWindow    *self,
                        const char  *name,
                        gboolean     with_markers,
                        GError     **error)
{
  g_autoptr(GBytes) velocity = NULL;
  g_autofree char *title = NULL;
  g_autofree char *path = NULL;
  fr_grid grid;
  double x0, z0, x1, z1, sx, sz;

  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!fr_scene_io_load_example (name, &grid, &velocity, &title, error) ||
      !fr_window_load_model (self, title, &grid, velocity, error))
    return FALSE;
  {
    g_autofree char *example = fr_scene_io_find_example (name);

    if (example != NULL)
      fr_scene_set_background_source (self->scene, example, "npy");
  }
  if (!with_markers)
    return TRUE;

  fr_scene_begin_edit (self->scene);
  fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  fr_scene_snap (self->scene, 0.5 * (x0 + x1), grid.z0, &sx, &sz);
  fr_scene_add_marker (self->scene, FR_MARKER_SOURCE, sx, sz);

  path = fr_scene_io_find_example (name);
  if (path != NULL)
    {
      g_autofree char *base = g_str_has_suffix (path, ".npy")
                                ? g_strndup (path, strlen (path) - 4) : g_strdup (path);
      g_autofree char *csv = g_strconcat (base, "-receivers.csv", NULL);
      fr_points points = { 0 };
      fr_error err = { 0 };

      if (g_file_test (csv, G_FILE_TEST_IS_REGULAR) &&
          fr_csv_read_points (csv, &points, &err) == FR_OK && points.ndim == 2)
        {
          for (size_t i = 0; i < points.count; i++)
            fr_scene_add_marker (self->scene, FR_MARKER_RECEIVER,
                                 points.xyz[2 * i], points.xyz[2 * i + 1]);
        }
      fr_points_clear (&points);
    }
  fr_scene_select (self->scene, FR_MARKER_NONE, 0);
  fr_scene_end_edit (self->scene, _("Place Markers"));
  /* The example's own markers are where it starts, not an edit to undo
   * or to save. */
  fr_window_forget_edits (self);
  return TRUE;
}

/* Opens a velocity grid: a SEG-Y file (.sgy, .segy) or a .npy with its
 * sidecar.  spacing/origin (2 values each, may be NULL) override what the
 * file says; where nothing gives the spacing it is asked for. */
gboolean
fr_window_load_grid (FrWindow      *self,
                     const char    *path,
                     const double  *spacing,
                     const double  *origin,
                     GError       **error)
{
  g_autoptr(GBytes) velocity = NULL;
  g_autofree char *title = NULL;
  gboolean segy, found = FALSE;
  fr_grid grid;

  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  segy = fr_segy_is_segy_name (path);
  if (!fr_scene_file_read_grid (path, segy ? "segy" : "npy", &grid, &found, &velocity, error))
    return FALSE;
  if (spacing != NULL || origin != NULL)
    {
      fr_error err = { 0 };

      grid = fr_grid_2d (grid.nx, grid.nz,
                         spacing != NULL ? spacing[0] : grid.dx,
                         spacing != NULL ? spacing[1] : grid.dz,
                         origin != NULL ? origin[0] : grid.x0,
                         origin != NULL ? origin[1] : grid.z0);
      /* As a sidecar's: refused here, not by the first solve. */
      if (fr_grid_check (&grid, &err) != FR_OK ||
          fr_check_time_scale (&grid, g_bytes_get_data (velocity, NULL), TRUE, &err) != FR_OK)
        {
          g_set_error_literal (error, FR_SCENE_IO_ERROR, FR_SCENE_IO_ERROR_INVALID, err.message);
          return FALSE;
        }
      found = found || spacing != NULL;
    }

  title = g_path_get_basename (path);
  if (!found)
    {
      g_autoptr(FrModel) plain = fr_model_new (&grid, 1.0);

      /* Not a spacing asked for a grid that could not be shown. */
      plain->background = fr_background_new (NULL, "npy", &grid, velocity);
      if (!fr_model_memory_check (plain, error))
        return FALSE;
      ask_spacing (self, path, &grid, velocity);
      return TRUE;
    }
  if (!fr_window_load_model (self, title, &grid, velocity, error))
    return FALSE;
  fr_scene_set_background_source (self->scene, path, segy ? "segy" : "npy");
  return TRUE;
}

/* Opens a scene file (.json); it becomes the window's file, so Save
 * writes back to it. */
gboolean
fr_window_open_scene (FrWindow    *self,
                      const char  *path,
                      GError     **error)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return fr_session_open (self->session, path, error);
}

static void
open_file_now (FrWindow *self,
               gpointer  data)
{
  GFile *file = data;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  path = g_file_get_path (file);
  if (path == NULL)
    error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local files can be opened"));
  if (error == NULL && fr_scene_file_is_scene_name (path))
    {
      if (!fr_session_open (self->session, path, &error))
        fr_window_show_error (self, _("Could not open the scene"), error);
      return;
    }
  if (error != NULL || !fr_window_load_grid (self, path, NULL, NULL, &error))
    fr_window_show_error (self, path != NULL && fr_segy_is_segy_name (path)
                                  ? _("Could not open the SEG-Y model")
                                  : _("Could not open the velocity grid"), error);
}

/* Opens file, showing any failure in a dialog.  Unsaved edits are saved
 * or discarded first, as the user answers. */
void
fr_window_open_file (FrWindow *self,
                     GFile    *file)
{
  g_return_if_fail (FR_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  fr_session_confirm (self->session, FR_SESSION_CONFIRM_OPEN, open_file_now,
                      g_object_ref (file), g_object_unref);
}

/* Whether the picture shows the newest job's result with nothing pending. */
gboolean
fr_window_is_settled (FrWindow *self)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);
  return self->settled;
}

typedef struct
{
  char *path;
  int   scale;
} ExportData;

static void
export_data_free (gpointer data)
{
  ExportData *ed = data;

  g_free (ed->path);
  g_free (ed);
}

static void
picture_rendered_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FrWindow *self = g_task_get_source_object (task);
  ExportData *ed = g_task_get_task_data (task);
  GError *error = NULL;
  cairo_surface_t *surface;

  surface = fr_canvas_render_finish (FR_CANVAS (object), result, &error);
  if (surface == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (!fr_export_png (surface, fr_canvas_get_view (self->canvas), self->scene,
                      fr_canvas_get_colormap (self->canvas), ed->path, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
  cairo_surface_destroy (surface);
}

/* Whether the canvas's result is that of the scene as it is now: the
 * newest job's, with no solve running, deferred or asked for.  During an
 * edit the canvas keeps the previous result until the next arrives. */
static gboolean
result_is_current (FrWindow *self)
{
  FrResult *r = fr_canvas_get_result (self->canvas);

  return r != NULL && self->solve_idle_id == 0 && !self->solve_deferred &&
         !fr_solver_thread_is_busy (self->solver) &&
         r->serial == fr_solver_thread_get_latest_serial (self->solver);
}

static void
export_now (FrWindow     *self,
            GTask        *task,
            FrExportKind  kind,
            const char   *path,
            int           scale)
{
  GError *error = NULL;

  /* Checked as it is written: a waiting export may see another scene. */
  if (!fr_export_check_target (self->scene,
                               self->session != NULL ? fr_session_get_path (self->session) : NULL,
                               path, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (kind == FR_EXPORT_PICTURE)
    {
      const FrView *view = fr_canvas_get_view (self->canvas);
      ExportData *ed = g_new0 (ExportData, 1);

      ed->path = g_strdup (path);
      /* In device pixels: at a scale factor of 2 the canvas size is twice
       * its size in GTK's units (the export was half the screen's). */
      ed->scale = CLAMP (scale, 1, 8) * MAX (1, gtk_widget_get_scale_factor (GTK_WIDGET (self->canvas)));
      g_task_set_task_data (task, ed, export_data_free);
      fr_canvas_render_async (self->canvas, (int) view->width * ed->scale,
                              (int) view->height * ed->scale, g_task_get_cancellable (task),
                              picture_rendered_cb, g_object_ref (task));
      return;
    }

  if (kind == FR_EXPORT_FIGURE_SVG || kind == FR_EXPORT_FIGURE_PDF)
    {
      FrFigure fig = {
        .view = fr_canvas_get_view (self->canvas),
        .scene = self->scene,
        .colormap = fr_canvas_get_colormap (self->canvas),
        .result = fr_canvas_get_result (self->canvas),
        .interval = fr_side_panel_get_interval (self->side_panel),
        .fold = self->fold_mode ? self->fold : NULL,
      };

      if (fr_figure_write (&fig, kind == FR_EXPORT_FIGURE_SVG ? FR_FIGURE_SVG : FR_FIGURE_PDF,
                           path, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;
    }
  if (kind == FR_EXPORT_HORIZONS_CSV || kind == FR_EXPORT_HORIZONS_VTP)
    {
      if (fr_fold_result_write_horizons (fr_canvas_get_result (self->canvas),
                                         kind == FR_EXPORT_HORIZONS_VTP, path, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;
    }
  if (fr_export_result (kind, self->scene, fr_canvas_get_result (self->canvas), path, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Runs the exports that waited, once the result is the scene's own. */
static void
flush_pending_exports (FrWindow *self)
{
  g_autoptr(GPtrArray) due = NULL;

  if (self->pending_exports->len == 0 || !result_is_current (self))
    return;
  due = g_steal_pointer (&self->pending_exports);
  self->pending_exports = g_ptr_array_new_with_free_func (pending_export_free);
  for (guint i = 0; i < due->len; i++)
    {
      PendingExport *pe = g_ptr_array_index (due, i);

      export_now (self, pe->task, pe->kind, pe->path, pe->scale);
    }
}

/* Whether an export holds what the solve computes, and so waits for it:
 * all but the velocity and the receivers, which the scene holds. */
static gboolean
export_needs_solve (FrExportKind kind)
{
  return kind != FR_EXPORT_VELOCITY_NPY && kind != FR_EXPORT_VELOCITY_VTI &&
         kind != FR_EXPORT_RECEIVERS_CSV;
}

/* Writes an export to path; for the picture, scale multiplies the canvas
 * size.  Every writer is atomic.  What comes from the solve is written
 * once the solve of the scene as it is now has finished: an export during
 * a re-solve wrote the previous model's traveltimes beside the new
 * velocities, without a word. */
void
fr_window_export_async (FrWindow            *self,
                        FrExportKind         kind,
                        const char          *path,
                        int                  scale,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (FR_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, fr_window_export_async);
  if (export_needs_solve (kind) && fr_scene_has_model (self->scene) && !result_is_current (self))
    {
      PendingExport *pe = g_new0 (PendingExport, 1);

      pe->task = g_steal_pointer (&task);
      pe->kind = kind;
      pe->path = g_strdup (path);
      pe->scale = scale;
      g_ptr_array_add (self->pending_exports, pe);
      log_line (self, "export waits kind=%d", (int) kind);
      return;
    }
  export_now (self, task, kind, path, scale);
}

gboolean
fr_window_export_finish (FrWindow      *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Switches between Rays (SPR) and Folds mode; the canvas's pointer tool,
 * the side panel and the next job follow.  Folds mode starts on the
 * bundled anticline–syncline horizon while the document has none of its
 * own (start_fold_horizon). */
void
fr_window_set_fold_mode (FrWindow *self,
                         gboolean  fold_mode)
{
  GAction *action;

  g_return_if_fail (FR_IS_WINDOW (self));

  fold_mode = !!fold_mode;
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "mode");
  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action),
                               g_variant_new_string (fold_mode ? "folds" : "rays"));
  if (self->fold_mode == fold_mode)
    {
      /* A document opened in Folds mode may still need its horizon. */
      start_fold_horizon (self);
      return;
    }
  self->fold_mode = fold_mode;
  fr_canvas_set_fold_tool (self->canvas, fold_mode ? self->fold_tool : NULL);
  /* The editor's capture-phase gesture would take presses near interfaces
   * from the horizon tool. */
  if (fold_mode)
    fr_editor_set_active (self->editor, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->fold_panel), fold_mode);
  gtk_widget_set_visible (GTK_WIDGET (self->side_panel), !fold_mode);
  /* Its accelerator must not clear a hidden horizon in Rays mode; nor
   * may the model tools' (Ctrl+M, Ctrl+R, Ctrl+G) edit the model in Folds
   * mode, where the fold history is the one Undo takes back, nor an
   * import or Clear Markers change markers that Folds mode does not show;
   * nor is there an export of them there, whose "nothing to export"
   * told the user to Shift+click the model, which in Folds mode adds a
   * characteristic's point. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.fold-clear-horizon", fold_mode);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.edit-model", !fold_mode);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-receivers", !fold_mode);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.receiver-line", !fold_mode);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-markers", !fold_mode);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-receivers", !fold_mode);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-times", !fold_mode);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-curve", !fold_mode);
  start_fold_horizon (self);
  fr_canvas_set_result (self->canvas, NULL);
  gtk_label_set_text (self->solve_label, "");
  gtk_widget_set_visible (self->failure_bar, FALSE);
  undo_state_cb (self, NULL, NULL);
  request_solve (self);
}

gboolean
fr_window_get_fold_mode (FrWindow *self)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);
  return self->fold_mode;
}

FrFoldState *
fr_window_get_fold_state (FrWindow *self)
{
  g_return_val_if_fail (FR_IS_WINDOW (self), NULL);
  return self->fold;
}

/* Loads a bundled horizon (data/fold/NAME.csv) as the starting horizon,
 * fitted to the model (fr_fold_state_load_example). */
gboolean
fr_window_load_fold_example (FrWindow    *self,
                             const char  *name,
                             GError     **error)
{
  double x0 = 0.0, z0 = 0.0, x1 = 0.0, z1 = 0.0;

  g_return_val_if_fail (FR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (fr_scene_has_model (self->scene))
    fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  return fr_fold_state_load_example (self->fold, name, x0, z0, x1, z1, error);
}
