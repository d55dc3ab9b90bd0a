/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-side-panel"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-side-panel.h"

struct _FrSidePanel
{
  GtkWidget      parent_instance;

  GtkSpinButton *radius_spin;     /* along x */
  GtkSpinButton *radius_z_spin;
  GtkDropDown   *backend_dropdown;
  GtkLabel      *backend_notice;
  GtkDropDown   *unit_dropdown;
  GtkSpinButton *interval_spin;
  double         interval;       /* as set or typed, not rounded to the field's digits */
  GtkLabel      *interval_unit;
  GtkDropDown   *colormap_dropdown;
  GtkSwitch     *front_switch;
  GtkScale      *front_scale;
  GtkAdjustment *front_adjustment;
  GtkLabel      *entry_message;
  FrModelPanel  *model_panel;
  FrMarkerPanel *marker_panel;

  gboolean       applying;    /* settings set by the program, not the user */
  char          *kept_backend;  /* a scene's back end this build lacks, saved back as it was */
  /* The wavefront time asked for (scene, option or slider), drawn and
   * saved as it is; the slider shows it clamped to front_max, the latest
   * arrival of the last solve (0: none yet), which is no edit of it. */
  double         front_time;
  double         front_max;
};

G_DEFINE_FINAL_TYPE (FrSidePanel, fr_side_panel, GTK_TYPE_WIDGET)

/* The back ends in the order of the drop-down. */
static const fr_spr_backend backends[] = { FR_SPR_AUTO, FR_SPR_DIJKSTRA, FR_SPR_CPU, FR_SPR_CUDA };

enum {
  SOLVER_CHANGED,
  DISPLAY_CHANGED,
  EDITED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
display_changed (FrSidePanel *self)
{
  g_signal_emit (self, signals[DISPLAY_CHANGED], 0);
  if (!self->applying)
    g_signal_emit (self, signals[EDITED], 0);
}

static void
solver_changed (FrSidePanel *self)
{
  g_signal_emit (self, signals[SOLVER_CHANGED], 0);
  if (!self->applying)
    g_signal_emit (self, signals[EDITED], 0);
}

/* Forgets a scene's back end that this build lacks: another one was
 * chosen since. */
static void
drop_kept_backend (FrSidePanel *self)
{
  g_clear_pointer (&self->kept_backend, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->backend_notice), FALSE);
}

static void
radius_changed_cb (FrSidePanel *self)
{
  solver_changed (self);
}

static void
backend_changed_cb (FrSidePanel *self)
{
  if (!self->applying)
    drop_kept_backend (self);
  solver_changed (self);
}

/* The wavefront slider's value: as GtkScale writes it, in seconds where
 * a length unit is set. */
static char *
format_front_time (GtkScale *scale,
                   double    value,
                   gpointer  data)
{
  FrSidePanel *self = data;
  int digits = gtk_scale_get_digits (scale);

  if (fr_side_panel_get_length_unit (self) == FR_LENGTH_UNIT_NONE)
    return g_strdup_printf ("%0.*f", digits, value);
  return g_strdup_printf ("%0.*f s", digits, value);
}

/* The isochrons' and the wavefront's times are in seconds with a length
 * unit, unlabelled without. */
static void
show_time_unit (FrSidePanel *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->interval_unit),
                          fr_side_panel_get_length_unit (self) != FR_LENGTH_UNIT_NONE);
  /* Setting the function again writes the value label now. */
  gtk_scale_set_format_value_func (self->front_scale, format_front_time, self, NULL);
}

static void
unit_changed_cb (FrSidePanel *self)
{
  show_time_unit (self);
  display_changed (self);
}

static void
interval_changed_cb (FrSidePanel *self)
{
  double v = fr_panel_spin_value (self->interval_spin, self->interval);

  /* The field left as shown (0.013 for a file's 0.0125) is no edit. */
  if (v == self->interval)
    return;
  self->interval = v;
  display_changed (self);
}

static void
colormap_changed_cb (FrSidePanel *self)
{
  display_changed (self);
}

static void
front_changed_cb (FrSidePanel *self)
{
  display_changed (self);
}

static void
front_time_changed_cb (FrSidePanel *self)
{
  /* Only the user's move is a new time: not the slider's clamp. */
  if (!self->applying)
    self->front_time = gtk_adjustment_get_value (self->front_adjustment);
  display_changed (self);
}

/* Puts front_time on the slider, whose range is [0, front_max]; clamped
 * there, the time is kept.  Before a solve the range stretches to it.
 * The caller sets applying. */
static void
show_front_time (FrSidePanel *self)
{
  double upper = self->front_max;

  g_assert (self->applying);

  if (!(upper > 0.0))
    upper = MAX (gtk_adjustment_get_upper (self->front_adjustment), self->front_time);
  gtk_adjustment_configure (self->front_adjustment, MIN (self->front_time, upper), 0.0, upper,
                            upper / 100.0, upper / 10.0, 0.0);
  /* GtkScale places its value label on value-changed only: a new range
   * under the same value left the label at the knob's old place. */
  gtk_widget_queue_allocate (GTK_WIDGET (self->front_scale));
}

static void
fr_side_panel_dispose (GObject *object)
{
  FrSidePanel *self = FR_SIDE_PANEL (object);

  g_clear_pointer (&self->kept_backend, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), FR_TYPE_SIDE_PANEL);
  fr_panel_clear_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (fr_side_panel_parent_class)->dispose (object);
}

static void
fr_side_panel_class_init (FrSidePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_side_panel_dispose;

  /* Radius or back end changed: a new solve is needed. */
  signals[SOLVER_CHANGED] =
    g_signal_new ("solver-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Length unit, interval, colour map or wavefront changed: only a redraw. */
  signals[DISPLAY_CHANGED] =
    g_signal_new ("display-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* A solver or display setting changed by the user (after
   * solver-changed or display-changed): the scene, which saves them, is
   * modified.  Not for the fr_side_panel_set_*() and _load_*() calls, nor
   * for the slider a new solve's range clamps (the time is kept). */
  signals[EDITED] =
    g_signal_new ("edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (FR_TYPE_MODEL_PANEL);
  g_type_ensure (FR_TYPE_MARKER_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/foldray/Foldray/ui/fr-side-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, model_panel);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, marker_panel);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, radius_spin);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, radius_z_spin);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, backend_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, backend_notice);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, unit_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, interval_unit);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, colormap_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, front_switch);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, front_scale);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, front_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FrSidePanel, entry_message);
  gtk_widget_class_bind_template_callback (widget_class, radius_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, backend_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, unit_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, interval_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, colormap_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, front_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, front_time_changed_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "frsidepanel");
}

static void
fr_side_panel_init (FrSidePanel *self)
{
  g_autoptr(FrSceneDoc) defaults = fr_scene_doc_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* The scene file's range, wider than the template's start-up one. */
  gtk_spin_button_set_range (self->radius_spin, FR_SIDE_PANEL_RADIUS_MIN, FR_SIDE_PANEL_RADIUS_MAX);
  gtk_spin_button_set_range (self->radius_z_spin, FR_SIDE_PANEL_RADIUS_MIN, FR_SIDE_PANEL_RADIUS_MAX);
  fr_panel_guard_entries (GTK_WIDGET (self), self->entry_message);
  gtk_scale_set_format_value_func (self->front_scale, format_front_time, self, NULL);
  /* The panel starts as a scene without display settings opens. */
  fr_side_panel_load_display (self, defaults);
  /* Offer only the back ends this build has. */
  if (!fr_cuda_built ())
    gtk_string_list_remove (GTK_STRING_LIST (gtk_drop_down_get_model (self->backend_dropdown)),
                            G_N_ELEMENTS (backends) - 1);
}

static guint
n_backends (FrSidePanel *self)
{
  return MIN (g_list_model_get_n_items (gtk_drop_down_get_model (self->backend_dropdown)),
              G_N_ELEMENTS (backends));
}

GtkWidget *
fr_side_panel_new (void)
{
  return g_object_new (FR_TYPE_SIDE_PANEL, NULL);
}

FrRadius
fr_side_panel_get_radius (FrSidePanel *self)
{
  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), fr_radius_square (4));
  return (FrRadius) { gtk_spin_button_get_value_as_int (self->radius_spin),
                      gtk_spin_button_get_value_as_int (self->radius_z_spin) };
}

void
fr_side_panel_set_radius (FrSidePanel *self,
                          FrRadius     radius)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));

  self->applying = TRUE;
  gtk_spin_button_set_value (self->radius_spin, radius.x);
  gtk_spin_button_set_value (self->radius_z_spin, radius.z);
  self->applying = FALSE;
}

fr_spr_backend
fr_side_panel_get_backend (FrSidePanel *self)
{
  guint i;

  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), FR_SPR_AUTO);

  i = gtk_drop_down_get_selected (self->backend_dropdown);
  return i < n_backends (self) ? backends[i] : FR_SPR_AUTO;
}

void
fr_side_panel_set_backend (FrSidePanel    *self,
                           fr_spr_backend  backend)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));

  /* A back end this build lacks (CUDA) falls back to Automatic. */
  self->applying = TRUE;
  drop_kept_backend (self);
  gtk_drop_down_set_selected (self->backend_dropdown, 0);
  for (guint i = 0; i < n_backends (self); i++)
    if (backends[i] == backend)
      gtk_drop_down_set_selected (self->backend_dropdown, i);
  self->applying = FALSE;
}

FrLengthUnit
fr_side_panel_get_length_unit (FrSidePanel *self)
{
  guint i;

  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), FR_LENGTH_UNIT_NONE);

  i = gtk_drop_down_get_selected (self->unit_dropdown);
  return i < FR_N_LENGTH_UNITS ? (FrLengthUnit) i : FR_LENGTH_UNIT_NONE;
}

void
fr_side_panel_set_length_unit (FrSidePanel  *self,
                               FrLengthUnit  unit)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));
  g_return_if_fail (unit < FR_N_LENGTH_UNITS);

  self->applying = TRUE;
  gtk_drop_down_set_selected (self->unit_dropdown, unit);
  self->applying = FALSE;
}

double
fr_side_panel_get_interval (FrSidePanel *self)
{
  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), 0.0);
  return self->interval;
}

void
fr_side_panel_set_interval (FrSidePanel *self,
                            double       interval)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));

  self->applying = TRUE;
  /* Kept as given, and changed before the field, whose signal compares
   * and so stays quiet: say it here (a redraw, no edit). */
  self->interval = interval;
  gtk_spin_button_set_value (self->interval_spin, interval);
  display_changed (self);
  self->applying = FALSE;
}

FrColormap
fr_side_panel_get_colormap (FrSidePanel *self)
{
  guint i;

  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), FR_COLORMAP_VIRIDIS);

  i = gtk_drop_down_get_selected (self->colormap_dropdown);
  return i < FR_N_COLORMAPS ? (FrColormap) i : FR_COLORMAP_VIRIDIS;
}

void
fr_side_panel_set_colormap (FrSidePanel *self,
                            FrColormap   colormap)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));
  g_return_if_fail (colormap < FR_N_COLORMAPS);

  self->applying = TRUE;
  gtk_drop_down_set_selected (self->colormap_dropdown, colormap);
  self->applying = FALSE;
}

/* Whether the wavefront is shown, and at which time: the one asked for,
 * also past the latest arrival (all reached, nothing shaded), never the
 * slider's clamped one. */
gboolean
fr_side_panel_get_front (FrSidePanel *self,
                         double      *time)
{
  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), FALSE);

  if (time != NULL)
    *time = self->front_time;
  return gtk_switch_get_active (self->front_switch);
}

/* Shows or hides the wavefront at time. */
void
fr_side_panel_set_front (FrSidePanel *self,
                         gboolean     enabled,
                         double       time)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));

  self->applying = TRUE;
  self->front_time = MAX (time, 0.0);
  show_front_time (self);
  gtk_switch_set_active (self->front_switch, enabled);
  self->applying = FALSE;
}

/* Sets the wavefront slider's range to [0, max_time] (the latest arrival).
 * The time asked for stays as it is, shown clamped to the range. */
void
fr_side_panel_set_front_max (FrSidePanel *self,
                             double       max_time)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));

  if (!(max_time > 0.0) || !isfinite (max_time))
    return;
  self->applying = TRUE;
  self->front_max = max_time;
  show_front_time (self);
  self->applying = FALSE;
}

/* The display settings of a scene document: what was saved, else the
 * defaults (fr-scene-file.h).  Not a user edit. */
void
fr_side_panel_load_display (FrSidePanel      *self,
                            const FrSceneDoc *doc)
{
  FrColormap colormap = FR_COLORMAP_VIRIDIS;

  g_return_if_fail (FR_IS_SIDE_PANEL (self));
  g_return_if_fail (doc != NULL);

  /* The scene file has checked the name against the same list. */
  if (doc->display_colormap == NULL || !fr_colormap_from_id (doc->display_colormap, &colormap))
    colormap = FR_COLORMAP_VIRIDIS;
  fr_side_panel_set_length_unit (self, doc->length_unit);
  fr_side_panel_set_interval (self, doc->display_interval);
  fr_side_panel_set_colormap (self, colormap);
  fr_side_panel_set_front (self, doc->display_wavefront, doc->display_wavefront_time);
}

/* Writes the display settings into doc, to be saved with it; "units"
 * only where a length unit is chosen, so that a scene without one is
 * saved as before. */
void
fr_side_panel_save_display (FrSidePanel *self,
                            FrSceneDoc  *doc)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));
  g_return_if_fail (doc != NULL);

  doc->has_display = TRUE;
  doc->display_interval = fr_side_panel_get_interval (self);
  g_free (doc->display_colormap);
  doc->display_colormap = g_strdup (fr_colormap_get_id (fr_side_panel_get_colormap (self)));
  doc->display_wavefront = fr_side_panel_get_front (self, &doc->display_wavefront_time);
  doc->length_unit = fr_side_panel_get_length_unit (self);
  doc->has_units = doc->length_unit != FR_LENGTH_UNIT_NONE;
}

/* The solver settings of a scene document (radius, back end).  Not a user
 * edit.  A back end this build does not offer (a scene saved with CUDA,
 * opened without it) falls back to Automatic, says so under the
 * drop-down, and is saved back as it was unless another is chosen.
 * Returns FALSE on such a fallback. */
gboolean
fr_side_panel_load_solver (FrSidePanel      *self,
                           const FrSceneDoc *doc)
{
  fr_spr_backend backend = FR_SPR_AUTO;
  gboolean offered = FALSE;

  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), FALSE);
  g_return_val_if_fail (doc != NULL, FALSE);

  fr_side_panel_set_radius (self, doc->radius);
  if (doc->backend != NULL && fr_spr_backend_from_name (doc->backend, &backend))
    for (guint i = 0; i < n_backends (self); i++)
      offered |= backends[i] == backend;
  fr_side_panel_set_backend (self, offered ? backend : FR_SPR_AUTO);
  if (!offered && doc->backend != NULL)
    {
      self->kept_backend = g_strdup (doc->backend);
      gtk_widget_set_visible (GTK_WIDGET (self->backend_notice), TRUE);
      g_debug ("the scene's back end %s is not in this build: Automatic is used", doc->backend);
    }
  return offered;
}

/* Writes the solver settings into doc, to be saved with it. */
void
fr_side_panel_save_solver (FrSidePanel *self,
                           FrSceneDoc  *doc)
{
  g_return_if_fail (FR_IS_SIDE_PANEL (self));
  g_return_if_fail (doc != NULL);

  doc->radius = fr_side_panel_get_radius (self);
  g_free (doc->backend);
  doc->backend = g_strdup (self->kept_backend != NULL
                           ? self->kept_backend
                           : fr_spr_backend_name (fr_side_panel_get_backend (self)));
}

/* The model panel inside the side panel. */
FrModelPanel *
fr_side_panel_get_model_panel (FrSidePanel *self)
{
  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), NULL);
  return self->model_panel;
}

FrMarkerPanel *
fr_side_panel_get_marker_panel (FrSidePanel *self)
{
  g_return_val_if_fail (FR_IS_SIDE_PANEL (self), NULL);
  return self->marker_panel;
}
