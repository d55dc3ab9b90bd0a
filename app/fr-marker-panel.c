/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-marker-panel"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-marker-item.h"
#include "fr-marker-panel.h"
#include "fr-marker-time.h"
#include "fr-model-panel.h"
#include "fr-result-time.h"
#include "fr-time-curve.h"

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
  GtkCheckButton *shots_check;
  GtkWidget     *list_box;
  GtkLabel      *x_heading;
  GtkLabel      *z_heading;
  GtkLabel      *time_heading;
  GtkScrolledWindow *list_scroller;
  GtkListView   *list_view;
  GtkWidget     *curve_box;
  FrTimeCurve   *time_curve;

  GListStore         *store;      /* FrMarkerItem: the sources, then the receivers */
  GtkSingleSelection *selection;  /* the scene's selected marker */

  FrScene       *scene;
  FrResult      *result;    /* the newest solve's, or NULL */
  gboolean       has_solver;
  FrRadius       radius;    /* the solver settings asked for now (set_solver) */
  fr_spr_backend backend;
  gboolean       syncing;   /* fields or list being set from the scene */
};

G_DEFINE_FINAL_TYPE (FrMarkerPanel, fr_marker_panel, GTK_TYPE_WIDGET)

/* The most rows the list shows before it scrolls. */
#define LIST_ROWS 8

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

/* The row of the scene's selected marker, or GTK_INVALID_LIST_POSITION. */
static guint
selected_row (FrMarkerPanel *self)
{
  FrMarkerKind kind;
  guint index, count, n_sources;
  FrPoint at;

  if (!selected_marker (self, &kind, &index, &count, &at))
    return GTK_INVALID_LIST_POSITION;
  if (kind == FR_MARKER_SOURCE)
    return index;
  fr_scene_get_markers (self->scene, FR_MARKER_SOURCE, &n_sources);
  return n_sources + index;
}

/* The list's selected row follows the scene's, scrolled into view. */
static void
sync_list_selection (FrMarkerPanel *self)
{
  guint row = selected_row (self);
  FrMarkerKind kind;
  guint index, count;
  FrPoint at;

  /* The curve rings the selected receiver's dot. */
  fr_time_curve_set_selected (self->time_curve,
                              selected_marker (self, &kind, &index, &count, &at) &&
                              kind == FR_MARKER_RECEIVER ? (gint) index : -1);

  if (gtk_single_selection_get_selected (self->selection) == row)
    return;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, row);
  self->syncing = FALSE;
  g_debug ("list selected=%d", (int) row);
  if (row != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", row);
}

/* For the GUI tests (G_MESSAGES_DEBUG=fr-marker-panel): the rows as shown. */
static void
log_list (FrMarkerPanel *self)
{
  GListModel *model = G_LIST_MODEL (self->store);
  g_autoptr(GString) line = NULL;
  guint n = g_list_model_get_n_items (model);

  if (g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
    return;
  line = g_string_new (NULL);
  g_string_append_printf (line, "list rows=%u selected=%d", n,
                          (int) gtk_single_selection_get_selected (self->selection));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(FrMarkerItem) item = g_list_model_get_item (model, i);

      g_string_append_printf (line, " | %s %s %s %s", fr_marker_item_get_text (item, "name"),
                              fr_marker_item_get_text (item, "x"), fr_marker_item_get_text (item, "z"),
                              fr_marker_item_get_text (item, "time"));
    }
  g_debug ("%s", line->str);
}

/* Sets item to show marker index of kind at at, with T where the result
 * is the scene's and the solver settings' (fr_marker_time_is_current), to
 * decimals decimals. */
static void
show_row (FrMarkerPanel *self,
          FrMarkerItem  *item,
          FrMarkerKind   kind,
          guint          index,
          const FrPoint *at,
          gboolean       has_time,
          int            decimals)
{
  char name[32], xs[64], zs[64], ts[64] = "";
  /* T at each receiver, and where each source is a shot of its own, at
   * the sources that do not fire in the shot shown: the reciprocal time
   * between the two shots, which a reversed refraction profile is read
   * with. */
  const gboolean timed = kind == FR_MARKER_RECEIVER || !fr_scene_source_fires (self->scene, index);
  double t = NAN;

  /* NAN: no T to show, at a source that fires or without a result of the
   * scene's. */
  if (!timed || !has_time || !fr_result_time_at (self->result, at->x, at->z, &t))
    t = NAN;
  if (!fr_marker_item_update (item, kind, index, at->x, at->z, t, decimals))
    return;
  /* Translators: a source's name in the marker list, "S1"; as short as can be */
  g_snprintf (name, sizeof name, kind == FR_MARKER_SOURCE ? _("S%u")
  /* Translators: a receiver's name in the marker list, "R1"; as short as can be */
                                                          : _("R%u"), index + 1);
  fr_panel_format_value (at->x, xs, sizeof xs);
  fr_panel_format_value (at->z, zs, sizeof zs);
  /* The same decimals in every row; a dash while there is no T. */
  if (timed)
    fr_marker_time_format (t, decimals, ts, sizeof ts);
  fr_marker_item_set_texts (item, name, xs, zs, ts);
}

/* The wheel over the list scrolls the side panel once the list can go no
 * further that way, instead of doing nothing: the list spans the panel's
 * width, and a panel scrolled by wheel otherwise stuck wherever the list
 * came under the pointer. */
static gboolean
list_scroll_cb (FrMarkerPanel            *self,
                double                    dx,
                double                    dy,
                GtkEventControllerScroll *controller)
{
  GtkAdjustment *inner = gtk_scrolled_window_get_vadjustment (self->list_scroller);
  double value = gtk_adjustment_get_value (inner);

  if (dy == 0.0 ||
      (dy < 0.0 && value > gtk_adjustment_get_lower (inner)) ||
      (dy > 0.0 && value < gtk_adjustment_get_upper (inner) - gtk_adjustment_get_page_size (inner)))
    return FALSE;
  /* The panel's scrolled window, around the list's own. */
  return fr_panel_scroll_ancestor (gtk_widget_get_parent (GTK_WIDGET (self->list_scroller)),
                                   controller, dy);
}

/* The list as tall as n rows, up to LIST_ROWS.  GtkListView's natural
 * height counts only the rows it has made, two before its first
 * allocation, so the height is set from a row's: a made row's, else the
 * text's line with the rows' padding. */
static void
fit_list_height (FrMarkerPanel *self,
                 guint          n)
{
  GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
  int row_px = 0;

  if (row != NULL)
    gtk_widget_measure (row, GTK_ORIENTATION_VERTICAL, -1, NULL, &row_px, NULL, NULL);
  if (row_px <= 0)
    {
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->list_view),
                                                                      "S1");

      pango_layout_get_pixel_size (layout, NULL, &row_px);
      row_px += 4;
    }
  gtk_scrolled_window_set_min_content_height (self->list_scroller,
                                              (int) MIN (MAX (n, 1), LIST_ROWS) * row_px);
}

/* Scene and result -> the traveltime curve, shown from two receivers on:
 * each receiver's T as its row shows it (NAN: a dash), against its x. */
static void
sync_curve (FrMarkerPanel *self,
            guint          n_receivers,
            gboolean       has_time)
{
  gtk_widget_set_visible (self->curve_box, n_receivers >= 2);
  if (n_receivers >= 2)
    fr_time_curve_set_scene (self->time_curve, self->scene, has_time ? self->result : NULL);
}

/* Scene and result -> the list.  Its items are kept and only those whose
 * marker or T changed are written again, so that an edit, or a drag among
 * a thousand receivers, redraws only what it changed; the store grows or
 * shrinks at its end. */
static void
sync_list (FrMarkerPanel *self)
{
  GListModel *model = G_LIST_MODEL (self->store);
  const FrPoint *sources = NULL, *receivers = NULL;
  guint n_sources = 0, n_receivers = 0, n, old = g_list_model_get_n_items (model);
  gboolean has_time = FALSE;
  int decimals;
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->scene != NULL && fr_scene_has_model (self->scene))
    {
      sources = fr_scene_get_markers (self->scene, FR_MARKER_SOURCE, &n_sources);
      receivers = fr_scene_get_markers (self->scene, FR_MARKER_RECEIVER, &n_receivers);
      has_time = self->has_solver
                 ? fr_marker_time_is_current (self->result, self->scene, self->radius, self->backend)
                 : fr_result_time_matches_scene (self->result, self->scene);
    }
  n = n_sources + n_receivers;
  decimals = fr_marker_time_decimals (has_time ? self->result->time_max : 0.0);

  self->syncing = TRUE;
  for (guint row = 0; row < n; row++)
    {
      g_autoptr(FrMarkerItem) item = row < old ? g_list_model_get_item (model, row)
                                               : fr_marker_item_new ();
      gboolean source = row < n_sources;
      guint index = source ? row : row - n_sources;

      show_row (self, item, source ? FR_MARKER_SOURCE : FR_MARKER_RECEIVER, index,
                source ? &sources[index] : &receivers[index], has_time, decimals);
      if (row >= old)
        g_ptr_array_add (added, g_steal_pointer (&item));
    }
  if (n != old)
    g_list_store_splice (self->store, MIN (n, old), old > n ? old - n : 0, added->pdata, added->len);
  /* Whether sources fire one at a time: asked from two sources on, or
   * while it is so (an undo, a scene opened). */
  gtk_check_button_set_active (self->shots_check,
                               self->scene != NULL && fr_scene_get_separate_shots (self->scene));
  gtk_widget_set_visible (GTK_WIDGET (self->shots_check),
                          n_sources >= 2 || gtk_check_button_get_active (self->shots_check));
  self->syncing = FALSE;
  gtk_widget_set_visible (self->list_box, n > 0);
  fit_list_height (self, n);
  sync_curve (self, n_receivers, has_time);
  sync_list_selection (self);
  log_list (self);
}

/* A row chosen in the list, by a click, the arrow keys or Space: its
 * marker becomes the scene's selection, so the fields and the canvas
 * follow. */
static void
list_selection_cb (FrMarkerPanel *self)
{
  FrMarkerItem *item;
  FrMarkerKind kind = FR_MARKER_NONE;
  guint index = 0;

  if (self->syncing || self->scene == NULL)
    return;
  item = gtk_single_selection_get_selected_item (self->selection);
  if (item != NULL)
    kind = fr_marker_item_get_kind (item, &index);
  fr_scene_select (self->scene, kind, index);
}

/* A dot clicked on the traveltime curve: its receiver becomes the scene's
 * selection, as a click on its row or its marker does. */
static void
curve_receiver_clicked_cb (FrMarkerPanel *self,
                           guint          receiver)
{
  if (self->scene != NULL)
    fr_scene_select (self->scene, FR_MARKER_RECEIVER, receiver);
}

/* Enter or a double click on a row: its marker selected, and its x field
 * focused, for a position to be typed. */
static void
row_activated_cb (FrMarkerPanel *self,
                  guint          position)
{
  gtk_single_selection_set_selected (self->selection, position);
  if (gtk_single_selection_get_selected (self->selection) == position)
    gtk_widget_grab_focus (GTK_WIDGET (self->x_spin));
}

/* Delete on the list removes the selected row's marker, one undo step, as
 * Delete does on the canvas; never what the model editor has selected,
 * which the window's Delete would take first. */
static gboolean
list_key_cb (FrMarkerPanel   *self,
             guint            keyval,
             guint            keycode,
             GdkModifierType  state)
{
  FrMarkerItem *item;
  FrMarkerKind kind;
  guint index;

  if ((keyval != GDK_KEY_Delete && keyval != GDK_KEY_KP_Delete) ||
      (state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return FALSE;
  item = gtk_single_selection_get_selected_item (self->selection);
  if (self->scene != NULL && item != NULL &&
      (kind = fr_marker_item_get_kind (item, &index)) != FR_MARKER_NONE)
    fr_scene_remove_marker (self->scene, kind, index);
  return TRUE;
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

/* The check box -> the scene: each source a shot of its own, or all
 * together (one undo step). */
static void
shots_toggled_cb (FrMarkerPanel *self)
{
  if (self->syncing || self->scene == NULL)
    return;
  fr_scene_set_separate_shots (self->scene, gtk_check_button_get_active (self->shots_check));
}

static void
scene_changed_cb (FrMarkerPanel *self,
                  guint          what,
                  FrScene       *scene)
{
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SELECTION))
    sync_from_scene (self);
  /* A new velocity makes T stale; a moved source too, or another shot
   * (sync_list asks). */
  if (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_VELOCITY |
              FR_SCENE_CHANGED_SHOT))
    sync_list (self);
  else if (what & FR_SCENE_CHANGED_SELECTION)
    sync_list_selection (self);
}

static void
fr_marker_panel_dispose (GObject *object)
{
  FrMarkerPanel *self = FR_MARKER_PANEL (object);

  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_data (self->scene, self);
  g_clear_object (&self->scene);
  g_clear_pointer (&self->result, fr_result_unref);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
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

  /* The rows' template looks its properties up by type name. */
  g_type_ensure (FR_TYPE_MARKER_ITEM);
  g_type_ensure (FR_TYPE_TIME_CURVE);
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
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, shots_check);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, list_box);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, x_heading);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, z_heading);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, time_heading);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, list_scroller);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, list_view);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, curve_box);
  gtk_widget_class_bind_template_child (widget_class, FrMarkerPanel, time_curve);
  gtk_widget_class_bind_template_callback (widget_class, fr_panel_significant_output);
  gtk_widget_class_bind_template_callback (widget_class, position_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_source_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_receiver_cb);
  gtk_widget_class_bind_template_callback (widget_class, shots_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "frmarkerpanel");
}

static void
fr_marker_panel_init (FrMarkerPanel *self)
{
  GtkEventController *keys, *scroll;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->store = g_list_store_new (FR_TYPE_MARKER_ITEM);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->store)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  /* Space on the selected row keeps it: the list never unselects by itself. */
  gtk_single_selection_set_can_unselect (self->selection, FALSE);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (list_selection_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->time_curve, "receiver-clicked", G_CALLBACK (curve_receiver_clicked_cb),
                           self, G_CONNECT_SWAPPED);
  keys = gtk_event_controller_key_new ();
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (list_key_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), keys);
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect_object (scroll, "scroll", G_CALLBACK (list_scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->list_scroller), scroll);
  fr_marker_panel_set_length_unit (self, FR_LENGTH_UNIT_NONE);
  sync_from_scene (self);
  sync_list (self);
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
  sync_list (self);
}

/* A heading of the list: name, with unit where there is one. */
static char *
list_heading (const char *name,
              const char *unit)
{
  if (unit == NULL)
    return g_strdup (name);
  /* Translators: a heading of the marker list: a coordinate or the
   * traveltime T and its unit, "x (km)", "T (s)" */
  return g_strdup_printf (C_("marker list heading", "%s (%s)"), name, unit);
}

/* Names the fields' unit, under their labels, where the scene has one. */
void
fr_marker_panel_set_length_unit (FrMarkerPanel *self,
                                 FrLengthUnit   unit)
{
  const char *id;
  g_autofree char *x = NULL, *z = NULL, *t = NULL;

  g_return_if_fail (FR_IS_MARKER_PANEL (self));
  g_return_if_fail (unit < FR_N_LENGTH_UNITS);

  id = unit != FR_LENGTH_UNIT_NONE ? fr_length_unit_get_id (unit) : NULL;
  x = list_heading (C_("marker position", "x"), id);
  z = list_heading (C_("marker position", "z"), id);
  /* In seconds where lengths have a unit, as the cursor readout says.
   * Translators: the traveltime's symbol, heading the list's T column */
  t = list_heading (C_("traveltime", "T"), id != NULL ? "s" : NULL);
  fr_panel_show_unit (self->x_unit, unit, fr_length_unit_get_id (unit));
  fr_panel_show_unit (self->z_unit, unit, fr_length_unit_get_id (unit));
  gtk_label_set_text (self->x_heading, x);
  gtk_label_set_text (self->z_heading, z);
  gtk_label_set_text (self->time_heading, t);
  fr_time_curve_set_unit (self->time_curve, unit);
}

/* The newest solve's result (or NULL): each receiver's row shows T from it
 * while it is the scene's, as the cursor readout reads it. */
void
fr_marker_panel_set_result (FrMarkerPanel *self,
                            FrResult      *result)
{
  g_return_if_fail (FR_IS_MARKER_PANEL (self));

  if (result == self->result)
    return;
  if (result != NULL)
    fr_result_ref (result);
  g_clear_pointer (&self->result, fr_result_unref);
  self->result = result;
  sync_list (self);
}

/* The radius and back end that the scene's next solve runs with: until a
 * result of those lands, T reads "—" (a new radius gives another T). */
void
fr_marker_panel_set_solver (FrMarkerPanel  *self,
                            FrRadius        radius,
                            fr_spr_backend  backend)
{
  g_return_if_fail (FR_IS_MARKER_PANEL (self));

  if (self->has_solver && fr_radius_equal (self->radius, radius) && self->backend == backend)
    return;
  self->has_solver = TRUE;
  self->radius = radius;
  self->backend = backend;
  sync_list (self);
}
