/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-editor"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-clip.h"
#include "fr-editor.h"

#define HIT_PX        8.0    /* how near a node or vertex must be to grab it */
#define SEGMENT_PX    6.0    /* how near an interface a double-click adds a node */
#define VELOCITY_STEP 1.03   /* one scroll step over a layer */

typedef enum
{
  DRAG_NONE,
  DRAG_NODE,
  DRAG_VERTEX,
  DRAG_OBSTACLE,
  DRAG_RECT,
  DRAG_POLYGON,    /* a press that added a polygon vertex */
  DRAG_CLAIMED,    /* a press we keep from the canvas (a double-click's first) */
} DragMode;

typedef enum
{
  SEL_NONE,
  SEL_NODE,
  SEL_OBSTACLE,
} SelKind;

struct _FrEditor
{
  GtkWidget     parent_instance;

  FrCanvas     *canvas;      /* weak: our sibling in the overlay */
  FrScene      *scene;
  gboolean      active;
  FrEditorTool  tool;
  double        obstacle_velocity;

  DragMode      drag;
  guint         item;        /* layer or obstacle index */
  guint         sub;         /* node or vertex index */
  double        start_x, start_z;
  GArray       *start_vertices;
  double        press_px, press_py, rect_px, rect_py;
  gint64        last_press_time;
  double        last_press_px, last_press_py;

  SelKind       sel;
  guint         sel_item, sel_sub;
  guint         sel_shape[3];  /* the model's layers, obstacles, selected layer's nodes then */

  GArray       *polygon;     /* FrVertex: the polygon being drawn, or NULL */
  double        hover_px, hover_py;   /* the pointer, in canvas pixels */
  gboolean      hover_inside;

  guint         scroll_end_id;
};

G_DEFINE_FINAL_TYPE (FrEditor, fr_editor, GTK_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (FrEditorTool, fr_editor_tool,
                    G_DEFINE_ENUM_VALUE (FR_EDITOR_TOOL_SELECT, "select"),
                    G_DEFINE_ENUM_VALUE (FR_EDITOR_TOOL_RECTANGLE, "rectangle"),
                    G_DEFINE_ENUM_VALUE (FR_EDITOR_TOOL_POLYGON, "polygon"))

enum {
  PROP_0,
  PROP_CANVAS,
  PROP_ACTIVE,
  PROP_TOOL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const FrView *
view_of (FrEditor *self)
{
  return fr_canvas_get_view (self->canvas);
}

static gboolean
has_model (FrEditor *self)
{
  return self->canvas != NULL && self->scene != NULL && fr_scene_get_model (self->scene) != NULL;
}

/* Whether canvas pixel (px, py) is on the plot, where the model shows:
 * the gutters around it hold the axes and the colour bar and hide the
 * model's part under them, so nothing there is drawn, grabbed or made. */
static gboolean
in_plot (FrEditor *self,
         double    px,
         double    py)
{
  FrPlotLayout layout;

  fr_canvas_get_plot_layout (self->canvas, &layout);
  return fr_rect_contains (&layout.plot, px, py);
}

/* (px, py) moved onto the plot's nearest point. */
static void
clamp_to_plot (FrEditor *self,
               double   *px,
               double   *py)
{
  FrPlotLayout layout;
  const FrRect *p = &layout.plot;

  fr_canvas_get_plot_layout (self->canvas, &layout);
  *px = CLAMP (*px, p->x, p->x + p->width);
  *py = CLAMP (*py, p->y, p->y + p->height);
}

/* ------------------------------------------------------------- hit tests */

static gboolean
near (FrEditor *self,
      double    x,
      double    z,
      double    px,
      double    py,
      double    radius)
{
  double wx, wy;

  fr_view_model_to_widget (view_of (self), x, z, &wx, &wy);
  return hypot (wx - px, wy - py) <= radius;
}

static gboolean
hit_node (FrEditor *self,
          double    px,
          double    py,
          guint    *layer,
          guint    *node)
{
  const FrModel *m = fr_scene_get_model (self->scene);

  for (guint i = m->layers->len; i-- > 0;)
    {
      const FrLayer *l = g_ptr_array_index (m->layers, i);

      for (guint k = 0; k < l->nodes->len; k++)
        {
          const FrVertex *v = &g_array_index (l->nodes, FrVertex, k);

          if (near (self, v->x, v->z, px, py, HIT_PX))
            {
              *layer = i;
              *node = k;
              return TRUE;
            }
        }
    }
  return FALSE;
}

static gboolean
hit_vertex (FrEditor *self,
            double    px,
            double    py,
            guint    *obstacle,
            guint    *vertex)
{
  const FrModel *m = fr_scene_get_model (self->scene);

  for (guint i = m->obstacles->len; i-- > 0;)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, i);

      for (guint k = 0; k < o->vertices->len; k++)
        {
          const FrVertex *v = &g_array_index (o->vertices, FrVertex, k);

          if (near (self, v->x, v->z, px, py, HIT_PX))
            {
              *obstacle = i;
              *vertex = k;
              return TRUE;
            }
        }
    }
  return FALSE;
}

static gboolean
hit_obstacle (FrEditor *self,
              double    x,
              double    z,
              guint    *obstacle)
{
  const FrModel *m = fr_scene_get_model (self->scene);

  for (guint i = m->obstacles->len; i-- > 0;)
    if (fr_obstacle_contains (g_ptr_array_index (m->obstacles, i), x, z))
      {
        *obstacle = i;
        return TRUE;
      }
  return FALSE;
}

/* The interface segment within SEGMENT_PX of (px, py): its layer and the
 * index the new node gets. */
static gboolean
hit_segment (FrEditor *self,
             double    px,
             double    py,
             guint    *layer,
             guint    *index)
{
  const FrModel *m = fr_scene_get_model (self->scene);

  for (guint i = m->layers->len; i-- > 0;)
    {
      const FrLayer *l = g_ptr_array_index (m->layers, i);

      for (guint k = 0; k + 1 < l->nodes->len; k++)
        {
          const FrVertex *a = &g_array_index (l->nodes, FrVertex, k);
          const FrVertex *b = &g_array_index (l->nodes, FrVertex, k + 1);
          double ax, ay, bx, by, t, len2, dx, dy;

          fr_view_model_to_widget (view_of (self), a->x, a->z, &ax, &ay);
          fr_view_model_to_widget (view_of (self), b->x, b->z, &bx, &by);
          len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay);
          if (len2 <= 0.0)
            continue;
          t = CLAMP (((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2, 0.0, 1.0);
          dx = ax + t * (bx - ax) - px;
          dy = ay + t * (by - ay) - py;
          if (hypot (dx, dy) <= SEGMENT_PX && t > 0.0 && t < 1.0)
            {
              *layer = i;
              *index = k + 1;
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* The layer at model point (x, z), as the rasteriser assigns it. */
static gboolean
layer_at (FrEditor *self,
          double    x,
          double    z,
          guint    *layer)
{
  const FrModel *m = fr_scene_get_model (self->scene);
  double x0, z0, x1, z1;

  fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  if (x < x0 || x > x1 || z < z0 || z > z1 || m->layers->len == 0)
    return FALSE;
  for (guint i = m->layers->len; i-- > 0;)
    {
      FrLayer *l = g_ptr_array_index (m->layers, i);
      fr_raster_layer rl = { NULL, NULL, l->nodes->len, 0, 0, 0 };
      g_autofree double *xs = g_new (double, 2 * l->nodes->len);

      for (guint k = 0; k < l->nodes->len; k++)
        {
          xs[k] = g_array_index (l->nodes, FrVertex, k).x;
          xs[l->nodes->len + k] = g_array_index (l->nodes, FrVertex, k).z;
        }
      rl.x = xs;
      rl.z = xs + l->nodes->len;
      if (fr_raster_interface_z (&rl, x) <= z || (i == 0 && m->background == NULL))
        {
          *layer = i;
          return TRUE;
        }
    }
  return FALSE;
}

/* ------------------------------------------------------------- editing */

static gboolean
model_changed (FrEditor *self)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (!(ok = fr_scene_model_changed (self->scene, &error)))
    g_debug ("edit refused: %s", error->message);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return ok;
}

/* What a selection's indices depend on: the model's layers, obstacles
 * and the nodes of layer item (G_MAXUINT: none). */
static void
model_shape (const FrModel *m,
             guint          item,
             guint          shape[3])
{
  shape[0] = m->layers->len;
  shape[1] = m->obstacles->len;
  shape[2] = item < m->layers->len ? ((FrLayer *) g_ptr_array_index (m->layers, item))->nodes->len : 0;
}

static void
select_item (FrEditor *self,
             SelKind   kind,
             guint     item,
             guint     sub)
{
  gboolean changed = self->sel != kind || self->sel_item != item || self->sel_sub != sub;

  self->sel = kind;
  self->sel_item = item;
  self->sel_sub = sub;
  if (has_model (self))
    model_shape (fr_scene_get_model (self->scene), kind == SEL_NODE ? item : G_MAXUINT,
                 self->sel_shape);
  if (kind != SEL_NONE)
    fr_scene_select (self->scene, FR_MARKER_NONE, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (changed)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
move_node (FrEditor *self,
           double    x,
           double    z)
{
  FrModel *m = fr_scene_edit_model (self->scene);
  FrLayer *l = g_ptr_array_index (m->layers, self->item);
  FrVertex *v = &g_array_index (l->nodes, FrVertex, self->sub);
  double eps = 1e-6 * m->grid.dx;

  /* Interfaces stay functions of x: a node stays between its neighbours. */
  if (self->sub > 0)
    x = MAX (x, g_array_index (l->nodes, FrVertex, self->sub - 1).x + eps);
  if (self->sub + 1 < l->nodes->len)
    x = MIN (x, g_array_index (l->nodes, FrVertex, self->sub + 1).x - eps);
  v->x = x;
  v->z = z;
}

static void
move_vertex (FrEditor *self,
             double    x,
             double    z)
{
  FrModel *m = fr_scene_edit_model (self->scene);
  FrObstacle *o = g_ptr_array_index (m->obstacles, self->item);
  FrVertex *v = (FrVertex *) o->vertices->data;

  if (o->shape == FR_OBSTACLE_RECTANGLE)
    {
      /* Corners 0..3 run (x0,z0) (x1,z0) (x1,z1) (x0,z1): the corner's
       * partners along x and z follow, so it stays a rectangle. */
      static const guint same_x[4] = { 3, 2, 1, 0 }, same_z[4] = { 1, 0, 3, 2 };

      v[same_x[self->sub]].x = x;
      v[same_z[self->sub]].z = z;
    }
  v[self->sub].x = x;
  v[self->sub].z = z;
}

static void
move_obstacle (FrEditor *self,
               double    dx,
               double    dz)
{
  FrModel *m = fr_scene_edit_model (self->scene);
  FrObstacle *o = g_ptr_array_index (m->obstacles, self->item);

  for (guint k = 0; k < o->vertices->len; k++)
    {
      const FrVertex *s = &g_array_index (self->start_vertices, FrVertex, k);
      FrVertex *v = &g_array_index (o->vertices, FrVertex, k);

      v->x = s->x + dx;
      v->z = s->z + dz;
    }
}

static void
insert_node (FrEditor *self,
             guint     layer,
             guint     index,
             double    x,
             double    z)
{
  FrModel *m = fr_scene_edit_model (self->scene);
  FrLayer *l = g_ptr_array_index (m->layers, layer);
  const FrVertex *a = &g_array_index (l->nodes, FrVertex, index - 1);
  const FrVertex *b = &g_array_index (l->nodes, FrVertex, index);
  const double eps = 1e-6 * m->grid.dx;
  double t, len2;
  FrVertex v;
  gboolean kept;

  /* On the segment, at the point nearest the click, and strictly between
   * its ends along x: the pointer's own x beside a steep segment lay
   * outside them, and an interface must stay a function of x. */
  len2 = (b->x - a->x) * (b->x - a->x) + (b->z - a->z) * (b->z - a->z);
  t = len2 > 0.0 ? CLAMP (((x - a->x) * (b->x - a->x) + (z - a->z) * (b->z - a->z)) / len2, 0.0, 1.0)
                 : 0.5;
  v.x = a->x + t * (b->x - a->x);
  v.z = a->z + t * (b->z - a->z);
  if (!(b->x - a->x > 2.0 * eps))
    return;   /* no room between the two along x */
  v.x = CLAMP (v.x, a->x + eps, b->x - eps);
  fr_scene_begin_edit (self->scene);
  g_array_insert_val (l->nodes, index, v);
  if (!(kept = model_changed (self)))
    g_array_remove_index (l->nodes, index);
  fr_scene_end_edit (self->scene, _("Add Node"));
  if (kept)
    select_item (self, SEL_NODE, layer, index);
}

/* Adds a vertex at widget point (px, py) to the polygon being drawn,
 * starting one if none is. */
static void
polygon_add_vertex (FrEditor *self,
                    double    px,
                    double    py)
{
  FrVertex v;

  fr_view_widget_to_model (view_of (self), px, py, &v.x, &v.z);
  if (self->polygon == NULL)
    self->polygon = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  g_array_append_val (self->polygon, v);
  self->hover_px = px;
  self->hover_py = py;
  /* Enter, Backspace and Escape go to the canvas's key controller. */
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Whether a press at (px, py), model (x, z), with the polygon tool starts
 * or extends a polygon rather than grabbing an existing obstacle. */
static gboolean
polygon_press (FrEditor *self,
               double    px,
               double    py,
               double    x,
               double    z)
{
  guint item, sub;

  if (self->tool != FR_EDITOR_TOOL_POLYGON)
    return FALSE;
  return self->polygon != NULL ||
         !(hit_vertex (self, px, py, &item, &sub) || hit_obstacle (self, x, z, &item));
}

static gboolean
scroll_end_cb (gpointer data)
{
  FrEditor *self = data;

  self->scroll_end_id = 0;
  if (self->scene != NULL)
    fr_scene_end_edit (self->scene, _("Change Velocity"));
  return G_SOURCE_REMOVE;
}

/* Records the velocity steps scrolled so far as their undo step now,
 * before another edit begins. */
static void
end_scroll_burst (FrEditor *self)
{
  if (self->scroll_end_id == 0)
    return;
  g_clear_handle_id (&self->scroll_end_id, g_source_remove);
  if (self->scene != NULL)
    fr_scene_end_edit (self->scene, _("Change Velocity"));
}

/* Ends any edit still gathering its steps (a wheel burst waits 600 ms for
 * more), so that an undo or redo that comes now finds it whole on the
 * stack rather than half open. */
void
fr_editor_finish_edits (FrEditor *self)
{
  g_return_if_fail (FR_IS_EDITOR (self));
  end_scroll_burst (self);
}

/* Whether an edit is gathering its steps (a wheel burst): Undo must be
 * offered already, and takes it whole (fr_editor_finish_edits). */
gboolean
fr_editor_has_open_edit (FrEditor *self)
{
  g_return_val_if_fail (FR_IS_EDITOR (self), FALSE);
  return self->scroll_end_id != 0;
}

/* ------------------------------------------------------------- callbacks */

static void
drag_begin_cb (FrEditor       *self,
               double          px,
               double          py,
               GtkGestureDrag *gesture)
{
  gint64 now = g_get_monotonic_time ();
  gboolean double_click;
  guint item, sub;
  double x, z;
  int dbl_ms = 400;

  /* A press in a gutter is not on the model: it grabs nothing hidden
   * there, starts no obstacle and keeps the selection. */
  if (!self->active || !has_model (self) || !in_plot (self, px, py))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  end_scroll_burst (self);
  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-double-click-time", &dbl_ms, NULL);
  double_click = now - self->last_press_time < dbl_ms * 1000 &&
                 hypot (px - self->last_press_px, py - self->last_press_py) < 5.0;
  self->last_press_time = double_click ? 0 : now;
  self->last_press_px = px;
  self->last_press_py = py;
  self->press_px = self->rect_px = px;
  self->press_py = self->rect_py = py;
  fr_view_widget_to_model (view_of (self), px, py, &x, &z);
  self->start_x = x;
  self->start_z = z;
  self->drag = DRAG_NONE;

  if (polygon_press (self, px, py, x, z))
    {
      /* A double-click's second press closes the polygon. */
      if (!(double_click && self->polygon != NULL && self->polygon->len >= 3 &&
            fr_editor_close_polygon (self)))
        polygon_add_vertex (self, px, py);
      item = sub = 0;
      self->drag = DRAG_POLYGON;
    }
  else if (double_click && hit_segment (self, px, py, &item, &sub))
    {
      insert_node (self, item, sub, x, z);
      self->drag = DRAG_CLAIMED;
    }
  else if (self->tool == FR_EDITOR_TOOL_RECTANGLE)
    self->drag = DRAG_RECT;
  else if (hit_node (self, px, py, &item, &sub))
    {
      self->drag = DRAG_NODE;
      select_item (self, SEL_NODE, item, sub);
    }
  else if (hit_vertex (self, px, py, &item, &sub))
    {
      self->drag = DRAG_VERTEX;
      select_item (self, SEL_OBSTACLE, item, 0);
    }
  else if (hit_obstacle (self, x, z, &item))
    {
      const FrObstacle *o = g_ptr_array_index (fr_scene_get_model (self->scene)->obstacles, item);

      self->drag = DRAG_OBSTACLE;
      g_clear_pointer (&self->start_vertices, g_array_unref);
      self->start_vertices = g_array_copy (o->vertices);
      select_item (self, SEL_OBSTACLE, item, 0);
    }
  else if (hit_segment (self, px, py, &item, &sub))
    self->drag = DRAG_CLAIMED;   /* maybe a double-click's first press: no marker */

  if (self->drag == DRAG_NONE)
    {
      if (self->sel != SEL_NONE)
        select_item (self, SEL_NONE, 0, 0);
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->item = item;
  self->sub = sub;
  if (self->drag == DRAG_NODE || self->drag == DRAG_VERTEX || self->drag == DRAG_OBSTACLE)
    fr_scene_begin_edit (self->scene);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
drag_update_cb (FrEditor       *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  double x, z;

  if (!has_model (self))
    return;
  fr_view_widget_to_model (view_of (self), self->press_px + dx, self->press_py + dy, &x, &z);
  switch (self->drag)
    {
    case DRAG_NODE:
      move_node (self, x, z);
      model_changed (self);
      break;
    case DRAG_VERTEX:
      move_vertex (self, x, z);
      model_changed (self);
      break;
    case DRAG_OBSTACLE:
      move_obstacle (self, x - self->start_x, z - self->start_z);
      model_changed (self);
      break;
    case DRAG_RECT:
      /* The rectangle stays on the plot, where the user sees it. */
      self->rect_px = self->press_px + dx;
      self->rect_py = self->press_py + dy;
      clamp_to_plot (self, &self->rect_px, &self->rect_py);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_POLYGON:
    case DRAG_CLAIMED:
    case DRAG_NONE:
    default:
      break;
    }
}

static void
drag_end_cb (FrEditor       *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  DragMode mode = self->drag;

  self->drag = DRAG_NONE;
  if (!has_model (self))
    return;
  switch (mode)
    {
    case DRAG_NODE:
      fr_scene_end_edit (self->scene, _("Move Node"));
      break;
    case DRAG_VERTEX:
      fr_scene_end_edit (self->scene, _("Reshape Obstacle"));
      break;
    case DRAG_OBSTACLE:
      fr_scene_end_edit (self->scene, _("Move Obstacle"));
      break;
    case DRAG_RECT:
      self->rect_px = self->press_px + dx;
      self->rect_py = self->press_py + dy;
      clamp_to_plot (self, &self->rect_px, &self->rect_py);
      if (fabs (self->rect_px - self->press_px) > 3.0 && fabs (self->rect_py - self->press_py) > 3.0)
        {
          FrModel *m = fr_scene_edit_model (self->scene);
          double x0, z0, x1, z1;
          gboolean kept;

          fr_view_widget_to_model (view_of (self), self->press_px, self->press_py, &x0, &z0);
          fr_view_widget_to_model (view_of (self), self->rect_px, self->rect_py, &x1, &z1);
          fr_scene_begin_edit (self->scene);
          g_ptr_array_add (m->obstacles,
                           fr_obstacle_new_rectangle (x0, z0, x1, z1, self->obstacle_velocity));
          /* As a polygon: one the scene refuses is not kept. */
          if (!(kept = model_changed (self)))
            g_ptr_array_remove_index (m->obstacles, m->obstacles->len - 1);
          fr_scene_end_edit (self->scene, _("Add Obstacle"));
          if (kept)
            {
              select_item (self, SEL_OBSTACLE, m->obstacles->len - 1, 0);
              /* One obstacle a tool, as in drawing programs: the next drag
               * on a handle moves it rather than drawing another. */
              fr_editor_set_tool (self, FR_EDITOR_TOOL_SELECT);
            }
        }
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_POLYGON:
    case DRAG_CLAIMED:
    case DRAG_NONE:
    default:
      break;
    }
}

/* The pointer's place, for the polygon's rubber band and for the wheel:
 * scroll events carry no position in GTK 4. */
static void
motion_cb (FrEditor                 *self,
           double                    px,
           double                    py,
           GtkEventControllerMotion *controller)
{
  self->hover_px = px;
  self->hover_py = py;
  self->hover_inside = TRUE;
  if (self->polygon != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (FrEditor                 *self,
          GtkEventControllerMotion *controller)
{
  self->hover_inside = FALSE;
}

/* While a polygon is drawn: Enter closes it, Backspace takes back its
 * last vertex, Escape drops it. */
static gboolean
key_pressed_cb (FrEditor              *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  if (self->polygon == NULL)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      fr_editor_close_polygon (self);
      return TRUE;
    case GDK_KEY_BackSpace:
      g_array_set_size (self->polygon, self->polygon->len - 1);
      if (self->polygon->len == 0)
        g_clear_pointer (&self->polygon, g_array_unref);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    case GDK_KEY_Escape:
      return fr_editor_cancel (self);
    default:
      return FALSE;
    }
}

/* With the Select tool, scrolling over a layer scales its top velocity;
 * Ctrl+scroll, or scrolling outside the layers or over a gutter, zooms as
 * usual (this handler runs before the canvas's, in the capture phase,
 * and leaves those to it).  A burst of steps is one undo step. */
static gboolean
scroll_cb (FrEditor                 *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double x, z, old_v;
  guint layer;
  FrLayer *l;

  if (!self->active || self->tool != FR_EDITOR_TOOL_SELECT || !has_model (self) || dy == 0.0 ||
      (state & GDK_CONTROL_MASK) || !self->hover_inside ||
      !in_plot (self, self->hover_px, self->hover_py))
    return FALSE;
  fr_view_widget_to_model (view_of (self), self->hover_px, self->hover_py, &x, &z);
  if (!layer_at (self, x, z, &layer))
    return FALSE;
  if (self->scroll_end_id == 0)
    fr_scene_begin_edit (self->scene);
  else
    g_source_remove (self->scroll_end_id);
  self->scroll_end_id = g_timeout_add (600, scroll_end_cb, self);
  l = g_ptr_array_index (fr_scene_edit_model (self->scene)->layers, layer);
  old_v = l->v_top;
  l->v_top *= pow (VELOCITY_STEP, -dy);
  /* A step the model refuses (below the least velocity a layer may have)
   * is taken back: the model kept it, invalid, under the picture of the
   * last valid one, and saved a file that would not open. */
  if (!model_changed (self))
    l->v_top = old_v;
  return TRUE;
}

static void
scene_changed_cb (FrEditor *self,
                  guint     what,
                  FrScene  *scene)
{
  const FrModel *m = fr_scene_get_model (scene);
  guint shape[3];

  /* A selection is held by index: once another model, or the model's
   * shape changed by anything but the editor's own edit (which selects
   * anew after it), the index may name another node or obstacle, which
   * Delete would then remove (undo of a node's insertion passed the
   * selection to its neighbour). */
  if (m != NULL)
    model_shape (m, self->sel == SEL_NODE ? self->sel_item : G_MAXUINT, shape);
  if (self->sel != SEL_NONE &&
      (m == NULL || (what & FR_SCENE_CHANGED_MODEL) ||
       memcmp (shape, self->sel_shape, sizeof shape) != 0))
    {
      self->sel = SEL_NONE;
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------- drawing */

static void
fr_editor_snapshot (GtkWidget   *widget,
                    GtkSnapshot *snapshot)
{
  FrEditor *self = FR_EDITOR (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  FrPlotLayout layout;
  FrClipPath path;
  FrRect guard;
  const FrModel *m;
  cairo_t *cr;

  /* The model's outlines are the canvas's (under rays and markers); the
   * overlay adds what editing needs on top: the selection and handles. */
  if (!self->active || !has_model (self) || width <= 0 || height <= 0)
    return;
  m = fr_scene_get_model (self->scene);
  /* Only over the plot, as the field: the gutters keep the axes' labels
   * and the colour bar clear however far the view is zoomed. */
  fr_canvas_get_plot_layout (self->canvas, &layout);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (layout.plot.x, layout.plot.y,
                                                                 layout.plot.width, layout.plot.height));
  cairo_rectangle (cr, layout.plot.x, layout.plot.y, layout.plot.width, layout.plot.height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* Paths reach cairo cut to a guard just outside the plot, and handles
   * off it are left out: zoomed in far, cairo's fixed point drew a line
   * from points 1e8 pixels away at the wrong slope (fr-clip.h). */
  guard = fr_clip_grown (&layout.plot, FR_CLIP_GUARD_MARGIN);

  /* Obstacles: the selected one's outline, every one's vertices. */
  for (guint i = 0; i < m->obstacles->len; i++)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, i);

      if (self->sel == SEL_OBSTACLE && self->sel_item == i)
        {
          const double w = 2.5;
          FrRect c;

          /* Cut as the canvas cuts the outline it highlights: at the
           * model's edge grown by half its width.  The vertices' handles
           * below stay in the plot, where one off the model can still be
           * grabbed. */
          fr_plot_layout_model_line_clip (view_of (self), self->scene, w, &c);
          /* Yellow before the save: its handles take it too. */
          cairo_set_source_rgba (cr, 1.0, 0.92, 0.2, 1.0);
          cairo_save (cr);
          if (fr_clip_rect (&c, &guard, &c))
            cairo_rectangle (cr, c.x, c.y, c.width, c.height);
          cairo_clip (cr);
          fr_clip_path_init (&path, cr, &guard);
          for (guint k = 0; k <= o->vertices->len; k++)
            {
              const FrVertex *v = &g_array_index (o->vertices, FrVertex, k % o->vertices->len);
              double px, py;

              fr_view_model_to_widget (view_of (self), v->x, v->z, &px, &py);
              fr_clip_path_line_to (&path, px, py);
            }
          cairo_set_line_width (cr, w);
          cairo_stroke (cr);
          cairo_restore (cr);
        }
      else if (o->velocity > 0)
        cairo_set_source_rgba (cr, 1.0, 0.65, 0.1, 1.0);
      else
        cairo_set_source_rgba (cr, 0.85, 0.85, 0.85, 1.0);
      for (guint k = 0; k < o->vertices->len; k++)
        {
          const FrVertex *v = &g_array_index (o->vertices, FrVertex, k);
          double px, py;

          fr_view_model_to_widget (view_of (self), v->x, v->z, &px, &py);
          if (!fr_clip_holds (&guard, px, py))
            continue;
          cairo_rectangle (cr, px - 3, py - 3, 6, 6);
          cairo_fill (cr);
        }
    }

  /* Interface nodes as squares. */
  for (guint i = 0; i < m->layers->len; i++)
    {
      const FrLayer *l = g_ptr_array_index (m->layers, i);

      for (guint k = 0; k < l->nodes->len; k++)
        {
          const FrVertex *v = &g_array_index (l->nodes, FrVertex, k);
          gboolean selected = self->sel == SEL_NODE && self->sel_item == i && self->sel_sub == k;
          double px, py;

          fr_view_model_to_widget (view_of (self), v->x, v->z, &px, &py);
          if (!fr_clip_holds (&guard, px, py))
            continue;
          cairo_rectangle (cr, px - 4.5, py - 4.5, 9, 9);
          cairo_set_source_rgba (cr, 0, 0, 0, 0.8);
          cairo_fill_preserve (cr);
          if (selected)
            cairo_set_source_rgba (cr, 1.0, 0.92, 0.2, 1.0);
          else
            cairo_set_source_rgba (cr, 1, 1, 1, 1);
          cairo_set_line_width (cr, 1.5);
          cairo_stroke (cr);
        }
    }

  if (self->polygon != NULL)
    {
      static const double dash[] = { 4.0, 3.0 };

      fr_clip_path_init (&path, cr, &guard);
      for (guint k = 0; k < self->polygon->len; k++)
        {
          const FrVertex *v = &g_array_index (self->polygon, FrVertex, k);
          double px, py;

          fr_view_model_to_widget (view_of (self), v->x, v->z, &px, &py);
          fr_clip_path_line_to (&path, px, py);
        }
      fr_clip_path_line_to (&path, self->hover_px, self->hover_py);
      cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
      cairo_set_line_width (cr, 1.0);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0.0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0.0);
      for (guint k = 0; k < self->polygon->len; k++)
        {
          const FrVertex *v = &g_array_index (self->polygon, FrVertex, k);
          double px, py;

          fr_view_model_to_widget (view_of (self), v->x, v->z, &px, &py);
          if (fr_clip_holds (&guard, px, py))
            cairo_rectangle (cr, px - 3, py - 3, 6, 6);
        }
      cairo_fill (cr);
    }

  if (self->drag == DRAG_RECT)
    {
      cairo_rectangle (cr, MIN (self->press_px, self->rect_px), MIN (self->press_py, self->rect_py),
                       fabs (self->rect_px - self->press_px), fabs (self->rect_py - self->press_py));
      cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
      cairo_set_line_width (cr, 1.0);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

/* ------------------------------------------------------------- GObject */

static void
attach_controllers (FrEditor *self)
{
  GtkGesture *drag;
  GtkEventController *scroll, *motion, *key;

  /* Capture phase: we see presses before the canvas's own gesture and
   * claim those on model items; the rest we deny, and the canvas places
   * markers and pans as before. */
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drag), GTK_PHASE_CAPTURE);
  g_signal_connect_object (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (drag, "drag-update", G_CALLBACK (drag_update_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (drag, "drag-end", G_CALLBACK (drag_end_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), GTK_EVENT_CONTROLLER (drag));

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL |
                                            GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect_object (scroll, "scroll", G_CALLBACK (scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), scroll);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_object (motion, "enter", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (motion, "motion", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (motion, "leave", G_CALLBACK (leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), motion);

  key = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect_object (key, "key-pressed", G_CALLBACK (key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), key);

  g_signal_connect_object (self->canvas, "view-changed", G_CALLBACK (gtk_widget_queue_draw), self,
                           G_CONNECT_SWAPPED);
}

static void
fr_editor_dispose (GObject *object)
{
  FrEditor *self = (FrEditor *)object;

  end_scroll_burst (self);
  if (self->canvas != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->canvas), (gpointer *) &self->canvas);
  self->canvas = NULL;
  g_clear_object (&self->scene);
  g_clear_pointer (&self->start_vertices, g_array_unref);
  g_clear_pointer (&self->polygon, g_array_unref);

  G_OBJECT_CLASS (fr_editor_parent_class)->dispose (object);
}

static void
fr_editor_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  FrEditor *self = FR_EDITOR (object);

  switch (prop_id)
    {
    case PROP_CANVAS:
      g_return_if_fail (self->canvas == NULL);
      self->canvas = g_value_get_object (value);
      if (self->canvas != NULL)
        {
          g_object_add_weak_pointer (G_OBJECT (self->canvas), (gpointer *) &self->canvas);
          attach_controllers (self);
        }
      break;
    case PROP_ACTIVE:
      fr_editor_set_active (self, g_value_get_boolean (value));
      break;
    case PROP_TOOL:
      fr_editor_set_tool (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fr_editor_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  FrEditor *self = FR_EDITOR (object);

  switch (prop_id)
    {
    case PROP_CANVAS:
      g_value_set_object (value, self->canvas);
      break;
    case PROP_ACTIVE:
      g_value_set_boolean (value, self->active);
      break;
    case PROP_TOOL:
      g_value_set_enum (value, self->tool);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fr_editor_class_init (FrEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_editor_dispose;
  object_class->set_property = fr_editor_set_property;
  object_class->get_property = fr_editor_get_property;
  widget_class->snapshot = fr_editor_snapshot;

  properties[PROP_CANVAS] =
    g_param_spec_object ("canvas", NULL, NULL, FR_TYPE_CANVAS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Whether presses edit the model, and with which tool: the model
   * panel's tool buttons show them, whatever switched them. */
  properties[PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOL] =
    g_param_spec_enum ("tool", NULL, NULL, FR_TYPE_EDITOR_TOOL, FR_EDITOR_TOOL_SELECT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * FrEditor::selection-changed:
   *
   * The selected node's layer or the selected obstacle changed.
   */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
fr_editor_init (FrEditor *self)
{
  /* Pointer events go through to the canvas, whose controllers we add. */
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  self->obstacle_velocity = 0.0;
}

/* ------------------------------------------------------------- public API */

void
fr_editor_set_scene (FrEditor *self,
                     FrScene  *scene)
{
  g_return_if_fail (FR_IS_EDITOR (self));

  end_scroll_burst (self);
  if (self->scene != NULL)
    g_signal_handlers_disconnect_by_data (self->scene, self);
  g_set_object (&self->scene, scene);
  if (scene != NULL)
    g_signal_connect_object (scene, "changed", G_CALLBACK (scene_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Editing on: presses on nodes, vertices and obstacles edit the model. */
void
fr_editor_set_active (FrEditor *self,
                      gboolean  active)
{
  gboolean changed;

  g_return_if_fail (FR_IS_EDITOR (self));

  active = !!active;
  changed = self->active != active;
  self->active = active;
  if (!active)
    {
      end_scroll_burst (self);
      fr_editor_cancel (self);
      select_item (self, SEL_NONE, 0, 0);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
}

gboolean
fr_editor_get_active (FrEditor *self)
{
  g_return_val_if_fail (FR_IS_EDITOR (self), FALSE);
  return self->active;
}

/* What presses on the model do while editing: select and drag, or draw
 * one obstacle. */
void
fr_editor_set_tool (FrEditor     *self,
                    FrEditorTool  tool)
{
  g_return_if_fail (FR_IS_EDITOR (self));
  g_return_if_fail (tool <= FR_EDITOR_TOOL_POLYGON);

  if (tool != FR_EDITOR_TOOL_POLYGON)
    fr_editor_cancel (self);
  if (self->tool == tool)
    return;
  self->tool = tool;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL]);
}

FrEditorTool
fr_editor_get_tool (FrEditor *self)
{
  g_return_val_if_fail (FR_IS_EDITOR (self), FR_EDITOR_TOOL_SELECT);
  return self->tool;
}

/* The velocity of obstacles drawn from now on (0: impermeable). */
void
fr_editor_set_obstacle_velocity (FrEditor *self,
                                 double    velocity)
{
  g_return_if_fail (FR_IS_EDITOR (self));
  self->obstacle_velocity = MAX (velocity, 0.0);
}

gboolean
fr_editor_is_dragging (FrEditor *self)
{
  g_return_val_if_fail (FR_IS_EDITOR (self), FALSE);
  return self->drag == DRAG_NODE || self->drag == DRAG_VERTEX || self->drag == DRAG_OBSTACLE;
}

/* Deletes the selected node (an interface keeps two) or obstacle, as one
 * undo step.  FALSE when nothing of the model is selected. */
gboolean
fr_editor_delete_selection (FrEditor *self)
{
  FrModel *m;

  g_return_val_if_fail (FR_IS_EDITOR (self), FALSE);

  if (!self->active || !has_model (self) || self->sel == SEL_NONE)
    return FALSE;
  m = fr_scene_edit_model (self->scene);
  fr_scene_begin_edit (self->scene);
  if (self->sel == SEL_NODE)
    {
      FrLayer *l = g_ptr_array_index (m->layers, self->sel_item);

      if (l->nodes->len > 2)
        g_array_remove_index (l->nodes, self->sel_sub);
    }
  else
    g_ptr_array_remove_index (m->obstacles, self->sel_item);
  model_changed (self);
  fr_scene_end_edit (self->scene, self->sel == SEL_NODE ? _("Delete Node") : _("Delete Obstacle"));
  select_item (self, SEL_NONE, 0, 0);
  return TRUE;
}

/* Drops the polygon being drawn.  FALSE when none was. */
gboolean
fr_editor_cancel (FrEditor *self)
{
  g_return_val_if_fail (FR_IS_EDITOR (self), FALSE);

  if (self->polygon == NULL)
    return FALSE;
  g_clear_pointer (&self->polygon, g_array_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

/* Escape during a drag: a node, a vertex or an obstacle goes back to where
 * the drag found it, a rectangle being drawn is dropped, and the rest of
 * the drag changes nothing; no undo step.  FALSE when nothing was dragged. */
gboolean
fr_editor_cancel_drag (FrEditor *self)
{
  DragMode mode;

  g_return_val_if_fail (FR_IS_EDITOR (self), FALSE);

  mode = self->drag;
  if (mode != DRAG_NODE && mode != DRAG_VERTEX && mode != DRAG_OBSTACLE && mode != DRAG_RECT)
    return FALSE;
  if (mode != DRAG_RECT && (self->scene == NULL || !fr_scene_cancel_edit (self->scene)))
    return FALSE;
  self->drag = DRAG_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

/* Closes the polygon being drawn into an obstacle, as one undo step; one
 * of fewer than three vertices is dropped.  FALSE when none was drawn. */
gboolean
fr_editor_close_polygon (FrEditor *self)
{
  g_autoptr(GArray) polygon = NULL;
  FrObstacle *o;
  FrModel *m;

  g_return_val_if_fail (FR_IS_EDITOR (self), FALSE);

  if (self->polygon == NULL)
    return FALSE;
  polygon = g_steal_pointer (&self->polygon);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (polygon->len < 3 || !has_model (self))
    return TRUE;
  m = fr_scene_edit_model (self->scene);
  o = fr_obstacle_new (FR_OBSTACLE_POLYGON, self->obstacle_velocity);
  g_array_append_vals (o->vertices, polygon->data, polygon->len);
  fr_scene_begin_edit (self->scene);
  g_ptr_array_add (m->obstacles, o);
  if (!model_changed (self))
    g_ptr_array_remove_index (m->obstacles, m->obstacles->len - 1);
  fr_scene_end_edit (self->scene, _("Add Obstacle"));
  if (m->obstacles->len > 0 && g_ptr_array_index (m->obstacles, m->obstacles->len - 1) == o)
    {
      select_item (self, SEL_OBSTACLE, m->obstacles->len - 1, 0);
      /* As after a rectangle: back to Select. */
      fr_editor_set_tool (self, FR_EDITOR_TOOL_SELECT);
    }
  return TRUE;
}

/* The layer of the selected interface node, or -1. */
int
fr_editor_get_selected_layer (FrEditor *self)
{
  g_return_val_if_fail (FR_IS_EDITOR (self), -1);
  return self->sel == SEL_NODE ? (int) self->sel_item : -1;
}

/* The selected obstacle, or -1. */
int
fr_editor_get_selected_obstacle (FrEditor *self)
{
  g_return_val_if_fail (FR_IS_EDITOR (self), -1);
  return self->sel == SEL_OBSTACLE ? (int) self->sel_item : -1;
}
