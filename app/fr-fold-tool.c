/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-fold-tool"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-fold-tool.h"
#include "fr-lines.h"

/* Pixels within which a press grabs a handle. */
#define PICK_RADIUS_PX 12.0

/* An arrow shorter than this (ψa = 0, or nearly) has its tip on its base:
 * the base is then drawn as a ring this far out around the tip, a press
 * within TIP_PX of the middle grabs the tip (a drag out gives ψa its
 * direction) and one on the ring, out to RING_PX + RING_SLACK_PX, the
 * base.  Pixels. */
#define SHORT_ARROW_PX 10.0
#define TIP_PX         8.0
#define RING_PX        13.0
#define RING_SLACK_PX  4.0

typedef enum
{
  GRAB_NONE,
  GRAB_TIP,
  GRAB_BASE,
  GRAB_NODE,
} Grab;

struct _FrFoldTool
{
  GObject       parent_instance;

  FrFoldState  *state;
  FrScene      *scene;
  Grab          grab;
  guint         node;
  double        off_x, off_z;   /* handle minus pointer, model units */
  double        base_x, base_z; /* the arrow's base at the press (Escape puts it back) */
};

G_DEFINE_FINAL_TYPE (FrFoldTool, fr_fold_tool, G_TYPE_OBJECT)

/* Colours: the horizon orange, folded horizons white on a dark halo, the
 * arrow yellow, characteristic points cyan, rays magenta (fr-canvas.c). */
static const float horizon_color[4] = { 1.00f, 0.55f, 0.00f, 1.0f };
static const float folded_color[4]  = { 1.00f, 1.00f, 1.00f, 1.0f };
static const float halo_color[4]    = { 0.00f, 0.00f, 0.00f, 0.55f };
static const float arrow_color[4]   = { 1.00f, 0.92f, 0.20f, 1.0f };
static const float base_color[4]    = { 1.00f, 1.00f, 1.00f, 1.0f };
static const float ring_color[4]    = { 0.00f, 0.00f, 0.00f, 0.85f };
static const float point_color[4]   = { 0.20f, 0.85f, 1.00f, 1.0f };

static void
fr_fold_tool_dispose (GObject *object)
{
  FrFoldTool *self = (FrFoldTool *)object;

  g_clear_object (&self->state);
  g_clear_object (&self->scene);

  G_OBJECT_CLASS (fr_fold_tool_parent_class)->dispose (object);
}

static void
fr_fold_tool_class_init (FrFoldToolClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = fr_fold_tool_dispose;
}

static void
fr_fold_tool_init (FrFoldTool *self)
{
}

FrFoldTool *
fr_fold_tool_new (FrFoldState *state,
                  FrScene     *scene)
{
  FrFoldTool *self;

  g_return_val_if_fail (FR_IS_FOLD_STATE (state), NULL);
  g_return_val_if_fail (FR_IS_SCENE (scene), NULL);

  self = g_object_new (FR_TYPE_FOLD_TOOL, NULL);
  self->state = g_object_ref (state);
  self->scene = g_object_ref (scene);
  return self;
}

FrFoldState *
fr_fold_tool_get_state (FrFoldTool *self)
{
  g_return_val_if_fail (FR_IS_FOLD_TOOL (self), NULL);
  return self->state;
}

/* Model units of arrow per unit of ψa: |ψa| = F spans a quarter of the
 * model's smaller side. */
double
fr_fold_tool_arrow_length (FrFoldTool *self)
{
  double x0 = 0, z0 = 0, x1 = 1, z1 = 1;

  g_return_val_if_fail (FR_IS_FOLD_TOOL (self), 1.0);

  if (fr_scene_has_model (self->scene))
    fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  return 0.25 * MIN (x1 - x0, z1 - z0) / fr_fold_state_get_arrow_scale_speed (self->state);
}

/* The arrow's tip in model units. */
void
fr_fold_tool_arrow_tip (FrFoldTool *self,
                        double     *x,
                        double     *z)
{
  double bx, bz, ax, az, len;

  g_return_if_fail (FR_IS_FOLD_TOOL (self));

  fr_fold_state_get_arrow_base (self->state, &bx, &bz);
  fr_fold_state_get_psi_a (self->state, &ax, &az);
  len = fr_fold_tool_arrow_length (self);
  *x = bx + ax * len;
  *z = bz + az * len;
}

static gboolean
near_point (const FrView *view,
            double        px,
            double        py,
            double        x,
            double        z,
            double       *best)
{
  double hx, hy, d;

  fr_view_model_to_widget (view, x, z, &hx, &hy);
  d = hypot (hx - px, hy - py);
  if (d <= *best)
    {
      *best = d;
      return TRUE;
    }
  return FALSE;
}

/* Whether the arrow's tip lies on its base in view (ψa = 0 or nearly). */
static gboolean
arrow_is_short (const FrView *view,
                double        tx,
                double        tz,
                double        bx,
                double        bz)
{
  double ptx, pty, pbx, pby;

  fr_view_model_to_widget (view, tx, tz, &ptx, &pty);
  fr_view_model_to_widget (view, bx, bz, &pbx, &pby);
  return hypot (ptx - pbx, pty - pby) < SHORT_ARROW_PX;
}

/* Grabs the handle under (px, py) widget pixels: the arrow's tip first,
 * then its base (around the tip, a ring, when the arrow is too short to
 * hold both apart), then a horizon node.  FALSE when there is none. */
gboolean
fr_fold_tool_press (FrFoldTool   *self,
                    const FrView *view,
                    double        px,
                    double        py)
{
  double best = PICK_RADIUS_PX, tx, tz, bx, bz, mx, mz;
  const FrPoint *h;
  guint n;

  g_return_val_if_fail (FR_IS_FOLD_TOOL (self), FALSE);

  self->grab = GRAB_NONE;
  fr_view_widget_to_model (view, px, py, &mx, &mz);
  fr_fold_tool_arrow_tip (self, &tx, &tz);
  fr_fold_state_get_arrow_base (self->state, &bx, &bz);
  if (arrow_is_short (view, tx, tz, bx, bz))
    {
      double ring = RING_PX + RING_SLACK_PX;

      if (near_point (view, px, py, bx, bz, &ring))
        {
          double pbx, pby;

          fr_view_model_to_widget (view, bx, bz, &pbx, &pby);
          self->grab = hypot (px - pbx, py - pby) <= TIP_PX ? GRAB_TIP : GRAB_BASE;
          self->off_x = (self->grab == GRAB_TIP ? tx : bx) - mx;
          self->off_z = (self->grab == GRAB_TIP ? tz : bz) - mz;
          best = ring;   /* a node nearer than the ring takes the press from the base */
        }
    }
  else if (near_point (view, px, py, tx, tz, &best))
    {
      self->grab = GRAB_TIP;
      self->off_x = tx - mx;
      self->off_z = tz - mz;
    }
  else if (near_point (view, px, py, bx, bz, &best))
    {
      self->grab = GRAB_BASE;
      self->off_x = bx - mx;
      self->off_z = bz - mz;
    }
  h = fr_fold_state_get_horizon (self->state, &n);
  for (guint i = 0; self->grab != GRAB_TIP && i < n; i++)
    if (near_point (view, px, py, h[i].x, h[i].z, &best))
      {
        self->grab = GRAB_NODE;
        self->node = i;
        self->off_x = h[i].x - mx;
        self->off_z = h[i].z - mz;
      }
  /* A drag of the tip or a node is one undo step (ended on release). */
  if (self->grab != GRAB_NONE)
    {
      self->base_x = bx;
      self->base_z = bz;
      fr_fold_state_begin_edit (self->state);
    }
  return self->grab != GRAB_NONE;
}

/* Moves the grabbed handle to (px, py): the tip sets ψa (clamped by the
 * state), the base moves the arrow, a node reshapes the horizon. */
void
fr_fold_tool_drag (FrFoldTool   *self,
                   const FrView *view,
                   double        px,
                   double        py)
{
  double x, z, bx, bz, len;

  g_return_if_fail (FR_IS_FOLD_TOOL (self));

  fr_view_widget_to_model (view, px, py, &x, &z);
  x += self->off_x;
  z += self->off_z;
  switch (self->grab)
    {
    case GRAB_TIP:
      {
        double step;

        fr_fold_state_get_arrow_base (self->state, &bx, &bz);
        len = fr_fold_tool_arrow_length (self);
        /* To the decade below what a pixel moves ψa: the fields showed
         * 0.6766769392 after a drag, digits no hand can place. */
        step = pow (10.0, floor (log10 (1.0 / (view->scale * len))));
        fr_fold_state_set_psi_a (self->state, round ((x - bx) / len / step) * step,
                                 round ((z - bz) / len / step) * step);
      }
      break;
    case GRAB_BASE:
      fr_fold_state_set_arrow_base (self->state, x, z);
      break;
    case GRAB_NODE:
      {
        guint n;

        fr_fold_state_get_horizon (self->state, &n);
        if (self->node < n)
          fr_fold_state_move_node (self->state, self->node, x, z);
      }
      break;
    case GRAB_NONE:
    default:
      break;
    }
}

void
fr_fold_tool_release (FrFoldTool *self)
{
  g_return_if_fail (FR_IS_FOLD_TOOL (self));

  if (self->grab != GRAB_NONE)
    fr_fold_state_end_edit (self->state, self->grab == GRAB_TIP ? _("Change ψa")
                                         : self->grab == GRAB_NODE ? _("Move Horizon Node")
                                         : _("Move Arrow"));
  self->grab = GRAB_NONE;
}

/* Escape during a drag: the grabbed handle (ψa's tip, the arrow's base or
 * a horizon node) goes back to where the press found it, with no undo
 * step, and the rest of the drag moves nothing.  FALSE when nothing was
 * grabbed. */
gboolean
fr_fold_tool_cancel (FrFoldTool *self)
{
  g_return_val_if_fail (FR_IS_FOLD_TOOL (self), FALSE);

  if (self->grab == GRAB_NONE)
    return FALSE;
  /* The base is where the arrow is drawn, outside the state's edits. */
  if (self->grab == GRAB_BASE)
    fr_fold_state_set_arrow_base (self->state, self->base_x, self->base_z);
  fr_fold_state_cancel_edit (self->state);
  self->grab = GRAB_NONE;
  return TRUE;
}

gboolean
fr_fold_tool_is_dragging (FrFoldTool *self)
{
  g_return_val_if_fail (FR_IS_FOLD_TOOL (self), FALSE);
  return self->grab != GRAB_NONE;
}

/* A click on empty space: appends a horizon node, or with Shift adds a
 * point to trace a characteristic from. */
void
fr_fold_tool_click (FrFoldTool   *self,
                    const FrView *view,
                    double        px,
                    double        py,
                    gboolean      shift)
{
  double x, z, x0, z0, x1, z1;

  g_return_if_fail (FR_IS_FOLD_TOOL (self));

  if (!fr_scene_has_model (self->scene))
    return;
  fr_view_widget_to_model (view, px, py, &x, &z);
  fr_scene_get_bounds (self->scene, &x0, &z0, &x1, &z1);
  if (shift)
    {
      if (x >= x0 && x <= x1 && z >= z0 && z <= z1)
        {
          fr_fold_state_begin_edit (self->state);
          fr_fold_state_add_ray_point (self->state, x, z);
          fr_fold_state_end_edit (self->state, _("Trace Characteristic"));
        }
      return;
    }
  fr_fold_state_begin_edit (self->state);
  fr_fold_state_add_node (self->state, x, z);
  fr_fold_state_end_edit (self->state, _("Add Horizon Node"));
}

static void
push_arrow (GArray       *v,
            const FrView *view,
            double        bx,
            double        by,
            double        tx,
            double        ty,
            double        k,
            const float   color[4],
            double        width)
{
  double dx = tx - bx, dy = ty - by, len = hypot (dx, dy);

  /* Cut to the view: zoomed in far, the shaft's ends lie 1e7 px apart. */
  fr_lines_push_segment (v, view, bx, by, tx, ty, width * k, color);
  if (len > 1.0)
    {
      double ux = dx / len, uy = dy / len, head = MIN (14.0 * k, 0.6 * len);
      double c = cos (0.45), s = sin (0.45);

      fr_lines_push_segment (v, view, tx, ty, tx - head * (c * ux - s * uy),
                             ty - head * (s * ux + c * uy), width * k, color);
      fr_lines_push_segment (v, view, tx, ty, tx - head * (c * ux + s * uy),
                             ty - head * (-s * ux + c * uy), width * k, color);
    }
}

/* A circle of radius r around (x, y), widget pixels, as segments. */
static void
push_ring (GArray       *v,
           const FrView *view,
           double        x,
           double        y,
           double        r,
           double        width,
           const float   color[4])
{
  const int n = 32;

  for (int i = 0; i < n; i++)
    {
      double a0 = 2.0 * G_PI * i / n, a1 = 2.0 * G_PI * (i + 1) / n;

      fr_lines_push_segment (v, view, x + r * cos (a0), y + r * sin (a0),
                             x + r * cos (a1), y + r * sin (a1), width, color);
    }
}

/* Appends the lines of Folds mode to vertices, for view at size factor
 * k: the folded horizons of result (when it is a fold result), then the
 * starting horizon.  They belong to the model: the canvas clips them to
 * its rectangle (fr_plot_layout_model_rect), as it does the interfaces. */
void
fr_fold_tool_push_lines (FrFoldTool   *self,
                         const FrView *view,
                         double        k,
                         FrResult     *result,
                         GArray       *v)
{
  const FrPoint *h;
  guint n;

  g_return_if_fail (FR_IS_FOLD_TOOL (self));
  g_return_if_fail (v != NULL);

  if (result != NULL && result->ok && result->horizons != NULL)
    {
      for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; i < result->horizons->len; i++)
          {
            GArray *line = g_ptr_array_index (result->horizons, i);

            fr_lines_push_polyline (v, view, (const double *) line->data, line->len / 2,
                                    (pass == 0 ? 4.5 : 2.0) * k,
                                    pass == 0 ? halo_color : folded_color);
          }
    }

  h = fr_fold_state_get_horizon (self->state, &n);
  fr_lines_push_polyline (v, view, (const double *) h, n, 6.0 * k, halo_color);
  fr_lines_push_polyline (v, view, (const double *) h, n, 3.5 * k, horizon_color);
}

/* Appends the handles of Folds mode to vertices: the starting horizon's
 * nodes, the characteristics' points and the ψa arrow.  A node may lie
 * off the model (a click in the margin adds one there), and the canvas
 * keeps it drawn there so that it can be grabbed and brought back. */
void
fr_fold_tool_push_handles (FrFoldTool   *self,
                           const FrView *view,
                           double        k,
                           GArray       *v)
{
  const FrPoint *h, *pts;
  guint n, np;
  double bx, bz, tx, tz, pbx, pby, ptx, pty;

  g_return_if_fail (FR_IS_FOLD_TOOL (self));
  g_return_if_fail (v != NULL);

  h = fr_fold_state_get_horizon (self->state, &n);
  for (guint i = 0; i < n; i++)
    {
      double px, py;

      fr_view_model_to_widget (view, h[i].x, h[i].z, &px, &py);
      fr_lines_push_shape (v, FR_LINE_DISC, px, py, 7.5 * k, ring_color);
      fr_lines_push_shape (v, FR_LINE_DISC, px, py, 5.5 * k, horizon_color);
    }

  pts = fr_fold_state_get_ray_points (self->state, &np);
  for (guint i = 0; i < np; i++)
    {
      double px, py;

      fr_view_model_to_widget (view, pts[i].x, pts[i].z, &px, &py);
      fr_lines_push_shape (v, FR_LINE_DIAMOND, px, py, 11.0 * k, ring_color);
      fr_lines_push_shape (v, FR_LINE_DIAMOND, px, py, 8.5 * k, point_color);
    }

  fr_fold_state_get_arrow_base (self->state, &bx, &bz);
  fr_fold_tool_arrow_tip (self, &tx, &tz);
  fr_view_model_to_widget (view, bx, bz, &pbx, &pby);
  fr_view_model_to_widget (view, tx, tz, &ptx, &pty);
  push_arrow (v, view, pbx, pby, ptx, pty, k, ring_color, 6.0);
  push_arrow (v, view, pbx, pby, ptx, pty, k, arrow_color, 3.0);
  if (arrow_is_short (view, tx, tz, bx, bz))
    {
      /* ψa = 0: the base as a white ring around the tip, both in sight
       * and each to be grabbed (fr_fold_tool_press). */
      push_ring (v, view, pbx, pby, RING_PX * k, 5.0 * k, ring_color);
      push_ring (v, view, pbx, pby, RING_PX * k, 2.5 * k, base_color);
    }
  else
    {
      fr_lines_push_shape (v, FR_LINE_DISC, pbx, pby, 6.5 * k, ring_color);
      fr_lines_push_shape (v, FR_LINE_DISC, pbx, pby, 4.5 * k, base_color);
    }
  fr_lines_push_shape (v, FR_LINE_DISC, ptx, pty, 8.5 * k, ring_color);
  fr_lines_push_shape (v, FR_LINE_DISC, ptx, pty, 6.5 * k, arrow_color);
}
