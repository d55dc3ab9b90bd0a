/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-model-panel"

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "fr-model-panel.h"

struct _FrModelPanel
{
  GtkWidget        parent_instance;

  GtkToggleButton *select_button;
  GtkToggleButton *rectangle_button;
  GtkToggleButton *polygon_button;
  GtkSpinButton   *extent_x_spin;
  GtkSpinButton   *extent_z_spin;
  GtkSpinButton   *nx_spin;
  GtkSpinButton   *nz_spin;
  GtkSpinButton   *dx_spin;
  GtkSpinButton   *dz_spin;
  GtkLabel        *extent_unit;
  GtkLabel        *spacing_unit;
  GtkListBox      *layer_list;
  GtkWidget       *remove_layer_button;
  GtkWidget       *layer_grid;
  GtkSpinButton   *v_top_spin;
  GtkSpinButton   *dvdz_spin;
  GtkSpinButton   *dvdx_spin;
  GtkLabel        *v_top_unit;
  GtkLabel        *dvdz_unit;
  GtkLabel        *dvdx_unit;
  GtkWidget       *obstacle_grid;
  GtkDropDown     *obstacle_kind_dropdown;
  GListModel      *obstacle_kinds;   /* the drop-down's own: Impermeable, Slow */
  GListModel      *obstacle_blank;   /* "—" alone, while no obstacle is selected */
  char            *v_top_tooltip;    /* the template's, while no layer is selected */
  char            *dvdx_tooltip;
  GtkSpinButton   *obstacle_velocity_spin;
  GtkLabel        *obstacle_velocity_unit;
  GtkLabel        *entry_message;

  FrScene         *scene;
  FrEditor        *editor;
  int              layer;      /* selected in the list, or -1 */
  guint            layers_seen; /* the model's layers when last shown */
  int              obstacle;   /* selected on the canvas, or -1 */
  gboolean         syncing;    /* widgets being set from the model */
  gboolean         editing;    /* our own edit of the scene under way */
};

G_DEFINE_FINAL_TYPE (FrModelPanel, fr_model_panel, GTK_TYPE_WIDGET)

static const FrModel *
model_of (FrModelPanel *self)
{
  return self->scene != NULL ? fr_scene_get_model (self->scene) : NULL;
}

static void
report (FrModelPanel *self,
        GError       *error)
{
  /* The scene rolled the edit back (the caller shows the model as it
   * is): say why under the panel, where the user looks. */
  if (error == NULL)
    return;
  gtk_label_set_text (self->entry_message, error->message);
  gtk_widget_remove_css_class (GTK_WIDGET (self->entry_message), "warning");
  gtk_widget_add_css_class (GTK_WIDGET (self->entry_message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->entry_message), TRUE);
  g_object_set_data (G_OBJECT (self->entry_message), "fr-panel-spin", NULL);
}

/* Takes back the panel's message and its fields' red or orange: they
 * spoke of a value no longer shown (undo, another layer or model). */
static void
clear_messages (FrModelPanel *self)
{
  fr_panel_clear_messages (GTK_WIDGET (self), self->entry_message);
}

/* The tool buttons show the editor's tool, whatever switched it; none is
 * pressed while editing is off. */
static void
sync_tool (FrModelPanel *self)
{
  gboolean active = self->editor != NULL && fr_editor_get_active (self->editor);
  FrEditorTool tool = self->editor != NULL ? fr_editor_get_tool (self->editor)
                                           : FR_EDITOR_TOOL_SELECT;

  /* Pressing one releases the others of the group; releasing one presses
   * none, so all three are up while editing is off. */
  gtk_toggle_button_set_active (self->select_button, active && tool == FR_EDITOR_TOOL_SELECT);
  gtk_toggle_button_set_active (self->rectangle_button, active && tool == FR_EDITOR_TOOL_RECTANGLE);
  gtk_toggle_button_set_active (self->polygon_button, active && tool == FR_EDITOR_TOOL_POLYGON);
}

static char *
layer_title (guint          index,
             const FrLayer *l)
{
  /* Translators: a row of the layer list: its number and velocity at the top */
  /* Six digits: 2350.25 m/s reads 2350.25, and 1500 reads 1500, not 1.5e+03. */
  return g_strdup_printf (_("Layer %u: v = %.6g"), index + 1, l->v_top);
}

/* Significant digits of the Extent and Spacing fields: more than anyone
 * types, fewer than the rounding of (n − 1)·d shows. */
#define GRID_DIGITS 10
/* The characters such a field shows whole beside its − and + buttons. */
#define GRID_FIELD_CHARS 6

/* Drops the trailing zeros of buf's decimals, and the decimal separator
 * where none are left. */
static void
strip_zeros (char *buf)
{
  const char *point = localeconv ()->decimal_point;
  gsize len = strlen (buf), n_point;

  if (point == NULL || *point == '\0' || strstr (buf, point) == NULL)
    return;
  n_point = strlen (point);
  while (len > 0 && buf[len - 1] == '0')
    buf[--len] = '\0';
  if (len >= n_point && strcmp (buf + len - n_point, point) == 0)
    buf[len - n_point] = '\0';
}

/* value as an Extent or Spacing field shows it, to GRID_DIGITS significant
 * digits without trailing zeros, in the locale's notation: fixed (0.0015,
 * 3000) where that fits the field or is the shorter, else with an exponent
 * (1e-5, 1.5e6), which the fields' input reads back.  A scene may hold
 * any spacing from the smallest positive double up to FR_GRID_MAX_EXTENT:
 * a fixed number of decimals cannot show them all, and a field cut off
 * after "0.0000" would read as zero. */
static void
format_grid_value (double  value,
                   char   *buf,
                   gsize   size)
{
  char fixed[64] = "", mantissa[64], sci[80], *e;
  double a = fabs (value);
  int decimals;

  if (a == 0.0 || !isfinite (a))
    {
      g_snprintf (buf, size, "%g", value);
      return;
    }
  if (a >= 1e-6 && a < 1e15)
    {
      decimals = CLAMP (GRID_DIGITS - 1 - (int) floor (log10 (a)), 0, 20);
      g_snprintf (fixed, sizeof fixed, "%.*f", decimals, value);
      strip_zeros (fixed);
    }
  g_snprintf (mantissa, sizeof mantissa, "%.*e", GRID_DIGITS - 1, value);
  e = strchr (mantissa, 'e');
  g_assert (e != NULL);
  *e = '\0';
  strip_zeros (mantissa);
  g_snprintf (sci, sizeof sci, "%se%d", mantissa, atoi (e + 1));
  if (*fixed != '\0' && (strlen (fixed) <= GRID_FIELD_CHARS || strlen (fixed) <= strlen (sci)))
    g_strlcpy (buf, fixed, size);
  else
    g_strlcpy (buf, sci, size);
}

/* value as a grid field shows it (format_grid_value), for what shows the
 * same numbers outside a field: the marker list beside the marker's own. */
void
fr_panel_format_value (double  value,
                       char   *buf,
                       gsize   size)
{
  g_return_if_fail (buf != NULL && size > 0);
  format_grid_value (value, buf, size);
}

/* GtkSpinButton::output of the Extent and Spacing fields and the fold's
 * Δ (see format_grid_value): GtkSpinButton's fixed decimals would show
 * 1e-5 as 0.0000 and cut a metre-scale 3000.000 off in a narrow field. */
gboolean
fr_panel_significant_output (GtkSpinButton *spin,
                gpointer       user_data)
{
  char text[64];

  /* fr_panel_spin_value compares values as this shows them. */
  g_object_set_data (G_OBJECT (spin), "fr-panel-significant", GINT_TO_POINTER (1));
  /* A blank field (fr_panel_spin_set_blank) shows its placeholder: this
   * handler, the template's, runs before the blank one and wrote "0" in
   * the marker fields until a selection was first cleared. */
  if (g_object_get_data (G_OBJECT (spin), "fr-panel-blank") != NULL)
    {
      if (*gtk_editable_get_text (GTK_EDITABLE (spin)) != '\0')
        gtk_editable_set_text (GTK_EDITABLE (spin), "");
      return TRUE;
    }
  format_grid_value (gtk_adjustment_get_value (gtk_spin_button_get_adjustment (spin)),
                     text, sizeof text);
  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

/* Shows value in a grid field exactly: GtkSpinButton's own setter ignores
 * a change of 1e-10 or less, at a spacing of 1e-12 the whole value, so the
 * adjustment is set instead.  The − and + buttons step by a tenth of the
 * spacing's decade (Spacing) or one cell (Extent), whatever the scale;
 * GtkSpinButton ignores steps and typed changes of 1e-10 or less all the
 * same, so below a spacing of about 1e-9 they do nothing. */
static void
show_grid_value (GtkSpinButton *spin,
                 double         value,
                 double         step)
{
  GtkAdjustment *adj = gtk_spin_button_get_adjustment (spin);

  if (step > 0.0 && isfinite (step))
    gtk_spin_button_set_increments (spin, step, 10.0 * step);
  if (gtk_adjustment_get_value (adj) != value)
    gtk_adjustment_set_value (adj, value);
  else
    /* The same value: only its text written again (a refused edit). */
    gtk_spin_button_set_value (spin, value);
}

/* A tenth of the decade of d: 0.001 for 0.01 to 0.099, 1e-6 for 1e-5
 * (whose log10 may round below −5).  The − and + step of a Spacing field
 * and of the fold's Δ. */
double
fr_panel_decade_step (double d)
{
  return pow (10.0, floor (log10 (d) + 1e-9) - 1.0);
}

/* Shows value in spin, also where the blank field already held it. */
static void
show_value (GtkSpinButton *spin,
            double         value)
{
  fr_panel_spin_set_blank (spin, FALSE);
  gtk_spin_button_set_value (spin, value);
}

/* The selected layer's reference x in the tooltips of its velocity and
 * lateral gradient: where "Velocity at top" holds, and dv/dx counts from. */
static void
show_reference_x (FrModelPanel  *self,
                  const FrLayer *l)
{
  g_autofree char *v_top = NULL, *dvdx = NULL;

  v_top = g_strdup_printf (_("The velocity just below the layer's interface at x = %.9g; inside the "
                             "layer v = v_top + dv/dz·(z − interface) + dv/dx·(x − %.9g)"),
                           l->x_ref, l->x_ref);
  dvdx = g_strdup_printf (_("Lateral velocity gradient: v changes by dv/dx·(x − %.9g)"), l->x_ref);
  fr_panel_set_tooltip (self->v_top_spin, v_top);
  fr_panel_set_tooltip (self->dvdx_spin, dvdx);
}

/* Model -> widgets.  A field that edits nothing (no layer or obstacle
 * selected) shows nothing rather than what it last showed. */
static void
sync_from_model (FrModelPanel *self)
{
  const FrModel *m = model_of (self);
  guint n_rows = 0;
  GtkWidget *child;
  double width, depth;

  self->syncing = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self), m != NULL);
  if (m == NULL)
    {
      self->syncing = FALSE;
      return;
    }

  fr_model_grid_extent (&m->grid, &width, &depth);
  show_grid_value (self->extent_x_spin, width, m->grid.dx);
  show_grid_value (self->extent_z_spin, depth, m->grid.dz);
  /* Edits need 2 nodes an axis, so − stops there; a loaded grid one node
   * wide still shows its 1. */
  gtk_adjustment_set_lower (gtk_spin_button_get_adjustment (self->nx_spin), MIN (2.0, m->grid.nx));
  gtk_adjustment_set_lower (gtk_spin_button_get_adjustment (self->nz_spin), MIN (2.0, m->grid.nz));
  show_grid_value (self->nx_spin, m->grid.nx, 0.0);
  show_grid_value (self->nz_spin, m->grid.nz, 0.0);
  show_grid_value (self->dx_spin, m->grid.dx, fr_panel_decade_step (m->grid.dx));
  show_grid_value (self->dz_spin, m->grid.dz, fr_panel_decade_step (m->grid.dz));

  /* Rows are rebuilt only when the number of layers changes. */
  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->layer_list)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n_rows++;
  if (n_rows != m->layers->len)
    {
      while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->layer_list))) != NULL)
        gtk_list_box_remove (self->layer_list, child);
      for (guint i = 0; i < m->layers->len; i++)
        {
          GtkWidget *label = gtk_label_new (NULL);

          gtk_label_set_xalign (GTK_LABEL (label), 0.0);
          gtk_widget_set_margin_start (label, 6);
          gtk_widget_set_margin_top (label, 3);
          gtk_widget_set_margin_bottom (label, 3);
          gtk_list_box_append (self->layer_list, label);
        }
    }
  for (guint i = 0; i < m->layers->len; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->layer_list, i);
      g_autofree char *text = layer_title (i, g_ptr_array_index (m->layers, i));

      gtk_label_set_text (GTK_LABEL (gtk_list_box_row_get_child (row)), text);
    }

  /* A layer that is gone (removed, or taken away by undo) leaves nothing
   * selected rather than passing the selection to a neighbour. */
  if (self->layer >= (int) m->layers->len)
    self->layer = -1;
  self->layers_seen = m->layers->len;
  if (self->layer >= 0)
    {
      const FrLayer *l = g_ptr_array_index (m->layers, self->layer);

      gtk_list_box_select_row (self->layer_list,
                               gtk_list_box_get_row_at_index (self->layer_list, self->layer));
      show_value (self->v_top_spin, l->v_top);
      show_value (self->dvdz_spin, l->dvdz);
      show_value (self->dvdx_spin, l->dvdx);
      show_reference_x (self, l);
    }
  else
    {
      gtk_list_box_unselect_all (self->layer_list);
      fr_panel_spin_set_blank (self->v_top_spin, TRUE);
      fr_panel_spin_set_blank (self->dvdz_spin, TRUE);
      fr_panel_spin_set_blank (self->dvdx_spin, TRUE);
      fr_panel_set_tooltip (self->v_top_spin, self->v_top_tooltip);
      fr_panel_set_tooltip (self->dvdx_spin, self->dvdx_tooltip);
    }
  gtk_widget_set_sensitive (self->layer_grid, self->layer >= 0);
  gtk_widget_set_sensitive (self->remove_layer_button, self->layer >= 0);

  if (self->obstacle >= (int) m->obstacles->len)
    self->obstacle = -1;
  if (self->obstacle >= 0)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, self->obstacle);

      if (gtk_drop_down_get_model (self->obstacle_kind_dropdown) != self->obstacle_kinds)
        gtk_drop_down_set_model (self->obstacle_kind_dropdown, self->obstacle_kinds);
      gtk_drop_down_set_selected (self->obstacle_kind_dropdown, o->velocity > 0.0 ? 1 : 0);
      /* An impermeable obstacle has no velocity to show. */
      if (o->velocity > 0.0)
        show_value (self->obstacle_velocity_spin, o->velocity);
      else
        fr_panel_spin_set_blank (self->obstacle_velocity_spin, TRUE);
    }
  else
    {
      /* Blank as the fields beside it are: with no item selected the
       * drop-down showed GTK's own "(None)", untranslated in some locales. */
      gtk_drop_down_set_model (self->obstacle_kind_dropdown, self->obstacle_blank);
      gtk_drop_down_set_selected (self->obstacle_kind_dropdown, 0);
      fr_panel_spin_set_blank (self->obstacle_velocity_spin, TRUE);
    }
  gtk_widget_set_sensitive (self->obstacle_grid, self->obstacle >= 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->obstacle_velocity_spin),
                            gtk_drop_down_get_selected (self->obstacle_kind_dropdown) == 1);
  self->syncing = FALSE;
}

/* ------------------------------------------------------------- callbacks */

/* The value of a grid field, or the model's own where the field still
 * shows it: a field the focus leaves writes back the value as shown
 * (rounded to GRID_DIGITS), which is no edit of that axis. */
static double
grid_field (GtkSpinButton *spin,
            double         model_value)
{
  double v = gtk_spin_button_get_value (spin);
  char shown[64], model[64];

  format_grid_value (v, shown, sizeof shown);
  format_grid_value (model_value, model, sizeof model);
  return v == model_value || strcmp (shown, model) == 0 ? model_value : v;
}

static void
grid_edit_done (FrModelPanel *self,
                gboolean      ok,
                GError       *error)
{
  /* Refused, or rounded to whole cells: show the grid as it is. */
  if (!ok)
    report (self, error);
  sync_from_model (self);
}

/* Extent: the model grows or shrinks at the same spacing.  Only the axis
 * of the field that changed is read from it; the other comes from the
 * model, never from what its own field may show. */
static void
extent_changed_cb (FrModelPanel  *self,
                   GtkSpinButton *spin)
{
  const FrModel *m = model_of (self);
  g_autoptr(GError) error = NULL;
  double width, depth;
  gboolean ok;

  if (self->syncing || m == NULL)
    return;
  fr_model_grid_extent (&m->grid, &width, &depth);
  if (spin == self->extent_x_spin)
    width = grid_field (spin, width);
  else
    depth = grid_field (spin, depth);
  self->editing = TRUE;
  ok = fr_scene_set_extent (self->scene, width, depth, &error);
  self->editing = FALSE;
  grid_edit_done (self, ok, error);
}

/* Nodes: the same extent, refined or coarsened, along the field's axis. */
static void
nodes_changed_cb (FrModelPanel  *self,
                  GtkSpinButton *spin)
{
  const FrModel *m = model_of (self);
  g_autoptr(GError) error = NULL;
  guint nx, nz;
  gboolean ok;

  if (self->syncing || m == NULL)
    return;
  nx = (guint) m->grid.nx;
  nz = (guint) m->grid.nz;
  if (spin == self->nx_spin)
    nx = (guint) gtk_spin_button_get_value_as_int (spin);
  else
    nz = (guint) gtk_spin_button_get_value_as_int (spin);
  self->editing = TRUE;
  ok = fr_scene_set_nodes (self->scene, nx, nz, &error);
  self->editing = FALSE;
  grid_edit_done (self, ok, error);
}

/* Spacing: the same extent to whole cells, so the node count of the
 * field's axis follows. */
static void
spacing_changed_cb (FrModelPanel  *self,
                    GtkSpinButton *spin)
{
  const FrModel *m = model_of (self);
  g_autoptr(GError) error = NULL;
  double dx, dz;
  gboolean ok;

  if (self->syncing || m == NULL)
    return;
  dx = m->grid.dx;
  dz = m->grid.dz;
  if (spin == self->dx_spin)
    dx = grid_field (spin, dx);
  else
    dz = grid_field (spin, dz);
  self->editing = TRUE;
  ok = fr_scene_set_spacing (self->scene, dx, dz, &error);
  self->editing = FALSE;
  grid_edit_done (self, ok, error);
}

static void
layer_selected_cb (FrModelPanel  *self,
                   GtkListBoxRow *row)
{
  if (self->syncing)
    return;
  self->layer = row != NULL ? gtk_list_box_row_get_index (row) : -1;
  clear_messages (self);
  sync_from_model (self);
}

static void
layer_changed_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;
  const FrLayer *l;
  double v_top, dvdz, dvdx;
  gboolean ok;

  if (self->syncing || model_of (self) == NULL || self->layer < 0)
    return;
  l = g_ptr_array_index (model_of (self)->layers, self->layer);
  v_top = fr_panel_spin_value (self->v_top_spin, l->v_top);
  dvdz = fr_panel_spin_value (self->dvdz_spin, l->dvdz);
  dvdx = fr_panel_spin_value (self->dvdx_spin, l->dvdx);
  if (v_top == l->v_top && dvdz == l->dvdz && dvdx == l->dvdx)
    return;
  self->editing = TRUE;
  ok = fr_scene_set_layer_velocity (self->scene, (guint) self->layer, v_top, dvdz, dvdx, &error);
  self->editing = FALSE;
  if (!ok)
    {
      report (self, error);
      sync_from_model (self);
    }
}

static void
add_layer_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;

  if (model_of (self) == NULL)
    return;
  /* The new layer is shown: no message of the one before. */
  clear_messages (self);
  self->editing = TRUE;
  if (fr_scene_add_layer (self->scene, &error))
    self->layer = (int) model_of (self)->layers->len - 1;
  else
    report (self, error);
  self->editing = FALSE;
  sync_from_model (self);
}

static void
remove_layer_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;

  if (model_of (self) == NULL || self->layer < 0)
    return;
  clear_messages (self);
  self->editing = TRUE;
  if (fr_scene_remove_layer (self->scene, (guint) self->layer, &error))
    self->layer = -1;
  else
    report (self, error);
  self->editing = FALSE;
  sync_from_model (self);
}

static void
obstacle_changed_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;
  gboolean slow, ok;

  if (self->syncing || model_of (self) == NULL || self->obstacle < 0)
    return;
  slow = gtk_drop_down_get_selected (self->obstacle_kind_dropdown) == 1;
  /* Turned slow, the obstacle takes the velocity the field now shows. */
  fr_panel_spin_set_blank (self->obstacle_velocity_spin, !slow);
  gtk_widget_set_sensitive (GTK_WIDGET (self->obstacle_velocity_spin), slow);
  self->editing = TRUE;
  ok = fr_scene_set_obstacle_velocity (self->scene, (guint) self->obstacle,
                                       slow ? gtk_spin_button_get_value (self->obstacle_velocity_spin) : 0.0,
                                       &error);
  self->editing = FALSE;
  if (!ok)
    {
      report (self, error);
      sync_from_model (self);
    }
}

static void
scene_changed_cb (FrModelPanel *self,
                  guint         what,
                  FrScene      *scene)
{
  if (!(what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_VELOCITY)))
    return;
  /* Changed from elsewhere (undo, redo, the canvas, a file): the fields
   * show other values than the ones the messages were about.  Our own
   * edit keeps what it just reported (a value clamped). */
  if (!self->editing)
    clear_messages (self);
  /* The selection is an index: once another model, or layers added or
   * taken away from elsewhere (undo), it would pass to another layer. */
  if (!self->editing && model_of (self) != NULL &&
      ((what & FR_SCENE_CHANGED_MODEL) || model_of (self)->layers->len != self->layers_seen))
    self->layer = -1;
  sync_from_model (self);
}

static void
editor_selection_cb (FrModelPanel *self,
                     FrEditor     *editor)
{
  int layer = fr_editor_get_selected_layer (editor);
  int obstacle = fr_editor_get_selected_obstacle (editor);

  if ((layer >= 0 && layer != self->layer) || obstacle != self->obstacle)
    clear_messages (self);
  if (layer >= 0)
    self->layer = layer;
  self->obstacle = obstacle;
  sync_from_model (self);
}

static void
editor_tool_cb (FrModelPanel *self,
                GParamSpec   *pspec,
                FrEditor     *editor)
{
  sync_tool (self);
}

static void
editor_active_cb (FrModelPanel *self,
                  GParamSpec   *pspec,
                  FrEditor     *editor)
{
  /* Leaving edit mode leaves its messages behind. */
  if (!fr_editor_get_active (editor))
    clear_messages (self);
  sync_tool (self);
}

/* ------------------------------------------------------------- GObject */

static void
fr_model_panel_dispose (GObject *object)
{
  FrModelPanel *self = (FrModelPanel *)object;

  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_data (self->scene, self);
  if (self->editor != NULL)
    g_signal_handlers_disconnect_by_data (self->editor, self);
  g_clear_object (&self->scene);
  g_clear_object (&self->editor);
  g_clear_object (&self->obstacle_kinds);
  g_clear_object (&self->obstacle_blank);
  g_clear_pointer (&self->v_top_tooltip, g_free);
  g_clear_pointer (&self->dvdx_tooltip, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), FR_TYPE_MODEL_PANEL);
  fr_panel_clear_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (fr_model_panel_parent_class)->dispose (object);
}

static void
fr_model_panel_class_init (FrModelPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_model_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/foldray/Foldray/ui/fr-model-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, select_button);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, rectangle_button);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, polygon_button);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, extent_x_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, extent_z_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, nx_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, nz_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dx_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dz_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, extent_unit);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, spacing_unit);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, layer_list);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, remove_layer_button);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, layer_grid);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, v_top_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dvdz_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dvdx_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, v_top_unit);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dvdz_unit);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dvdx_unit);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, obstacle_grid);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, obstacle_kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, obstacle_velocity_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, obstacle_velocity_unit);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, entry_message);
  gtk_widget_class_bind_template_callback (widget_class, extent_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, nodes_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, spacing_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, fr_panel_significant_output);
  gtk_widget_class_bind_template_callback (widget_class, layer_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, layer_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_layer_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_layer_cb);
  gtk_widget_class_bind_template_callback (widget_class, obstacle_changed_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "frmodelpanel");
}

static void
fr_model_panel_init (FrModelPanel *self)
{
  self->layer = -1;
  self->obstacle = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->obstacle_kinds = g_object_ref (gtk_drop_down_get_model (self->obstacle_kind_dropdown));
  self->obstacle_blank = G_LIST_MODEL (gtk_string_list_new ((const char *[]) { "—", NULL }));
  self->v_top_tooltip = g_strdup (gtk_widget_get_tooltip_text (GTK_WIDGET (self->v_top_spin)));
  self->dvdx_tooltip = g_strdup (gtk_widget_get_tooltip_text (GTK_WIDGET (self->dvdx_spin)));
  fr_panel_guard_entries (GTK_WIDGET (self), self->entry_message);
  sync_from_model (self);
}

/* ------------------------------------------------------------- public API */

/* The scene whose model the panel shows and edits. */
void
fr_model_panel_set_scene (FrModelPanel *self,
                          FrScene      *scene)
{
  g_return_if_fail (FR_IS_MODEL_PANEL (self));
  g_return_if_fail (scene == NULL || FR_IS_SCENE (scene));

  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_data (self->scene, self);
  g_set_object (&self->scene, scene);
  if (scene != NULL)
    g_signal_connect_object (scene, "changed", G_CALLBACK (scene_changed_cb), self, G_CONNECT_SWAPPED);
  self->layer = -1;
  self->obstacle = -1;
  clear_messages (self);
  sync_from_model (self);
}

/* The editor whose selection (a node's layer, an obstacle) and tool the
 * panel follows. */
void
fr_model_panel_set_editor (FrModelPanel *self,
                           FrEditor     *editor)
{
  g_return_if_fail (FR_IS_MODEL_PANEL (self));
  g_return_if_fail (editor == NULL || FR_IS_EDITOR (editor));

  if (self->editor != NULL)
    g_signal_handlers_disconnect_by_data (self->editor, self);
  g_set_object (&self->editor, editor);
  if (editor != NULL)
    {
      g_signal_connect_object (editor, "selection-changed", G_CALLBACK (editor_selection_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (editor, "notify::tool", G_CALLBACK (editor_tool_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (editor, "notify::active", G_CALLBACK (editor_active_cb), self,
                               G_CONNECT_SWAPPED);
    }
  sync_tool (self);
}

/* Names the fields' units, under their labels: lengths in unit (a scene's
 * length unit), velocities in unit per second, gradients per second; no
 * unit with FR_LENGTH_UNIT_NONE.  No field moves. */
void
fr_model_panel_set_length_unit (FrModelPanel *self,
                                FrLengthUnit  unit)
{
  g_autofree char *velocity = NULL;
  const char *length;

  g_return_if_fail (FR_IS_MODEL_PANEL (self));
  g_return_if_fail (unit < FR_N_LENGTH_UNITS);

  length = fr_length_unit_get_id (unit);
  velocity = g_strdup_printf ("%s/s", length);
  fr_panel_show_unit (self->extent_unit, unit, length);
  fr_panel_show_unit (self->spacing_unit, unit, length);
  fr_panel_show_unit (self->v_top_unit, unit, velocity);
  fr_panel_show_unit (self->dvdz_unit, unit, "1/s");
  fr_panel_show_unit (self->dvdx_unit, unit, "1/s");
  fr_panel_show_unit (self->obstacle_velocity_unit, unit, velocity);
}

/* ------------------------------------------------------------- panel helpers */

/* Shows text, a field's unit, in label where the scene has a length unit;
 * hides label without one. */
void
fr_panel_show_unit (GtkLabel     *label,
                    FrLengthUnit  unit,
                    const char   *text)
{
  g_return_if_fail (GTK_IS_LABEL (label));
  g_return_if_fail (text != NULL);

  gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), unit != FR_LENGTH_UNIT_NONE);
}

/* Parses text as a number in [lower, upper].  FALSE with why set when it
 * is no number; TRUE with value clamped, and why saying so, when it is out
 * of range; TRUE with why NULL when it is fine. */
gboolean
fr_panel_parse_number (const char  *text,
                       double       lower,
                       double       upper,
                       double      *value,
                       char       **why)
{
  g_autofree char *s = NULL;
  char *end = NULL;
  double v;

  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (why != NULL, FALSE);

  *why = NULL;
  s = g_strstrip (g_strdup (text != NULL ? text : ""));
  /* The locale's decimal separator, like GtkSpinButton's own parser. */
  v = g_strtod (s, &end);
  if (*s == '\0' || end == s || *end != '\0' || !isfinite (v))
    {
      /* Translators: an invalid number typed in a panel entry. */
      *why = g_strdup_printf (_("“%s” is not a number; the previous value is kept"), s);
      return FALSE;
    }
  if (v < lower || v > upper)
    {
      double clamped = CLAMP (v, lower, upper);
      char typed[64], low[64], high[64], set[64];

      /* As the fields show numbers: 1e-9, not %g's 1e-09. */
      format_grid_value (v, typed, sizeof typed);
      format_grid_value (lower, low, sizeof low);
      format_grid_value (upper, high, sizeof high);
      format_grid_value (clamped, set, sizeof set);
      /* Translators: a number typed outside its allowed range; the four
       * are numbers. */
      *why = g_strdup_printf (_("%s is outside the allowed range %s to %s; set to %s"),
                              typed, low, high, set);
      v = clamped;
    }
  *value = v;
  return TRUE;
}

/* Sets spin's own tooltip (on a guarded entry, the one a refusal's words
 * stand in for while they show, and that comes back after). */
void
fr_panel_set_tooltip (GtkSpinButton *spin,
                      const char    *text)
{
  g_return_if_fail (GTK_IS_SPIN_BUTTON (spin));

  g_object_set_data_full (G_OBJECT (spin), "fr-panel-tooltip", g_strdup (text), g_free);
  if (!gtk_widget_has_css_class (GTK_WIDGET (spin), "error") &&
      !gtk_widget_has_css_class (GTK_WIDGET (spin), "warning"))
    gtk_widget_set_tooltip_text (GTK_WIDGET (spin), text);
}

static void
show_entry_message (GtkSpinButton *spin,
                    const char    *why,
                    gboolean       error)
{
  GtkLabel *message = g_object_get_data (G_OBJECT (spin), "fr-panel-message");
  const char *tooltip = g_object_get_data (G_OBJECT (spin), "fr-panel-tooltip");

  if (why == NULL)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (spin), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (spin), "warning");
      gtk_widget_set_tooltip_text (GTK_WIDGET (spin), tooltip);
      if (message != NULL && g_object_get_data (G_OBJECT (message), "fr-panel-spin") == spin)
        {
          gtk_widget_set_visible (GTK_WIDGET (message), FALSE);
          g_object_set_data (G_OBJECT (message), "fr-panel-spin", NULL);
        }
      return;
    }
  gtk_widget_add_css_class (GTK_WIDGET (spin), error ? "error" : "warning");
  gtk_widget_remove_css_class (GTK_WIDGET (spin), error ? "warning" : "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin), why);
  if (message != NULL)
    {
      gtk_label_set_text (message, why);
      gtk_widget_remove_css_class (GTK_WIDGET (message), error ? "warning" : "error");
      gtk_widget_add_css_class (GTK_WIDGET (message), error ? "error" : "warning");
      gtk_widget_set_visible (GTK_WIDGET (message), TRUE);
      g_object_set_data (G_OBJECT (message), "fr-panel-spin", spin);
    }
}

static void
clear_spin_messages (GtkWidget *widget,
                     GtkLabel  *message)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_SPIN_BUTTON (child))
        {
          if (g_object_get_data (G_OBJECT (child), "fr-panel-message") == message)
            show_entry_message (GTK_SPIN_BUTTON (child), NULL, FALSE);
        }
      else
        clear_spin_messages (child, message);
    }
}

/* Takes back what panel's guarded entries and message say about values
 * typed before (fr_panel_guard_entries): the entries' error or warning
 * style and tooltip, and message. */
void
fr_panel_clear_messages (GtkWidget *panel,
                         GtkLabel  *message)
{
  g_return_if_fail (GTK_IS_WIDGET (panel));
  g_return_if_fail (message == NULL || GTK_IS_LABEL (message));

  clear_spin_messages (panel, message);
  if (message != NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (message), FALSE);
      g_object_set_data (G_OBJECT (message), "fr-panel-spin", NULL);
    }
}

/* Whether spin holds a count (nodes, the radius, the folded horizons):
 * no decimals shown, and no significant-digits output, which the fields
 * of lengths without a fixed number of decimals have. */
static gboolean
spin_is_whole (GtkSpinButton *spin)
{
  return gtk_spin_button_get_digits (spin) == 0 &&
         g_signal_handler_find (spin, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                (gpointer) fr_panel_significant_output, NULL) == 0;
}

/* GtkSpinButton::input: its default parser turns "abc" into 0 and clamps
 * silently.  Refuse what is no number (the spin button keeps its value,
 * GTK_UPDATE_IF_VALID), clamp visibly what is out of range, and round
 * visibly a fraction typed into a count: it showed 2.5 as 2 and took 3. */
static int
spin_input_cb (GtkSpinButton *spin,
               double        *new_value,
               gpointer       user_data)
{
  GtkAdjustment *adj = gtk_spin_button_get_adjustment (spin);
  g_autofree char *why = NULL;
  double v;

  /* A blank field (see fr_panel_spin_set_blank) keeps its value. */
  if (g_object_get_data (G_OBJECT (spin), "fr-panel-blank") != NULL)
    {
      *new_value = gtk_adjustment_get_value (adj);
      return TRUE;
    }
  if (!fr_panel_parse_number (gtk_editable_get_text (GTK_EDITABLE (spin)),
                              gtk_adjustment_get_lower (adj), gtk_adjustment_get_upper (adj),
                              &v, &why))
    {
      show_entry_message (spin, why, TRUE);
      gtk_widget_error_bell (GTK_WIDGET (spin));
      return GTK_INPUT_ERROR;
    }
  if (why == NULL && v != floor (v) && spin_is_whole (spin))
    {
      char typed[64], set[64];

      format_grid_value (v, typed, sizeof typed);
      v = round (v);
      format_grid_value (v, set, sizeof set);
      /* Translators: a fraction typed into a count (nodes, the radius,
       * the folded horizons); both are numbers. */
      why = g_strdup_printf (_("%s is not a whole number; set to %s"), typed, set);
    }
  show_entry_message (spin, why, FALSE);
  *new_value = v;
  return TRUE;
}

/* Where the pointer is over a panel, in its coordinates: scroll events
 * carry no position in GTK 4.8. */
static void
pointer_motion_cb (GtkEventControllerMotion *controller,
                   double                    x,
                   double                    y,
                   double                   *pointer)
{
  pointer[0] = x;
  pointer[1] = y;
}

/* Scrolling over a spin button or a scale scrolls the panel, never the
 * value, even where the field has the focus: a field typed into a while
 * ago keeps the focus, and the next wheel turn over it, meant for the
 * panel, would change what the user typed.  Values change by typing, by
 * the +/− buttons or by dragging. */
static gboolean
scroll_guard_cb (GtkEventControllerScroll *controller,
                 double                    dx,
                 double                    dy,
                 double                   *pointer)
{
  GtkWidget *panel = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *picked, *target;

  picked = gtk_widget_pick (panel, pointer[0], pointer[1], GTK_PICK_DEFAULT);
  if (picked == NULL)
    return FALSE;
  target = gtk_widget_get_ancestor (picked, GTK_TYPE_SPIN_BUTTON);
  if (target == NULL)
    target = gtk_widget_get_ancestor (picked, GTK_TYPE_RANGE);
  if (target == NULL)
    return FALSE;

  fr_panel_scroll_ancestor (panel, controller, dy);
  return TRUE;
}

/* Scrolls the scrolled window around widget by dy of controller's scroll
 * (a wheel click moves as far as GtkScrolledWindow's own does); FALSE
 * where there is none. */
gboolean
fr_panel_scroll_ancestor (GtkWidget                *widget,
                          GtkEventControllerScroll *controller,
                          double                    dy)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj;
  double step;

  if (scrolled == NULL)
    return FALSE;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
           ? pow (gtk_adjustment_get_page_size (adj), 2.0 / 3.0) : 1.0;
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + dy * step);
  return TRUE;
}

static void
guard_spins (GtkWidget *widget,
             GtkLabel  *message)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_SPIN_BUTTON (child))
        {
          /* A nested panel guarded its own entries first. */
          if (g_object_get_data (G_OBJECT (child), "fr-panel-guarded") != NULL)
            continue;
          g_object_set_data (G_OBJECT (child), "fr-panel-guarded", GINT_TO_POINTER (1));
          g_object_set_data_full (G_OBJECT (child), "fr-panel-tooltip",
                                  gtk_widget_get_tooltip_text (child) != NULL
                                  ? g_strdup (gtk_widget_get_tooltip_text (child)) : NULL,
                                  g_free);
          g_object_set_data (G_OBJECT (child), "fr-panel-message", message);
          gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (child), GTK_UPDATE_IF_VALID);
          g_signal_connect (child, "input", G_CALLBACK (spin_input_cb), NULL);
        }
      else
        guard_spins (child, message);
    }
}

/* Guards every spin button of panel: invalid text is refused and an
 * out-of-range value is clamped, both explained on the entry and in
 * message; and the wheel over a spin button or a scale scrolls the panel,
 * focused or not. */
void
fr_panel_guard_entries (GtkWidget *panel,
                        GtkLabel  *message)
{
  GtkEventController *scroll, *motion;
  double *pointer;

  g_return_if_fail (GTK_IS_WIDGET (panel));
  g_return_if_fail (message == NULL || GTK_IS_LABEL (message));

  guard_spins (panel, message);

  pointer = g_new0 (double, 2);
  g_object_set_data_full (G_OBJECT (panel), "fr-panel-pointer", pointer, g_free);
  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (pointer_motion_cb), pointer);
  g_signal_connect (motion, "motion", G_CALLBACK (pointer_motion_cb), pointer);
  gtk_widget_add_controller (panel, motion);
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_guard_cb), pointer);
  gtk_widget_add_controller (panel, scroll);
}

/* GtkSpinButton::output: a blank field shows its placeholder, whatever its
 * adjustment holds. */
static gboolean
spin_output_cb (GtkSpinButton *spin,
                gpointer       user_data)
{
  if (g_object_get_data (G_OBJECT (spin), "fr-panel-blank") == NULL)
    return FALSE;
  if (*gtk_editable_get_text (GTK_EDITABLE (spin)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (spin), "");
  return TRUE;
}

/* value as spin shows it: to its digits, or to significant digits where
 * fr_panel_significant_output shows it. */
static void
spin_text (GtkSpinButton *spin,
           double         value,
           char          *buf,
           gsize          size)
{
  if (g_object_get_data (G_OBJECT (spin), "fr-panel-significant") != NULL)
    format_grid_value (value, buf, size);
  else
    g_snprintf (buf, size, "%.*f", (int) gtk_spin_button_get_digits (spin), value);
}

/* The value a spin button holds for a quantity whose value is now
 * current: current itself while the button shows it as written (a field
 * the focus leaves writes back its rounded text, 0.079 for 0.0790448,
 * which is no edit), or as its range clamped it (a layer's 250000 shown
 * as 100000 was written back when another field of the layer was
 * edited), else what was typed. */
double
fr_panel_spin_value (GtkSpinButton *spin,
                     double         current)
{
  GtkAdjustment *adj = gtk_spin_button_get_adjustment (spin);
  double v = gtk_spin_button_get_value (spin);
  const double clamped = CLAMP (current, gtk_adjustment_get_lower (adj),
                                gtk_adjustment_get_upper (adj));
  char shown[64], was[64], was_clamped[64];

  spin_text (spin, v, shown, sizeof shown);
  spin_text (spin, current, was, sizeof was);
  spin_text (spin, clamped, was_clamped, sizeof was_clamped);
  if (v == current || strcmp (shown, was) == 0 ||
      (clamped != current && strcmp (shown, was_clamped) == 0))
    return current;
  return v;
}

/* Blanks spin (guarded by fr_panel_guard_entries), or shows its value
 * again: a field that edits nothing now (no layer selected) shows a dash
 * instead of a value left from before.  The value is kept meanwhile. */
void
fr_panel_spin_set_blank (GtkSpinButton *spin,
                         gboolean       blank)
{
  GObject *object = G_OBJECT (spin);

  g_return_if_fail (GTK_IS_SPIN_BUTTON (spin));

  if (g_object_get_data (object, "fr-panel-blank-ready") == NULL)
    {
      GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (spin));

      g_object_set_data (object, "fr-panel-blank-ready", GINT_TO_POINTER (1));
      g_signal_connect (spin, "output", G_CALLBACK (spin_output_cb), NULL);
      if (GTK_IS_TEXT (text))
        gtk_text_set_placeholder_text (GTK_TEXT (text), "—");
    }
  if ((g_object_get_data (object, "fr-panel-blank") != NULL) == (blank != FALSE))
    return;
  g_object_set_data (object, "fr-panel-blank", blank ? GINT_TO_POINTER (1) : NULL);
  if (blank)
    gtk_editable_set_text (GTK_EDITABLE (spin), "");
  else
    /* The same value: no value-changed, only its text written again. */
    gtk_spin_button_set_value (spin, gtk_spin_button_get_value (spin));
}

/* Unparents a template's children, bound to a field or not. */
void
fr_panel_clear_children (GtkWidget *panel)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_WIDGET (panel));

  while ((child = gtk_widget_get_first_child (panel)) != NULL)
    gtk_widget_unparent (child);
}
