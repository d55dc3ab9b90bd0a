/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-time-curve"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-time-curve.h"
#include "fr-view.h"

/* The plot's margins in pixels: the T labels at the left, the x labels
 * and the x title below. */
#define MARGIN_LEFT   44.0
#define MARGIN_RIGHT  10.0
#define MARGIN_TOP    22.0
#define MARGIN_BOTTOM 36.0
#define HEIGHT        190
#define DOT_RADIUS    3.5

/* The canvas's marker colours (fr-canvas.c). */
static const double receiver_rgb[3] = { 0.2, 0.85, 1.0 };
static const double source_rgb[3] = { 1.0, 0.3, 0.08 };

typedef struct
{
  double x, t;
} CurvePoint;

struct _FrTimeCurve
{
  GtkWidget     parent_instance;

  double        x_min, x_max;
  FrLengthUnit  unit;
  GArray       *points;     /* CurvePoint, reached receivers, by x */
  GArray       *sources;    /* double x */
  double        t_top;      /* the T axis's top: kept while no times are shown */
};

G_DEFINE_FINAL_TYPE (FrTimeCurve, fr_time_curve, GTK_TYPE_WIDGET)

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  const CurvePoint *p = a, *q = b;

  return (p->x > q->x) - (p->x < q->x);
}

/* Text at (x, y), its anchor given by ax, ay in [0, 1] of its size. */
static void
draw_text (GtkWidget  *widget,
           cairo_t    *cr,
           const char *text,
           double      x,
           double      y,
           double      ax,
           double      ay)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, round (x - ax * w), round (y - ay * h));
  pango_cairo_show_layout (cr, layout);
}

/* An axis title: "x (km)", or "x" without a unit. */
static char *
axis_title (const char *name,
            const char *unit)
{
  return unit != NULL && *unit != '\0' ? g_strdup_printf ("%s (%s)", name, unit) : g_strdup (name);
}

static void
fr_time_curve_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  FrTimeCurve *self = FR_TIME_CURVE (widget);
  const double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  const double px0 = MARGIN_LEFT, px1 = w - MARGIN_RIGHT, py0 = MARGIN_TOP, py1 = h - MARGIN_BOTTOM;
  const double span = self->x_max - self->x_min;
  g_autofree char *x_title = NULL, *t_title = NULL;
  GdkRGBA fg;
  cairo_t *cr;
  double step;

  if (px1 - px0 < 20.0 || py1 - py0 < 20.0 || !(span > 0.0))
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_line_width (cr, 1.0);

#define SX(x) (px0 + ((x) - self->x_min) / span * (px1 - px0))
#define SY(t) (py1 - (t) / self->t_top * (py1 - py0))

  /* Grid lines and tick labels: x below, T at the left. */
  step = fr_view_nice_step (span, 4);
  for (double v = ceil (self->x_min / step - 1e-9) * step; v <= self->x_max + 1e-9 * step; v += step)
    {
      char buf[32];

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
      cairo_move_to (cr, round (SX (v)) + 0.5, py0);
      cairo_line_to (cr, round (SX (v)) + 0.5, py1);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
      g_snprintf (buf, sizeof buf, "%g", fabs (v) < 1e-9 * step ? 0.0 : v);
      draw_text (widget, cr, buf, SX (v), py1 + 3, 0.5, 0.0);
    }
  step = fr_view_nice_step (self->t_top, 3);
  for (double v = 0.0; v <= self->t_top + 1e-9 * step; v += step)
    {
      char buf[32];

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
      cairo_move_to (cr, px0, round (SY (v)) + 0.5);
      cairo_line_to (cr, px1, round (SY (v)) + 0.5);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
      g_snprintf (buf, sizeof buf, "%g", v);
      draw_text (widget, cr, buf, px0 - 4, SY (v), 1.0, 0.5);
    }
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
  cairo_rectangle (cr, px0 + 0.5, py0 + 0.5, px1 - px0 - 1.0, py1 - py0 - 1.0);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  /* As the marker list heads its columns; T in seconds where lengths
   * have a unit. */
  x_title = axis_title (C_("marker position", "x"),
                        self->unit != FR_LENGTH_UNIT_NONE ? fr_length_unit_get_id (self->unit) : NULL);
  t_title = axis_title (C_("traveltime", "T"), self->unit != FR_LENGTH_UNIT_NONE ? "s" : NULL);
  draw_text (widget, cr, x_title, px1, h - 1, 1.0, 1.0);
  draw_text (widget, cr, t_title, px0 - 4, py0 - 4, 1.0, 1.0);

  /* The curve, through the receivers by x, and each receiver a dot. */
  /* A receiver at the model's edge shows whole. */
  cairo_rectangle (cr, px0 - DOT_RADIUS - 1, py0 - DOT_RADIUS - 1, px1 - px0 + 2 * DOT_RADIUS + 2,
                   py1 - py0 + 2 * DOT_RADIUS + 2);
  cairo_clip (cr);
  if (self->points->len > 1)
    {
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      cairo_set_line_width (cr, 1.5);
      for (guint i = 0; i < self->points->len; i++)
        {
          const CurvePoint *p = &g_array_index (self->points, CurvePoint, i);

          (i == 0 ? cairo_move_to : cairo_line_to) (cr, SX (p->x), SY (p->t));
        }
      cairo_stroke (cr);
    }
  cairo_set_line_width (cr, 1.0);
  for (guint i = 0; i < self->points->len; i++)
    {
      const CurvePoint *p = &g_array_index (self->points, CurvePoint, i);

      cairo_arc (cr, SX (p->x), SY (p->t), DOT_RADIUS, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, receiver_rgb[0], receiver_rgb[1], receiver_rgb[2]);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      cairo_stroke (cr);
    }
  /* The sources, as triangles on the x axis pointing up at T = 0. */
  for (guint i = 0; i < self->sources->len; i++)
    {
      const double sx = SX (g_array_index (self->sources, double, i));

      cairo_move_to (cr, sx, py1 - 7);
      cairo_line_to (cr, sx - 5, py1 + 1);
      cairo_line_to (cr, sx + 5, py1 + 1);
      cairo_close_path (cr);
      cairo_set_source_rgb (cr, source_rgb[0], source_rgb[1], source_rgb[2]);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);

  /* For the GUI tests: what was drawn. */
  g_debug ("curve x=%.9g,%.9g t=0,%.9g points=%u sources=%u", self->x_min, self->x_max,
           self->t_top, self->points->len, self->sources->len);
#undef SX
#undef SY
}

static void
fr_time_curve_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? HEIGHT : 160;
}

static void
fr_time_curve_finalize (GObject *object)
{
  FrTimeCurve *self = FR_TIME_CURVE (object);

  g_array_unref (self->points);
  g_array_unref (self->sources);
  G_OBJECT_CLASS (fr_time_curve_parent_class)->finalize (object);
}

static void
fr_time_curve_class_init (FrTimeCurveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = fr_time_curve_finalize;
  widget_class->snapshot = fr_time_curve_snapshot;
  widget_class->measure = fr_time_curve_measure;
  gtk_widget_class_set_css_name (widget_class, "frtimecurve");
}

static void
fr_time_curve_init (FrTimeCurve *self)
{
  self->points = g_array_new (FALSE, FALSE, sizeof (CurvePoint));
  self->sources = g_array_new (FALSE, FALSE, sizeof (double));
  self->x_min = 0.0;
  self->x_max = 1.0;
  self->t_top = 1.0;
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
fr_time_curve_new (void)
{
  return g_object_new (FR_TYPE_TIME_CURVE, NULL);
}

void
fr_time_curve_set_range (FrTimeCurve *self,
                         double       x_min,
                         double       x_max)
{
  g_return_if_fail (FR_IS_TIME_CURVE (self));

  if (self->x_min == x_min && self->x_max == x_max)
    return;
  self->x_min = x_min;
  self->x_max = x_max;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
fr_time_curve_set_unit (FrTimeCurve  *self,
                        FrLengthUnit  unit)
{
  g_return_if_fail (FR_IS_TIME_CURVE (self));

  self->unit = unit;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
fr_time_curve_set_points (FrTimeCurve  *self,
                          const double *x,
                          const double *t,
                          guint         n,
                          const double *sources_x,
                          guint         n_sources)
{
  double t_max = 0.0;

  g_return_if_fail (FR_IS_TIME_CURVE (self));

  g_array_set_size (self->points, 0);
  for (guint i = 0; i < n; i++)
    if (isfinite (t[i]))
      {
        const CurvePoint p = { x[i], t[i] };

        g_array_append_val (self->points, p);
        t_max = MAX (t_max, t[i]);
      }
  g_array_sort (self->points, compare_points);
  g_array_set_size (self->sources, 0);
  g_array_append_vals (self->sources, sources_x, n_sources);
  /* The T axis ends on a round value above the latest arrival; with no
   * times (a solve under way) it stays, so the axes do not jump. */
  if (t_max > 0.0)
    {
      const double step = fr_view_nice_step (t_max, 3);

      self->t_top = MAX (step, ceil (t_max * 1.05 / step) * step);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
