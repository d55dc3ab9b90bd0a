/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-model-panel"

#include "config.h"

#include <glib/gi18n.h>

#include "fr-model-panel.h"

struct _FrModelPanel
{
  GtkWidget      parent_instance;

  GtkSpinButton *nx_spin;
  GtkSpinButton *nz_spin;
  GtkSpinButton *dx_spin;
  GtkSpinButton *dz_spin;
  GtkListBox    *layer_list;
  GtkWidget     *remove_layer_button;
  GtkWidget     *layer_grid;
  GtkSpinButton *v_top_spin;
  GtkSpinButton *dvdz_spin;
  GtkSpinButton *dvdx_spin;
  GtkWidget     *obstacle_grid;
  GtkDropDown   *obstacle_kind_dropdown;
  GtkSpinButton *obstacle_velocity_spin;

  FrScene       *scene;
  FrEditor      *editor;
  int            layer;      /* selected in the list, or -1 */
  int            obstacle;   /* selected on the canvas, or -1 */
  gboolean       syncing;    /* widgets being set from the model */
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
  /* The scene rolled the edit back; show the model as it is. */
  if (error != NULL)
    g_message ("model edit refused: %s", error->message);
}

static char *
layer_title (guint          index,
             const FrLayer *l)
{
  /* Translators: a row of the layer list: its number and velocity at the top */
  return g_strdup_printf (_("Layer %u: v = %.3g"), index + 1, l->v_top);
}

/* Model -> widgets. */
static void
sync_from_model (FrModelPanel *self)
{
  const FrModel *m = model_of (self);
  guint n_rows = 0;
  GtkWidget *child;

  self->syncing = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self), m != NULL);
  if (m == NULL)
    {
      self->syncing = FALSE;
      return;
    }

  gtk_spin_button_set_value (self->nx_spin, m->grid.nx);
  gtk_spin_button_set_value (self->nz_spin, m->grid.nz);
  gtk_spin_button_set_value (self->dx_spin, m->grid.dx);
  gtk_spin_button_set_value (self->dz_spin, m->grid.dz);

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

  if (self->layer >= (int) m->layers->len)
    self->layer = (int) m->layers->len - 1;
  if (self->layer >= 0)
    {
      const FrLayer *l = g_ptr_array_index (m->layers, self->layer);

      gtk_list_box_select_row (self->layer_list,
                               gtk_list_box_get_row_at_index (self->layer_list, self->layer));
      gtk_spin_button_set_value (self->v_top_spin, l->v_top);
      gtk_spin_button_set_value (self->dvdz_spin, l->dvdz);
      gtk_spin_button_set_value (self->dvdx_spin, l->dvdx);
    }
  else
    gtk_list_box_unselect_all (self->layer_list);
  gtk_widget_set_sensitive (self->layer_grid, self->layer >= 0);
  gtk_widget_set_sensitive (self->remove_layer_button, self->layer >= 0);

  if (self->obstacle >= (int) m->obstacles->len)
    self->obstacle = -1;
  if (self->obstacle >= 0)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, self->obstacle);

      gtk_drop_down_set_selected (self->obstacle_kind_dropdown, o->velocity > 0.0 ? 1 : 0);
      if (o->velocity > 0.0)
        gtk_spin_button_set_value (self->obstacle_velocity_spin, o->velocity);
    }
  gtk_widget_set_sensitive (self->obstacle_grid, self->obstacle >= 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->obstacle_velocity_spin),
                            gtk_drop_down_get_selected (self->obstacle_kind_dropdown) == 1);
  self->syncing = FALSE;
}

/* ------------------------------------------------------------- callbacks */

static void
grid_changed_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;

  if (self->syncing || model_of (self) == NULL)
    return;
  if (!fr_scene_set_grid (self->scene,
                          (guint) gtk_spin_button_get_value_as_int (self->nx_spin),
                          (guint) gtk_spin_button_get_value_as_int (self->nz_spin),
                          gtk_spin_button_get_value (self->dx_spin),
                          gtk_spin_button_get_value (self->dz_spin), &error))
    {
      report (self, error);
      sync_from_model (self);
    }
}

static void
layer_selected_cb (FrModelPanel  *self,
                   GtkListBoxRow *row)
{
  if (self->syncing)
    return;
  self->layer = row != NULL ? gtk_list_box_row_get_index (row) : -1;
  sync_from_model (self);
}

static void
layer_changed_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;

  if (self->syncing || model_of (self) == NULL || self->layer < 0)
    return;
  if (!fr_scene_set_layer_velocity (self->scene, (guint) self->layer,
                                    gtk_spin_button_get_value (self->v_top_spin),
                                    gtk_spin_button_get_value (self->dvdz_spin),
                                    gtk_spin_button_get_value (self->dvdx_spin), &error))
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
  if (fr_scene_add_layer (self->scene, &error))
    self->layer = (int) model_of (self)->layers->len - 1;
  else
    report (self, error);
  sync_from_model (self);
}

static void
remove_layer_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;

  if (model_of (self) == NULL || self->layer < 0)
    return;
  if (!fr_scene_remove_layer (self->scene, (guint) self->layer, &error))
    report (self, error);
  sync_from_model (self);
}

static void
obstacle_changed_cb (FrModelPanel *self)
{
  g_autoptr(GError) error = NULL;
  gboolean slow;

  if (self->syncing || model_of (self) == NULL || self->obstacle < 0)
    return;
  slow = gtk_drop_down_get_selected (self->obstacle_kind_dropdown) == 1;
  gtk_widget_set_sensitive (GTK_WIDGET (self->obstacle_velocity_spin), slow);
  if (!fr_scene_set_obstacle_velocity (self->scene, (guint) self->obstacle,
                                       slow ? gtk_spin_button_get_value (self->obstacle_velocity_spin) : 0.0,
                                       &error))
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
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_VELOCITY))
    sync_from_model (self);
}

static void
editor_selection_cb (FrModelPanel *self,
                     FrEditor     *editor)
{
  int layer = fr_editor_get_selected_layer (editor);

  if (layer >= 0)
    self->layer = layer;
  self->obstacle = fr_editor_get_selected_obstacle (editor);
  sync_from_model (self);
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
  gtk_widget_dispose_template (GTK_WIDGET (object), FR_TYPE_MODEL_PANEL);

  G_OBJECT_CLASS (fr_model_panel_parent_class)->dispose (object);
}

static void
fr_model_panel_class_init (FrModelPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_model_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/foldray/Foldray/ui/fr-model-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, nx_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, nz_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dx_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dz_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, layer_list);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, remove_layer_button);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, layer_grid);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, v_top_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dvdz_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, dvdx_spin);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, obstacle_grid);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, obstacle_kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FrModelPanel, obstacle_velocity_spin);
  gtk_widget_class_bind_template_callback (widget_class, grid_changed_cb);
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
  sync_from_model (self);
}

/* The editor whose selection (a node's layer, an obstacle) the panel follows. */
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
    g_signal_connect_object (editor, "selection-changed", G_CALLBACK (editor_selection_cb), self,
                             G_CONNECT_SWAPPED);
}
