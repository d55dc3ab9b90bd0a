/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-axes"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "fr-axes.h"
#include "fr-axes-draw.h"

struct _FrAxes
{
  GtkWidget  parent_instance;

  FrCanvas  *canvas;   /* weak: the canvas is our sibling in the overlay */
};

G_DEFINE_FINAL_TYPE (FrAxes, fr_axes, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CANVAS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
fr_axes_snapshot (GtkWidget   *widget,
                  GtkSnapshot *snapshot)
{
  FrAxes *self = FR_AXES (widget);
  FrPlotLayout layout;
  FrScene *scene;
  cairo_t *cr;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (self->canvas == NULL || (scene = fr_canvas_get_scene (self->canvas)) == NULL ||
      !fr_scene_has_model (scene) || width <= 0 || height <= 0)
    return;

  /* The canvas's own layout, kept while the view stays: the field was
   * drawn in it, and it is not measured again for every overlay frame. */
  fr_canvas_get_plot_layout (self->canvas, &layout);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  fr_axes_draw (cr, fr_canvas_get_view (self->canvas), &layout, scene,
                fr_canvas_get_colormap (self->canvas), 1.0, FR_AXES_ON_CANVAS);
  cairo_destroy (cr);
}

static void
fr_axes_dispose (GObject *object)
{
  FrAxes *self = (FrAxes *)object;

  if (self->canvas != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->canvas, self);
      g_object_remove_weak_pointer (G_OBJECT (self->canvas), (gpointer *) &self->canvas);
      self->canvas = NULL;
    }

  G_OBJECT_CLASS (fr_axes_parent_class)->dispose (object);
}

static void
fr_axes_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  FrAxes *self = FR_AXES (object);

  switch (prop_id)
    {
    case PROP_CANVAS:
      g_value_set_object (value, self->canvas);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fr_axes_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  FrAxes *self = FR_AXES (object);

  switch (prop_id)
    {
    case PROP_CANVAS:
      if (self->canvas != NULL)
        {
          g_signal_handlers_disconnect_by_data (self->canvas, self);
          g_object_remove_weak_pointer (G_OBJECT (self->canvas), (gpointer *) &self->canvas);
        }
      self->canvas = g_value_get_object (value);
      if (self->canvas != NULL)
        {
          g_object_add_weak_pointer (G_OBJECT (self->canvas), (gpointer *) &self->canvas);
          g_signal_connect_object (self->canvas, "view-changed",
                                   G_CALLBACK (gtk_widget_queue_draw), self,
                                   G_CONNECT_SWAPPED);
          g_signal_connect_object (self->canvas, "range-changed",
                                   G_CALLBACK (gtk_widget_queue_draw), self,
                                   G_CONNECT_SWAPPED);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fr_axes_class_init (FrAxesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fr_axes_dispose;
  object_class->get_property = fr_axes_get_property;
  object_class->set_property = fr_axes_set_property;

  widget_class->snapshot = fr_axes_snapshot;

  properties[PROP_CANVAS] =
    g_param_spec_object ("canvas", NULL, NULL, FR_TYPE_CANVAS,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "fraxes");
}

static void
fr_axes_init (FrAxes *self)
{
  /* Pointer events go through to the canvas below. */
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
}

GtkWidget *
fr_axes_new (void)
{
  return g_object_new (FR_TYPE_AXES, NULL);
}
