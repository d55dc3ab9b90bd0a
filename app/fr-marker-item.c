/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-marker-item"

#include <math.h>

#include "fr-marker-item.h"

enum
{
  PROP_0,
  PROP_NAME,
  PROP_X,
  PROP_Z,
  PROP_TIME,
  N_PROPS
};

struct _FrMarkerItem
{
  GObject       parent_instance;

  FrMarkerKind  kind;
  guint         index;
  double        x, z, time;      /* what the texts show; time NAN: none */
  int           decimals;        /* time's */
  char         *text[N_PROPS];   /* by property id */
};

G_DEFINE_FINAL_TYPE (FrMarkerItem, fr_marker_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

FrMarkerItem *
fr_marker_item_new (void)
{
  return g_object_new (FR_TYPE_MARKER_ITEM, NULL);
}

static void
fr_marker_item_finalize (GObject *object)
{
  FrMarkerItem *self = FR_MARKER_ITEM (object);

  for (guint i = 0; i < N_PROPS; i++)
    g_free (self->text[i]);

  G_OBJECT_CLASS (fr_marker_item_parent_class)->finalize (object);
}

static void
fr_marker_item_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FrMarkerItem *self = FR_MARKER_ITEM (object);

  if (prop_id > PROP_0 && prop_id < N_PROPS)
    g_value_set_string (value, self->text[prop_id] != NULL ? self->text[prop_id] : "");
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
fr_marker_item_class_init (FrMarkerItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = fr_marker_item_finalize;
  object_class->get_property = fr_marker_item_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, "", flags);
  properties[PROP_X] = g_param_spec_string ("x", NULL, NULL, "", flags);
  properties[PROP_Z] = g_param_spec_string ("z", NULL, NULL, "", flags);
  /* The traveltime at a receiver; empty for a source. */
  properties[PROP_TIME] = g_param_spec_string ("time", NULL, NULL, "", flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fr_marker_item_init (FrMarkerItem *self)
{
  self->x = self->z = self->time = NAN;
}

static void
set_text (FrMarkerItem *self,
          guint         prop_id,
          const char   *text)
{
  if (g_strcmp0 (self->text[prop_id], text) == 0)
    return;
  g_free (self->text[prop_id]);
  self->text[prop_id] = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static gboolean
same (double a,
      double b)
{
  return a == b || (isnan (a) && isnan (b));
}

/* Makes self the row of marker index of kind, at (x, z), with traveltime
 * time (NAN: none) shown to decimals.  TRUE when any of them changed, and its texts must be
 * set again; FALSE when they still show it (a drag of another marker
 * among a thousand formats one row, not all). */
gboolean
fr_marker_item_update (FrMarkerItem *self,
                       FrMarkerKind  kind,
                       guint         index,
                       double        x,
                       double        z,
                       double        time,
                       int           decimals)
{
  g_return_val_if_fail (FR_IS_MARKER_ITEM (self), FALSE);

  if (self->kind == kind && self->index == index && same (self->x, x) && same (self->z, z) &&
      same (self->time, time) && self->decimals == decimals)
    return FALSE;
  self->kind = kind;
  self->index = index;
  self->x = x;
  self->z = z;
  self->time = time;
  self->decimals = decimals;
  return TRUE;
}

/* The row's texts; only those that changed are notified. */
void
fr_marker_item_set_texts (FrMarkerItem *self,
                          const char   *name,
                          const char   *x,
                          const char   *z,
                          const char   *time)
{
  g_return_if_fail (FR_IS_MARKER_ITEM (self));

  set_text (self, PROP_NAME, name);
  set_text (self, PROP_X, x);
  set_text (self, PROP_Z, z);
  set_text (self, PROP_TIME, time);
}

/* Which marker the row shows: its kind, and its index among its kind. */
FrMarkerKind
fr_marker_item_get_kind (FrMarkerItem *self,
                         guint        *index)
{
  g_return_val_if_fail (FR_IS_MARKER_ITEM (self), FR_MARKER_NONE);

  if (index != NULL)
    *index = self->index;
  return self->kind;
}

/* The text of property ("name", "x", "z" or "time"), never NULL. */
const char *
fr_marker_item_get_text (FrMarkerItem *self,
                         const char   *property)
{
  GParamSpec *pspec;

  g_return_val_if_fail (FR_IS_MARKER_ITEM (self), "");

  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), property);
  g_return_val_if_fail (pspec != NULL && pspec->param_id < N_PROPS, "");
  return self->text[pspec->param_id] != NULL ? self->text[pspec->param_id] : "";
}
