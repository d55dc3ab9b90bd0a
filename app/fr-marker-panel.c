/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-marker-panel"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-marker-panel.h"
#include "fr-model-panel.h"

struct _FrMarkerPanel
{
  GtkWidget      parent_instance;

  GtkLabel      *selected_label;
  GtkWidget     *fields_grid;
  GtkSpinButton *x_spin;
  GtkSpinButton *z_spin;
  GtkLabel      *x_unit;
  GtkLabel      *z_unit;
  GtkWidget     *add_source_button;
  GtkWidget     *add_receiver_button;

  FrScene       *scene;
  gboolean       syncing;   /* fields being set from the scene */
};

G_DEFINE_FINAL_TYPE (FrMarkerPanel, fr_marker_panel, GTK_TYPE_WIDGET)

/* The selected marker's position; FALSE when none is selected. */
static gboolean
selected_marker (FrMarkerPanel *self,
                 FrMarkerKind  *kind,
                 guint         *index,
                 guint         *count,
                 FrPoint       *at)
{
  const FrPoint *markers;

  if (self->scene == NULL || !fr_scene_has_model (self->scene))
    return FALSE;
  *kind = fr_scene_get_selection (self->scene, index);
  if (*kind == FR_MARKER_NONE)
    return FALSE;
  markers = fr_scene_get_markers (self->scene, *kind, count);
  if (*index >= *count)
    return FALSE;
  *at = markers[*index];
  return TRUE;
}

/* Shows value in spin, whose range is the grid's along its axis: − and +
 * step a node.  The adjustment is set rather than the spin button, which
 * ignores changes of 1e-10 or less (a grid in such units). */
static void
show_coordinate (GtkSpinButton *spin,
                 double         value,
                 double         origin,
                 size_t         n,
                 double         spacing)
{
  GtkAdjustment *adj = gtk_spin_button_get_adjustment (spin);

  fr_panel_spin_set_blank (spin, FALSE);
  gtk_spin_button_set_range (spin, origin, origin + (double) (n - 1) * spacing);
  gtk_spin_button_set_increments (spin, spacing, 10.0 * spacing);
  if (gtk_adjustment_get_value (adj) != value)
    gtk_adjustment_set_value (adj, value);
  else
    gtk_spin_button_set_value (spin, value);
}

/* Scene -> widgets. */
static void
sync_from_scene (FrMarkerPanel *self)
{
  FrMarkerKind kind;
  guint index, count;
  FrPoint at;
  gboolean has_model = self->scene != NULL && fr_scene_has_model (self->scene);

  self->syncing = TRUE;
  gtk_widget_set_sensitive (self->add_source_button, has_model);
  gtk_widget_set_sensitive (self->add_receiver_button, has_model);
  if (selected_marker (self, &kind, &index, &count, &at))
    {
      const fr_grid *g = fr_scene_get_grid (self->scene);
      g_autofree char *text =
        kind == FR_MARKER_SOURCE
          /* Translators: the selected marker, e.g. "Source 2 of 3" */
          ? g_strdup_printf (_("Source %u of %u"), index + 1, count)
          : g_strdup_printf (_("Receiver %u of %u"), index + 1, count);

      gtk_label_set_text (self->selected_label, text);
      show_coordinate (self->x_spin, at.x, g->x0, g->nx, g->dx);
      show_coordinate (self->z_spin, at.z, g->z0, g->nz, g->dz);
      gtk_widget_set_sensitive (self->fields_grid, TRUE);
    }
  else
    {
      gtk_label_set_text (self->selected_label, _("No marker selected: click one, or add one"));
      fr_panel_spin_set_blank (self->x_spin, TRUE);
      fr_panel_spin_set_blank (self->z_spin, TRUE);
      gtk_widget_set_sensitive (self->fields_grid, FALSE);
    }
  self->syncing = FALSE;
}

/* A typed position: the marker moves to the node nearest it.  Only the
 * field's own axis is read from it; the other comes from the marker. */
static void
position_changed_cb (FrMarkerPanel *self)
{
  FrMarkerKind kind;
  guint index, count;
  FrPoint at;
  double x, z;

  if (self->syncing || !selected_marker (self, &kind, &index, &count, &at))
    return;
  /* A field left as shown (rounded to its digits) moves nothing. */
  x = fr_panel_spin_value (self->x_spin, at.x);
  z = fr_panel_spin_value (self->z_spin, at.z);
  if (x == at.x && z == at.z)
    return;
  fr_scene_begin_edit (self->scene);
  fr_scene_move_marker (self->scene, kind, index, x, z);
  fr_scene_end_edit (self->scene, kind == FR_MARKER_SOURCE ? _("Move Source") : _("Move Receiver"));
  /* The node it snapped to, also where nothing moved. */
  sync_from_scene (self);
}

/* Adds a marker at the top of the grid's middle column and selects it,
 * for its position to be typed. */
static void
add_marker (FrMarkerPanel *self,
            FrMarkerKind   kind)
{
  const fr_grid *g;

  if (self->scene == NULL || !fr_scene_has_model (self->scene))
    return;
  g = fr_scene_get_grid (self->scene);
  if (fr_scene_add_marker (self->scene, kind, g->x0 + (double) ((g->nx - 1) / 2) * g->dx,
                           g->z0) >= 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->x_spin));
}

static void
add_source_cb (FrMarkerPanel *self)
{
  add_marker (self, FR_MARKER_SOURCE);
}

static void
add_receiver_cb (FrMarkerPanel *self)
{
  add_marker (self, FR_MARKER_RECEIVER);
}

static void
scene_changed_cb (FrMarkerPanel *self,
                  guint          what,
                  FrScene       *scene)
{
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SELECTION))
    sync_from_scene (self);
}

static void
fr_marker_panel_dispose (GObject *object)
{
  FrMarkerPanel *self = FR_MARKER_PANEL (object);

  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_data (self->scene, self);
  g_clear_object (&self->scene);
  gtk_widget_dispose_template (GTK_WIDGET (object), FR_TYPE_MARKER_PANEL);
  fr_panel_clear_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (fr_marker_panel_parent_class)->dispose (object);
}

static void
fr_marker_panel_class_init (FrMarkerPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_marker_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/foldray/Foldray/ui/fr-marker-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, selected_label);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, fields_grid);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, x_spin);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, z_spin);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, x_unit);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, z_unit);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, add_source_button);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, add_receiver_button);
  gtk_widget_class_bind_template_callback (widget_class, fr_panel_significant_output);
  gtk_widget_class_bind_template_callback (widget_class, position_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_source_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_receiver_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "frmarkerpanel");
}

static void
fr_marker_panel_init (FrMarkerPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sync_from_scene (self);
}

/* Edits scene (a reference is kept) and follows its selection. */
void
fr_marker_panel_set_scene (FrMarkerPanel *self,
                           FrScene       *scene)
{
  g_return_if_fail (FR_IS_MARKER_PANEL (self));
  g_return_if_fail (scene == NULL || FR_IS_SCENE (scene));

  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_data (self->scene, self);
  g_set_object (&self->scene, scene);
  if (scene != NULL)
    g_signal_connect_object (scene, "changed", G_CALLBACK (scene_changed_cb), self,
                             G_CONNECT_SWAPPED);
  sync_from_scene (self);
}

/* Names the fields' unit, under their labels, where the scene has one. */
void
fr_marker_panel_set_length_unit (FrMarkerPanel *self,
                                 FrLengthUnit   unit)
{
  g_return_if_fail (FR_IS_MARKER_PANEL (self));
  g_return_if_fail (unit < FR_N_LENGTH_UNITS);

  fr_panel_show_unit (self->x_unit, unit, fr_length_unit_get_id (unit));
  fr_panel_show_unit (self->z_unit, unit, fr_length_unit_get_id (unit));
}
