/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-receiver-line"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-model-panel.h"
#include "fr-receiver-line-dialog.h"

/* The count a line starts with where the scene's receivers are no line. */
#define DEFAULT_COUNT 48

struct _FrReceiverLineDialog
{
  GtkWindow      parent_instance;

  GtkSpinButton *first_x_spin;
  GtkSpinButton *first_z_spin;
  GtkSpinButton *last_x_spin;
  GtkSpinButton *last_z_spin;
  GtkSpinButton *count_spin;
  GtkLabel      *spacing_label;
  GtkLabel      *error_label;
  GtkLabel      *unit_label;

  FrScene       *scene;
};

G_DEFINE_FINAL_TYPE (FrReceiverLineDialog, fr_receiver_line_dialog, GTK_TYPE_WINDOW)

static void
fr_receiver_line_dialog_dispose (GObject *object)
{
  FrReceiverLineDialog *self = FR_RECEIVER_LINE_DIALOG (object);

  g_clear_object (&self->scene);
  gtk_widget_dispose_template (GTK_WIDGET (object), FR_TYPE_RECEIVER_LINE_DIALOG);

  G_OBJECT_CLASS (fr_receiver_line_dialog_parent_class)->dispose (object);
}

static void
cancel_cb (FrReceiverLineDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

/* Lays the line out and closes, or says in the window why it cannot. */
static void
lay_out_cb (FrReceiverLineDialog *self)
{
  g_autoptr(GError) error = NULL;

  GtkSpinButton *fields[] = { self->first_x_spin, self->first_z_spin, self->last_x_spin,
                              self->last_z_spin, self->count_spin };

  /* Text typed and not yet taken (no Enter, no focus change) counts. */
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    gtk_spin_button_update (fields[i]);
  if (fr_scene_lay_receiver_line (self->scene, gtk_spin_button_get_value (self->first_x_spin),
                                  gtk_spin_button_get_value (self->first_z_spin),
                                  gtk_spin_button_get_value (self->last_x_spin),
                                  gtk_spin_button_get_value (self->last_z_spin),
                                  (guint) gtk_spin_button_get_value_as_int (self->count_spin),
                                  &error))
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  gtk_label_set_text (self->error_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
}

/* A length with the scene's unit: "0.2 km", or "0.2" without one. */
static char *
format_length (FrReceiverLineDialog *self,
               double                value)
{
  const FrLengthUnit unit = fr_scene_get_length_unit (self->scene);

  return unit != FR_LENGTH_UNIT_NONE ? g_strdup_printf ("%.4g %s", value, fr_length_unit_get_id (unit))
                                     : g_strdup_printf ("%.4g", value);
}

/* Says what the fields make as they change: the receivers' spacing along
 * the line and its length (what a survey plans by). */
static void
fields_changed_cb (FrReceiverLineDialog *self)
{
  const double dx = gtk_spin_button_get_value (self->last_x_spin) - gtk_spin_button_get_value (self->first_x_spin);
  const double dz = gtk_spin_button_get_value (self->last_z_spin) - gtk_spin_button_get_value (self->first_z_spin);
  const int count = gtk_spin_button_get_value_as_int (self->count_spin);
  const double length = hypot (dx, dz);
  g_autofree char *text = NULL;

  if (self->scene == NULL)
    return;
  if (count < 2 || !(length > 0.0))
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d receiver at the first point",
                                         "%d receivers at one point", count), count);
  else
    {
      g_autofree char *spacing = format_length (self, length / (count - 1));
      g_autofree char *total = format_length (self, length);

      /* Translators: the receivers' spacing and the line's length, as
       * "One receiver every 0.05 km along a line 2.4 km long" */
      text = g_strdup_printf (_("One receiver every %s along a line %s long"), spacing, total);
    }
  gtk_label_set_text (self->spacing_label, text);
  /* For the GUI tests: what the window says. */
  g_debug ("receiver line %s", text);
}

static void
fr_receiver_line_dialog_class_init (FrReceiverLineDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_receiver_line_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/foldray/Foldray/ui/fr-receiver-line-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, first_x_spin);
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, first_z_spin);
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, last_x_spin);
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, last_z_spin);
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, count_spin);
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, spacing_label);
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, FrReceiverLineDialog, unit_label);
  gtk_widget_class_bind_template_callback (widget_class, fr_panel_significant_output);
  gtk_widget_class_bind_template_callback (widget_class, cancel_cb);
  gtk_widget_class_bind_template_callback (widget_class, lay_out_cb);
  gtk_widget_class_bind_template_callback (widget_class, fields_changed_cb);
  /* A GtkWindow, not a GtkDialog: Escape is given the dialog's meaning. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
fr_receiver_line_dialog_init (FrReceiverLineDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  GtkSpinButton *fields[] = { self->first_x_spin, self->first_z_spin, self->last_x_spin,
                              self->last_z_spin, self->count_spin };
  /* Enter in a field lays the line out, as the window's default button
   * (GTK 4.8's spin button has no activates-default of its own). */
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    gtk_text_set_activates_default (GTK_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (fields[i]))),
                                    TRUE);
}

/* A coordinate field's range: the grid's extent along its axis, a node a
 * step. */
static void
set_axis (GtkSpinButton *spin,
          double         origin,
          size_t         n,
          double         spacing,
          double         value)
{
  gtk_spin_button_set_range (spin, origin, origin + (double) (n - 1) * spacing);
  gtk_spin_button_set_increments (spin, spacing, 10.0 * spacing);
  gtk_spin_button_set_value (spin, value);
}

/* Whether the receivers r lie evenly on the straight line from the first
 * to the last, each within half a cell of its place: a line laid out
 * before, which the window then offers to change. */
static gboolean
receivers_form_line (const fr_grid *g,
                     const FrPoint *r,
                     guint          n)
{
  if (n < 2 || (r[0].x == r[n - 1].x && r[0].z == r[n - 1].z))
    return FALSE;
  for (guint k = 1; k + 1 < n; k++)
    {
      const double f = (double) k / (double) (n - 1);

      if (fabs (r[0].x + (r[n - 1].x - r[0].x) * f - r[k].x) > 0.5 * g->dx ||
          fabs (r[0].z + (r[n - 1].z - r[0].z) * f - r[k].z) > 0.5 * g->dz)
        return FALSE;
    }
  return TRUE;
}

FrReceiverLineDialog *
fr_receiver_line_dialog_new (GtkWindow *parent,
                             FrScene   *scene)
{
  FrReceiverLineDialog *self;
  const fr_grid *g;
  const FrPoint *r;
  guint n;
  FrPoint first, last;
  guint count;

  g_return_val_if_fail (FR_IS_SCENE (scene), NULL);
  g_return_val_if_fail (fr_scene_has_model (scene), NULL);

  self = g_object_new (FR_TYPE_RECEIVER_LINE_DIALOG, "transient-for", parent, NULL);
  self->scene = g_object_ref (scene);
  g = fr_scene_get_grid (scene);
  r = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n);
  if (receivers_form_line (g, r, n))
    {
      /* The line laid out before, to be changed rather than typed again. */
      first = r[0];
      last = r[n - 1];
      count = n;
    }
  else
    {
      /* Along the surface, across the model. */
      first = (FrPoint) { g->x0, g->z0 };
      last = (FrPoint) { g->x0 + (double) (g->nx - 1) * g->dx, g->z0 };
      count = (guint) MIN ((size_t) DEFAULT_COUNT, g->nx);
    }
  set_axis (self->first_x_spin, g->x0, g->nx, g->dx, first.x);
  set_axis (self->first_z_spin, g->z0, g->nz, g->dz, first.z);
  set_axis (self->last_x_spin, g->x0, g->nx, g->dx, last.x);
  set_axis (self->last_z_spin, g->z0, g->nz, g->dz, last.z);
  gtk_spin_button_set_value (self->count_spin, count);
  fields_changed_cb (self);
  if (fr_scene_get_length_unit (scene) != FR_LENGTH_UNIT_NONE)
    {
      /* Translators: %s is a length unit, such as km */
      g_autofree char *text = g_strdup_printf (_("x and z in %s"),
                                               fr_length_unit_get_id (fr_scene_get_length_unit (scene)));

      gtk_label_set_text (self->unit_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->unit_label), TRUE);
    }
  return self;
}
