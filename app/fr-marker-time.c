/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-marker-time"

#include "config.h"

#include <math.h>

#include "fr-marker-time.h"
#include "fr-result-time.h"

/* Whether result's T is the one the scene asks for now: its model and
 * sources (fr_result_time_matches_scene), and the radius and back end a
 * new solve would run with.  A changed radius gives another T, and a
 * result that another back end made is not the one on its way. */
gboolean
fr_marker_time_is_current (const FrResult *result,
                           FrScene        *scene,
                           FrRadius        radius,
                           fr_spr_backend  backend)
{
  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);

  return fr_result_time_matches_scene (result, scene) && fr_radius_equal (result->job->radius, radius) &&
         result->job->backend == backend;
}

/* Decimals for every T of a field whose largest is time_max: five
 * significant digits of it (1.2345, 0.51234, 12.345), 0 to 9. */
int
fr_marker_time_decimals (double time_max)
{
  if (!(time_max > 0.0) || !isfinite (time_max))
    return 4;
  return CLAMP (4 - (int) floor (log10 (time_max)), 0, 9);
}

/* t with decimals decimals into buf (the locale's decimal point, as the
 * fields beside it); "—" for NAN.  Returns buf. */
char *
fr_marker_time_format (double  t,
                       int     decimals,
                       char   *buf,
                       gsize   size)
{
  g_return_val_if_fail (buf != NULL && size > 0, buf);

  if (isnan (t))
    g_strlcpy (buf, "—", size);
  else
    g_snprintf (buf, size, "%.*f", CLAMP (decimals, 0, 9), t);
  return buf;
}
