/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "fr-colormap.h"

/* Every 8th entry (and the last) of matplotlib's 256-entry tables
 * (_cm_listed.py, CC0); linear interpolation between them differs from the
 * full table by less than one 8-bit step. */
#define N_KNOTS 33

static const float viridis[N_KNOTS][3] = {
  { 0.267004f, 0.004874f, 0.329415f }, { 0.277018f, 0.050344f, 0.375715f },
  { 0.282327f, 0.094955f, 0.417331f }, { 0.282884f, 0.135920f, 0.453427f },
  { 0.278826f, 0.175490f, 0.483397f }, { 0.270595f, 0.214069f, 0.507052f },
  { 0.258965f, 0.251537f, 0.524736f }, { 0.244972f, 0.287675f, 0.537260f },
  { 0.229739f, 0.322361f, 0.545706f }, { 0.214298f, 0.355619f, 0.551184f },
  { 0.199430f, 0.387607f, 0.554642f }, { 0.185556f, 0.418570f, 0.556753f },
  { 0.172719f, 0.448791f, 0.557885f }, { 0.160665f, 0.478540f, 0.558115f },
  { 0.149039f, 0.508051f, 0.557250f }, { 0.137770f, 0.537492f, 0.554906f },
  { 0.127568f, 0.566949f, 0.550556f }, { 0.120565f, 0.596422f, 0.543611f },
  { 0.120638f, 0.625828f, 0.533488f }, { 0.132268f, 0.655014f, 0.519661f },
  { 0.157851f, 0.683765f, 0.501686f }, { 0.196571f, 0.711827f, 0.479221f },
  { 0.246070f, 0.738910f, 0.452024f }, { 0.304148f, 0.764704f, 0.419943f },
  { 0.369214f, 0.788888f, 0.382914f }, { 0.440137f, 0.811138f, 0.340967f },
  { 0.515992f, 0.831158f, 0.294279f }, { 0.595839f, 0.848717f, 0.243329f },
  { 0.678489f, 0.863742f, 0.189503f }, { 0.762373f, 0.876424f, 0.137064f },
  { 0.845561f, 0.887322f, 0.099702f }, { 0.926106f, 0.897330f, 0.104071f },
  { 0.993248f, 0.906157f, 0.143936f },
};

static const float cividis[N_KNOTS][3] = {
  { 0.000000f, 0.135112f, 0.304751f }, { 0.000000f, 0.157932f, 0.357521f },
  { 0.000000f, 0.178802f, 0.414764f }, { 0.017852f, 0.198528f, 0.441248f },
  { 0.103401f, 0.220406f, 0.435790f }, { 0.154261f, 0.242475f, 0.430120f },
  { 0.195057f, 0.264372f, 0.425924f }, { 0.230871f, 0.286134f, 0.423498f },
  { 0.263738f, 0.307831f, 0.422789f }, { 0.294669f, 0.329531f, 0.423716f },
  { 0.324250f, 0.351289f, 0.426250f }, { 0.352892f, 0.373153f, 0.430226f },
  { 0.380830f, 0.395164f, 0.435653f }, { 0.408226f, 0.417357f, 0.442570f },
  { 0.435168f, 0.439763f, 0.451134f }, { 0.461616f, 0.462405f, 0.461969f },
  { 0.488697f, 0.485318f, 0.471008f }, { 0.517920f, 0.508454f, 0.472707f },
  { 0.547840f, 0.531895f, 0.471704f }, { 0.578236f, 0.555673f, 0.468724f },
  { 0.609105f, 0.579816f, 0.463638f }, { 0.640352f, 0.604354f, 0.456791f },
  { 0.671991f, 0.629316f, 0.448018f }, { 0.704037f, 0.654731f, 0.437147f },
  { 0.736488f, 0.680629f, 0.424028f }, { 0.769353f, 0.707035f, 0.408516f },
  { 0.802667f, 0.733978f, 0.390153f }, { 0.836429f, 0.761483f, 0.368747f },
  { 0.870717f, 0.789572f, 0.343333f }, { 0.905589f, 0.818257f, 0.312889f },
  { 0.941147f, 0.847530f, 0.275815f }, { 0.977780f, 0.877281f, 0.227954f },
  { 0.995737f, 0.909344f, 0.217772f },
};

static const float magma[N_KNOTS][3] = {
  { 0.001462f, 0.000466f, 0.013866f }, { 0.013708f, 0.011771f, 0.068667f },
  { 0.039608f, 0.031090f, 0.133515f }, { 0.074257f, 0.052017f, 0.202660f },
  { 0.113094f, 0.065492f, 0.276784f }, { 0.159018f, 0.068354f, 0.352688f },
  { 0.211718f, 0.061992f, 0.418647f }, { 0.265447f, 0.060237f, 0.461840f },
  { 0.316654f, 0.071690f, 0.485380f }, { 0.366012f, 0.090314f, 0.497960f },
  { 0.414709f, 0.110431f, 0.504662f }, { 0.463508f, 0.129893f, 0.507652f },
  { 0.512831f, 0.148179f, 0.507648f }, { 0.562866f, 0.165368f, 0.504692f },
  { 0.613617f, 0.181811f, 0.498536f }, { 0.664915f, 0.198075f, 0.488836f },
  { 0.716387f, 0.214982f, 0.475290f }, { 0.767398f, 0.233705f, 0.457755f },
  { 0.816914f, 0.255895f, 0.436461f }, { 0.863320f, 0.283729f, 0.412403f },
  { 0.904281f, 0.319610f, 0.388137f }, { 0.937221f, 0.364929f, 0.368567f },
  { 0.960949f, 0.418323f, 0.359630f }, { 0.976690f, 0.476226f, 0.364466f },
  { 0.986700f, 0.535582f, 0.382210f }, { 0.992785f, 0.594891f, 0.410283f },
  { 0.996096f, 0.653659f, 0.446213f }, { 0.997325f, 0.711848f, 0.488154f },
  { 0.996898f, 0.769591f, 0.534892f }, { 0.995131f, 0.827052f, 0.585701f },
  { 0.992440f, 0.884330f, 0.640099f }, { 0.989434f, 0.941470f, 0.697519f },
  { 0.987053f, 0.991438f, 0.749504f },
};

static const struct {
  const char *id;
  const char *label;
  const float (*knots)[3];
} maps[FR_N_COLORMAPS] = {
  [FR_COLORMAP_VIRIDIS] = { "viridis", N_("Viridis"), viridis },
  [FR_COLORMAP_CIVIDIS] = { "cividis", N_("Cividis"), cividis },
  [FR_COLORMAP_MAGMA]   = { "magma",   N_("Magma"),   magma },
};

const char *
fr_colormap_get_id (FrColormap map)
{
  g_return_val_if_fail (map < FR_N_COLORMAPS, NULL);
  return maps[map].id;
}

/* The translated name shown in the side panel. */
const char *
fr_colormap_get_label (FrColormap map)
{
  g_return_val_if_fail (map < FR_N_COLORMAPS, NULL);
  return _(maps[map].label);
}

gboolean
fr_colormap_from_id (const char *id,
                     FrColormap *map)
{
  g_return_val_if_fail (id != NULL, FALSE);

  for (guint i = 0; i < FR_N_COLORMAPS; i++)
    {
      if (strcmp (maps[i].id, id) == 0)
        {
          if (map != NULL)
            *map = i;
          return TRUE;
        }
    }
  return FALSE;
}

/* The colour at t in [0, 1] (clamped), components in [0, 1]. */
void
fr_colormap_sample (FrColormap map,
                    double     t,
                    double     rgb[3])
{
  const float (*k)[3];
  double pos, frac;
  int i;

  g_return_if_fail (map < FR_N_COLORMAPS);

  k = maps[map].knots;
  if (!isfinite (t))
    t = 0.0;
  pos = CLAMP (t, 0.0, 1.0) * (N_KNOTS - 1);
  i = MIN ((int) floor (pos), N_KNOTS - 2);
  frac = pos - i;
  for (int c = 0; c < 3; c++)
    rgb[c] = k[i][c] + frac * (k[i + 1][c] - k[i][c]);
}

/* Fills an RGBA8 table for a 256 × 1 texture. */
void
fr_colormap_fill_lut (FrColormap map,
                      guint8     rgba[FR_COLORMAP_LUT_SIZE * 4])
{
  g_return_if_fail (map < FR_N_COLORMAPS);

  for (int i = 0; i < FR_COLORMAP_LUT_SIZE; i++)
    {
      double rgb[3];

      fr_colormap_sample (map, i / (double) (FR_COLORMAP_LUT_SIZE - 1), rgb);
      for (int c = 0; c < 3; c++)
        rgba[4 * i + c] = (guint8) CLAMP (lround (rgb[c] * 255.0), 0, 255);
      rgba[4 * i + 3] = 255;
    }
}
