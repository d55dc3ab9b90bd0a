/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-time-curve"

#include "config.h"

#include "fr-time-curve.h"

#define HEIGHT 190

struct _FrTimeCurve
{
  GtkWidget   parent_instance;

  FrTimePlot *plot;
};

G_DEFINE_FINAL_TYPE (FrTimeCurve, fr_time_curve, GTK_TYPE_WIDGET)

enum
{
  RECEIVER_CLICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
fr_time_curve_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  FrTimeCurve *self = FR_TIME_CURVE (widget);
  const double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  GdkRGBA fg;
  cairo_t *cr;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  fr_time_plot_draw (self->plot, cr, gtk_widget_get_pango_context (widget), w, h,
                     (const double[3]) { fg.red, fg.green, fg.blue });
  cairo_destroy (cr);

  /* For the GUI tests: what was drawn. */
  g_debug ("curve axis=%s t=0,%.9g points=%u", fr_time_plot_is_along_z (self->plot) ? "z" : "x",
           fr_time_plot_get_t_top (self->plot), fr_time_plot_get_n_points (self->plot));
}

/* Hovering a dot names its receiver and T; the line between two, its
 * apparent velocity. */
static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  FrTimeCurve *self = FR_TIME_CURVE (widget);
  g_autofree char *text = NULL;

  if (keyboard_mode ||
      !fr_time_plot_describe_at (self->plot, gtk_widget_get_width (widget),
                                 gtk_widget_get_height (widget), x, y, &text))
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  /* For the GUI tests: what the tooltip says. */
  g_debug ("curve tooltip %s", text);
  return TRUE;
}

/* A click on a dot: its receiver, for the panel to select. */
static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            FrTimeCurve     *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  const gint receiver = fr_time_plot_receiver_at (self->plot, gtk_widget_get_width (widget),
                                                  gtk_widget_get_height (widget), x, y);

  if (receiver >= 0)
    g_signal_emit (self, signals[RECEIVER_CLICKED], 0, (guint) receiver);
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

  fr_time_plot_free (self->plot);
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

  /* A receiver's dot clicked: its index in the scene's receivers. */
  signals[RECEIVER_CLICKED] = g_signal_new ("receiver-clicked", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
fr_time_curve_init (FrTimeCurve *self)
{
  self->plot = fr_time_plot_new ();
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
fr_time_curve_new (void)
{
  return g_object_new (FR_TYPE_TIME_CURVE, NULL);
}

void
fr_time_curve_set_unit (FrTimeCurve  *self,
                        FrLengthUnit  unit)
{
  g_return_if_fail (FR_IS_TIME_CURVE (self));

  fr_time_plot_set_unit (self->plot, unit);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
fr_time_curve_set_selected (FrTimeCurve *self,
                            gint         receiver)
{
  g_return_if_fail (FR_IS_TIME_CURVE (self));

  fr_time_plot_set_selected (self->plot, receiver);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
fr_time_curve_set_scene (FrTimeCurve    *self,
                         FrScene        *scene,
                         const FrResult *result)
{
  g_return_if_fail (FR_IS_TIME_CURVE (self));

  fr_time_plot_set_scene (self->plot, scene, result);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
