/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-fold-panel"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-fold-panel.h"
#include "fr-model-panel.h"
#include "fr-spr.h"

struct _FrFoldPanel
{
  GtkWidget      parent_instance;

  GtkDropDown   *speed_dropdown;
  GtkSpinButton *speed_spin;
  GtkSpinButton *psi_x_spin;
  GtkSpinButton *psi_z_spin;
  GtkLabel      *speed_unit;
  GtkLabel      *psi_x_unit;
  GtkLabel      *psi_z_unit;
  GtkLabel      *psi_hint;
  GtkDropDown   *method_dropdown;
  GtkDropDown   *backend_dropdown;
  GtkSpinButton *delta_spin;
  GtkLabel      *delta_unit;
  GtkSpinButton *count_spin;
  GtkSwitch     *bands_switch;
  GtkLabel      *entry_message;
  GtkWidget     *export_box;
  GtkWidget     *export_csv_button;
  GtkWidget     *export_vtp_button;

  FrFoldState   *state;
  gboolean       syncing;   /* widgets being set from the state */
};

G_DEFINE_FINAL_TYPE (FrFoldPanel, fr_fold_panel, GTK_TYPE_WIDGET)

static const fr_fold_method methods[] = { FR_FOLD_LAS, FR_FOLD_SOLAS };
static const fr_fold_backend backends[] = { FR_FOLD_BACKEND_AUTO, FR_FOLD_CPU, FR_FOLD_CUDA };

/* The back ends offered: CUDA only in a build that has it. */
static guint
n_backends (FrFoldPanel *self)
{
  return MIN (g_list_model_get_n_items (gtk_drop_down_get_model (self->backend_dropdown)),
              G_N_ELEMENTS (backends));
}

/* State -> widgets. */
static void
sync_from_state (FrFoldPanel *self)
{
  double speed = 1.0, ax, az, delta, scale_speed;
  int count;
  gboolean from_grid;

  if (self->state == NULL)
    return;
  self->syncing = TRUE;
  /* The F that ψa's arrow and its limits are measured against. */
  scale_speed = fr_fold_state_get_arrow_scale_speed (self->state);
  from_grid = fr_fold_state_get_speed (self->state, &speed);
  gtk_drop_down_set_selected (self->speed_dropdown, from_grid ? 1 : 0);
  /* − and + by a tenth of F's decade, ψa's by a twentieth of the speed
   * its arrow is measured against, whatever the scale: a fixed 0.1 took
   * F 0.0005 to the field's least. */
  gtk_spin_button_set_increments (self->speed_spin, fr_panel_decade_step (speed),
                                  10.0 * fr_panel_decade_step (speed));
  gtk_spin_button_set_value (self->speed_spin, speed);
  gtk_widget_set_sensitive (GTK_WIDGET (self->speed_spin), !from_grid);
  for (guint i = 0; i < 2; i++)
    gtk_spin_button_set_increments (i == 0 ? self->psi_x_spin : self->psi_z_spin,
                                    0.05 * scale_speed, 0.25 * scale_speed);
  fr_fold_state_get_psi_a (self->state, &ax, &az);
  gtk_spin_button_set_value (self->psi_x_spin, ax);
  gtk_spin_button_set_value (self->psi_z_spin, az);
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (methods[i] == fr_fold_state_get_method (self->state))
      gtk_drop_down_set_selected (self->method_dropdown, i);
  gtk_drop_down_set_selected (self->backend_dropdown, 0);
  for (guint i = 0; i < n_backends (self); i++)
    if (backends[i] == fr_fold_state_get_backend (self->state))
      gtk_drop_down_set_selected (self->backend_dropdown, i);
  fr_fold_state_get_levels (self->state, &delta, &count);
  /* − and + by a tenth of Δ's decade, as a Spacing field: a fixed 0.01
   * took 1e-9 to 0.010000001 (helper-62). */
  gtk_spin_button_set_increments (self->delta_spin, fr_panel_decade_step (delta),
                                  10.0 * fr_panel_decade_step (delta));
  gtk_spin_button_set_value (self->delta_spin, delta);
  gtk_spin_button_set_value (self->count_spin, count);
  gtk_switch_set_active (self->bands_switch, fr_fold_state_get_bands (self->state));

  if (fr_fold_state_get_psi_clamped (self->state))
    {
      double asked_x, asked_z, asked;
      g_autofree char *text = NULL;

      fr_fold_state_get_psi_asked (self->state, &asked_x, &asked_z);
      asked = hypot (asked_x, asked_z);

      if (asked > hypot (ax, az))
        text = g_strdup_printf (_("ψa was shortened: |ψa| must stay below F (at most %.6g here). "
                                  "Your |ψa| = %.6g comes back when F allows it."),
                                fr_fold_state_get_psi_limit (self->state), asked);
      else
        text = g_strdup_printf (_("ψa was shortened: |ψa| must stay below F (at most %.6g here)"),
                                fr_fold_state_get_psi_limit (self->state));

      gtk_label_set_text (self->psi_hint, text);
      gtk_widget_set_visible (GTK_WIDGET (self->psi_hint), TRUE);
    }
  else if (hypot (ax, az) > FR_FOLD_PSI_MARGIN * scale_speed)
    {
      const double f = scale_speed;
      const double psi = hypot (ax, az);
      g_autofree char *text = NULL;

      /* A scene's ψa is solved as given up to F, as foldray-cli solves
       * it; which notes, as this says, what the first-order scheme's
       * error, growing like F / (F − |ψa|), does to the times there. */
      text = g_strdup_printf (_("|ψa| = %.6g is above 0.95 F (%.6g here): the times are about "
                                "%.0f times less accurate than without anisotropy; a shorter ψa "
                                "or a finer grid helps"),
                              psi, FR_FOLD_PSI_MARGIN * f, f / (f - psi));
      gtk_label_set_text (self->psi_hint, text);
      gtk_widget_set_visible (GTK_WIDGET (self->psi_hint), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->psi_hint), FALSE);
  self->syncing = FALSE;
}

/* The folded horizons can be exported once a horizon is drawn. */
static void
update_export (FrFoldPanel *self)
{
  guint n = 0;

  if (self->state != NULL)
    fr_fold_state_get_horizon (self->state, &n);
  gtk_widget_set_sensitive (self->export_box, n >= 2);
}

static void
state_changed_cb (FrFoldPanel *self,
                  guint        what,
                  FrFoldState *state)
{
  if (what & FR_FOLD_CHANGED_PARAMS)
    sync_from_state (self);
  update_export (self);
}

static void
speed_changed_cb (FrFoldPanel *self)
{
  double speed = 1.0;

  if (self->syncing || self->state == NULL)
    return;
  /* A field left as shown keeps F as it is (not rounded to its digits). */
  fr_fold_state_get_speed (self->state, &speed);
  speed = fr_panel_spin_value (self->speed_spin, speed);
  fr_fold_state_begin_edit (self->state);
  /* A smaller F shortens ψa (the state clamps what the solver gets and
   * the hint says so); a larger one gives back what the user asked. */
  fr_fold_state_set_speed (self->state, gtk_drop_down_get_selected (self->speed_dropdown) == 1,
                           speed);
  fr_fold_state_end_edit (self->state, _("Change Speed"));
}

static void
psi_changed_cb (FrFoldPanel *self)
{
  double ax, az, x, z;

  if (self->syncing || self->state == NULL)
    return;
  /* The fields show ψa as the state holds it (maybe shortened); a field
   * left as shown edits nothing, and keeps the ψa asked for. */
  fr_fold_state_get_psi_a (self->state, &ax, &az);
  x = fr_panel_spin_value (self->psi_x_spin, ax);
  z = fr_panel_spin_value (self->psi_z_spin, az);
  if (x == ax && z == az)
    return;
  fr_fold_state_begin_edit (self->state);
  fr_fold_state_set_psi_a (self->state, x, z);
  fr_fold_state_end_edit (self->state, _("Change ψa"));
}

static void
solver_changed_cb (FrFoldPanel *self)
{
  guint m, b;

  if (self->syncing || self->state == NULL)
    return;
  m = gtk_drop_down_get_selected (self->method_dropdown);
  b = gtk_drop_down_get_selected (self->backend_dropdown);
  fr_fold_state_begin_edit (self->state);
  fr_fold_state_set_method (self->state, m < G_N_ELEMENTS (methods) ? methods[m] : FR_FOLD_LAS);
  fr_fold_state_set_backend (self->state, b < n_backends (self) ? backends[b]
                                                                       : FR_FOLD_BACKEND_AUTO);
  fr_fold_state_end_edit (self->state, _("Change Fold Solver"));
}

static void
levels_changed_cb (FrFoldPanel *self)
{
  double delta;
  int count;

  if (self->syncing || self->state == NULL)
    return;
  fr_fold_state_get_levels (self->state, &delta, &count);
  fr_fold_state_begin_edit (self->state);
  fr_fold_state_set_levels (self->state, fr_panel_spin_value (self->delta_spin, delta),
                            (int) lround (fr_panel_spin_value (self->count_spin, count)));
  fr_fold_state_end_edit (self->state, _("Change Folded Horizons"));
}

static void
bands_changed_cb (FrFoldPanel *self)
{
  if (self->syncing || self->state == NULL)
    return;
  fr_fold_state_begin_edit (self->state);
  fr_fold_state_set_bands (self->state, gtk_switch_get_active (self->bands_switch));
  fr_fold_state_end_edit (self->state, _("Change Bands"));
}

static void
export_horizons_cb (FrFoldPanel *self,
                    GtkButton   *button)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.export", "s",
                              GTK_WIDGET (button) == self->export_vtp_button ? "horizons-vtp"
                                                                             : "horizons-csv");
}

static void
fr_fold_panel_dispose (GObject *object)
{
  FrFoldPanel *self = FR_FOLD_PANEL (object);

  g_clear_object (&self->state);
  gtk_widget_dispose_template (GTK_WIDGET (object), FR_TYPE_FOLD_PANEL);
  fr_panel_clear_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (fr_fold_panel_parent_class)->dispose (object);
}

static void
fr_fold_panel_class_init (FrFoldPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_fold_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/foldray/Foldray/ui/fr-fold-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, speed_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, speed_spin);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, psi_x_spin);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, psi_z_spin);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, speed_unit);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, psi_x_unit);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, psi_z_unit);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, psi_hint);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, method_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, backend_dropdown);
  gtk_widget_class_bind_template_callback (widget_class, fr_panel_significant_output);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, delta_spin);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, delta_unit);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, count_spin);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, bands_switch);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, entry_message);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, export_box);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, export_csv_button);
  gtk_widget_class_bind_template_child (widget_class, FrFoldPanel, export_vtp_button);
  gtk_widget_class_bind_template_callback (widget_class, speed_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, psi_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, solver_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, levels_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, bands_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_horizons_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "frfoldpanel");
}

static void
fr_fold_panel_init (FrFoldPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  fr_panel_guard_entries (GTK_WIDGET (self), self->entry_message);
  if (!fr_cuda_built ())
    gtk_string_list_remove (GTK_STRING_LIST (gtk_drop_down_get_model (self->backend_dropdown)),
                            G_N_ELEMENTS (backends) - 1);
}

/* Edits state (a reference is kept) and follows its changes. */
void
fr_fold_panel_set_state (FrFoldPanel *self,
                         FrFoldState *state)
{
  g_return_if_fail (FR_IS_FOLD_PANEL (self));
  g_return_if_fail (state == NULL || FR_IS_FOLD_STATE (state));

  if (self->state != NULL)
    g_signal_handlers_disconnect_by_data (self->state, self);
  g_set_object (&self->state, state);
  if (state != NULL)
    g_signal_connect_object (state, "changed", G_CALLBACK (state_changed_cb), self,
                             G_CONNECT_SWAPPED);
  sync_from_state (self);
  update_export (self);
}

/* Names the fields' units, under their labels: F and ψa in unit (a
 * scene's length unit) per second, Δ (a time) in seconds; no unit with
 * FR_LENGTH_UNIT_NONE.  No field moves. */
void
fr_fold_panel_set_length_unit (FrFoldPanel  *self,
                               FrLengthUnit  unit)
{
  g_autofree char *velocity = NULL;

  g_return_if_fail (FR_IS_FOLD_PANEL (self));
  g_return_if_fail (unit < FR_N_LENGTH_UNITS);

  velocity = g_strdup_printf ("%s/s", fr_length_unit_get_id (unit));
  fr_panel_show_unit (self->speed_unit, unit, velocity);
  fr_panel_show_unit (self->psi_x_unit, unit, velocity);
  fr_panel_show_unit (self->psi_z_unit, unit, velocity);
  fr_panel_show_unit (self->delta_unit, unit, "s");
}
