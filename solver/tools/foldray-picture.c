/* SPDX-License-Identifier: GPL-3.0-or-later */
/* foldray-picture: a velocity grid in viridis, traveltime isochrons as thin
 * dark lines and rays as white polylines, written as a PNG.
 *
 * Each node is a cell of uniform velocity, so velocity is drawn by nearest
 * node (sharp interfaces); T is sampled bilinearly so its contours are
 * smooth, and each contour is antialiased by its distance in pixels,
 * |T - level| / |∇T|.  Unreached nodes (T = +inf) and obstacles (v = 0)
 * are grey. */
#include "foldray-config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli-common.h"
#include "cli-interrupt.h"
#include "fr-array.h"
#include "fr-csv.h"
#include "fr-npy.h"
#include "png-write.h"

#define PICTURE_MIN_WIDTH 600      /* default scale aims at least this wide */
#define PICTURE_MAX_SCALE 64
#define PICTURE_MAX_PIXELS ((size_t) 1 << 25)
#define ISOCHRONS_DEFAULT 12
#define ISOCHRON_HALF_WIDTH 0.7    /* pixels */
#define ISOCHRON_OPACITY 0.85
#define RAY_HALF_WIDTH 1.0         /* pixels */

static const uint8_t grey[3] = { 128, 128, 128 };
static const uint8_t isochron_colour[3] = { 16, 16, 24 };

/* matplotlib's viridis (CC0), every 8th of its 256 entries plus the last;
 * linear interpolation between them stays within 2/255 of the full table. */
static const uint8_t viridis[33][3] = {
  {68,1,84}, {71,13,96}, {72,24,106}, {72,35,116}, {71,45,123}, {69,55,129},
  {66,64,134}, {62,73,137}, {59,82,139}, {55,91,141}, {51,99,141}, {47,107,142},
  {44,114,142}, {41,122,142}, {38,130,142}, {35,137,142}, {33,145,140}, {31,152,139},
  {31,160,136}, {34,167,133}, {40,174,128}, {50,182,122}, {63,188,115}, {78,195,107},
  {94,201,98}, {112,207,87}, {132,212,75}, {152,216,62}, {173,220,48}, {194,223,35},
  {216,226,25}, {236,229,27}, {253,231,37},
};

static void
viridis_at (double t, uint8_t out[3])
{
  /* Control point k sits at table index 8k, the last one at 255. */
  double i = (t < 0 ? 0 : t > 1 ? 1 : t) * 255.0;
  int k = (int) (i / 8.0);
  if (k > 31)
    k = 31;
  double lo = 8.0 * k, hi = k == 31 ? 255.0 : 8.0 * (k + 1);
  double f = (i - lo) / (hi - lo);
  for (int c = 0; c < 3; c++)
    out[c] = (uint8_t) lround (viridis[k][c] + f * (viridis[k + 1][c] - viridis[k][c]));
}

static void
blend (uint8_t *px, const uint8_t colour[3], double alpha)
{
  for (int c = 0; c < 3; c++)
    px[c] = (uint8_t) lround (px[c] + alpha * (colour[c] - px[c]));
}

enum {
  O_VELOCITY, O_TIME, O_SPACING, O_ORIGIN, O_RAYS, O_INTERVAL, O_SCALE, O_OUT, O_COUNT
};

typedef struct picture {
  size_t nx, nz;
  double dx, dz, x0, z0;
  float *v;
  double *t;
  size_t sx, sz;            /* pixels per node in x and z */
  size_t width, height;
  double interval;          /* 0: no isochrons */
  uint8_t *rgb;
} picture;

static void
usage (void)
{
  puts ("Usage: foldray-picture --velocity V.npy --time T.npy [--spacing D[,DZ]]\n"
        "                       [--origin X0,Z0] [--rays RAYS.csv] [--isochron-interval S]\n"
        "                       [--scale N] --out PIC.png\n"
        "       foldray-picture --version\n"
        "\n"
        "Draws the velocity in viridis, isochrons of T every S (default: about 12 over\n"
        "T's range) and the rays of RAYS.csv (as foldray-cli spr writes them; placing\n"
        "them needs --spacing and --origin).  --scale is pixels per node (default:\n"
        "at least 600 pixels wide).  Unreached nodes and obstacles are grey.");
}

/* A round interval giving about `count` contours over range. */
static double
nice_interval (double range, int count)
{
  double raw = range / count, p, f;

  if (!(raw > 0) || !isfinite (raw))
    return 0;
  p = pow (10.0, floor (log10 (raw)));
  f = raw / p;
  return p * (f < 1.5 ? 1 : f < 2.25 ? 2 : f < 3.5 ? 2.5 : f < 7.5 ? 5 : 10);
}

/* Reads a 2D grid as floats or doubles (one of out32/out64 is non-NULL). */
static int
load_grid (const char *flag, const char *path, size_t *nx, size_t *nz, float **out32,
           double **out64)
{
  fr_array a = { 0 };
  fr_error err = { 0 };
  int status = CLI_EXIT_OK;

  if ((status = cli_check_input (flag, path)) != CLI_EXIT_OK)
    return status;
  if (fr_npy_read (path, &a, &err) != FR_OK)
    return cli_fail_error (&err, path);
  if (a.ndim != 2)
    status = cli_fail (CLI_EXIT_USAGE, "%s: expected a 2D grid (nz, nx), not %d dimensions", path,
                       a.ndim);
  else if (*nx != 0 && (a.shape[1] != *nx || a.shape[0] != *nz))
    status = cli_fail (CLI_EXIT_USAGE, "%s: shape (%zu, %zu) differs from the velocity's (%zu, %zu)",
                       path, a.shape[0], a.shape[1], *nz, *nx);
  else
    {
      *nz = a.shape[0];
      *nx = a.shape[1];
      if ((out32 != NULL ? fr_array_to_f32 (&a, out32, &err) : fr_array_to_f64 (&a, out64, &err)) != FR_OK)
        status = cli_fail_error (&err, path);
    }
  fr_array_clear (&a);
  return status;
}

/* Bilinear T at fractional node (fx, fz); +inf when any corner that
 * weighs in is unreached, so contours stop at the edge of the reached set. */
static double
sample_t (const picture *pic, double fx, double fz)
{
  double mx = (double) (pic->nx - 1), mz = (double) (pic->nz - 1);
  fx = fx < 0 ? 0 : fx > mx ? mx : fx;
  fz = fz < 0 ? 0 : fz > mz ? mz : fz;
  size_t i = (size_t) fx, k = (size_t) fz;
  if (i >= pic->nx - 1 && pic->nx > 1)
    i = pic->nx - 2;
  if (k >= pic->nz - 1 && pic->nz > 1)
    k = pic->nz - 2;
  double u = pic->nx > 1 ? fx - (double) i : 0, w = pic->nz > 1 ? fz - (double) k : 0;
  size_t i1 = pic->nx > 1 ? i + 1 : i, k1 = pic->nz > 1 ? k + 1 : k;
  double t00 = pic->t[k * pic->nx + i], t10 = pic->t[k * pic->nx + i1];
  double t01 = pic->t[k1 * pic->nx + i], t11 = pic->t[k1 * pic->nx + i1];
  double s = 0;
  if (u < 1 && w < 1) { if (!isfinite (t00)) return INFINITY; s += (1 - u) * (1 - w) * t00; }
  if (u > 0 && w < 1) { if (!isfinite (t10)) return INFINITY; s += u * (1 - w) * t10; }
  if (u < 1 && w > 0) { if (!isfinite (t01)) return INFINITY; s += (1 - u) * w * t01; }
  if (u > 0 && w > 0) { if (!isfinite (t11)) return INFINITY; s += u * w * t11; }
  return s;
}

/* Pixel (px, pz) has its centre at fractional node ((px + ½)/sx − ½, ...). */
static double
pixel_to_node (size_t p, size_t s)
{
  return ((double) p + 0.5) / (double) s - 0.5;
}

static int
render_field (picture *pic)
{
  size_t w = pic->width, h = pic->height;
  float vmin = INFINITY, vmax = -INFINITY;
  float *tp;

  for (size_t i = 0; i < pic->nx * pic->nz; i++)
    if (pic->v[i] > 0 && isfinite (pic->v[i]))
      {
        vmin = fminf (vmin, pic->v[i]);
        vmax = fmaxf (vmax, pic->v[i]);
      }

  tp = malloc (w * h * sizeof *tp);
  if (tp == NULL)
    return cli_fail (CLI_EXIT_FAILURE, "out of memory for a %zu x %zu picture", w, h);

  for (size_t pz = 0; pz < h; pz++)
    for (size_t px = 0; px < w; px++)
      {
        double fx = pixel_to_node (px, pic->sx), fz = pixel_to_node (pz, pic->sz);
        long ix = lround (fx), iz = lround (fz);
        ix = ix < 0 ? 0 : ix >= (long) pic->nx ? (long) pic->nx - 1 : ix;
        iz = iz < 0 ? 0 : iz >= (long) pic->nz ? (long) pic->nz - 1 : iz;
        size_t node = (size_t) iz * pic->nx + (size_t) ix;
        uint8_t *out = pic->rgb + 3 * (pz * w + px);
        float v = pic->v[node];

        tp[pz * w + px] = (float) sample_t (pic, fx, fz);
        if (!(v > 0) || !isfinite (pic->t[node]))
          memcpy (out, grey, 3);
        else
          viridis_at (vmax > vmin ? (v - vmin) / (vmax - vmin) : 0.5, out);
      }

  if (pic->interval > 0)
    for (size_t pz = 0; pz < h; pz++)
      for (size_t px = 0; px < w; px++)
        {
          double t = tp[pz * w + px];
          double level = round (t / pic->interval);
          if (!isfinite (t) || level < 1)
            continue;
          /* Central differences, one-sided at the border. */
          size_t xa = px > 0 ? px - 1 : px, xb = px + 1 < w ? px + 1 : px;
          size_t za = pz > 0 ? pz - 1 : pz, zb = pz + 1 < h ? pz + 1 : pz;
          double gx = xb > xa ? (tp[pz * w + xb] - tp[pz * w + xa]) / (double) (xb - xa) : 0;
          double gz = zb > za ? (tp[zb * w + px] - tp[za * w + px]) / (double) (zb - za) : 0;
          double g = hypot (gx, gz);
          if (!isfinite (g) || g <= 0)
            continue;
          double dist = fabs (t - level * pic->interval) / g;
          double alpha = ISOCHRON_HALF_WIDTH + 0.5 - dist;
          if (alpha <= 0)
            continue;
          blend (pic->rgb + 3 * (pz * w + px), isochron_colour,
                 ISOCHRON_OPACITY * (alpha > 1 ? 1 : alpha));
        }
  free (tp);
  return CLI_EXIT_OK;
}

/* Coverage of a 2-pixel-wide antialiased segment, kept as the maximum per
 * pixel so that joints between segments do not double up. */
static void
stroke_segment (const picture *pic, float *mask, double ax, double az, double bx, double bz)
{
  double r = RAY_HALF_WIDTH + 0.5;
  double lo_x = fmax (0, floor (fmin (ax, bx) - r)), hi_x = fmin ((double) pic->width - 1, ceil (fmax (ax, bx) + r));
  double lo_z = fmax (0, floor (fmin (az, bz) - r)), hi_z = fmin ((double) pic->height - 1, ceil (fmax (az, bz) + r));
  double ex = bx - ax, ez = bz - az, len2 = ex * ex + ez * ez;

  if (!(lo_x <= hi_x && lo_z <= hi_z))
    return;
  for (size_t pz = (size_t) lo_z; pz <= (size_t) hi_z; pz++)
    for (size_t px = (size_t) lo_x; px <= (size_t) hi_x; px++)
      {
        double qx = (double) px - ax, qz = (double) pz - az;
        double s = len2 > 0 ? (qx * ex + qz * ez) / len2 : 0;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
        double d = hypot (qx - s * ex, qz - s * ez);
        double a = RAY_HALF_WIDTH + 0.5 - d;
        float *m = &mask[pz * pic->width + px];
        if (a > *m)
          *m = (float) (a > 1 ? 1 : a);
      }
}

static int
render_rays (picture *pic, const char *path)
{
  static const uint8_t white[3] = { 255, 255, 255 };
  fr_points pts = { 0 };
  size_t *receivers = NULL;
  fr_error err = { 0 };
  float *mask;
  int status;

  if ((status = cli_check_input ("--rays", path)) != CLI_EXIT_OK)
    return status;
  if (fr_csv_read_rays (path, &pts, &receivers, &err) != FR_OK)
    return cli_fail_error (&err, path);
  if (pts.ndim != 2)
    {
      fr_points_clear (&pts);
      free (receivers);
      return cli_fail (CLI_EXIT_USAGE, "%s: expected 2D rays (receiver,x,z)", path);
    }
  mask = calloc (pic->width * pic->height, sizeof *mask);
  if (mask == NULL)
    {
      fr_points_clear (&pts);
      free (receivers);
      return cli_fail (CLI_EXIT_FAILURE, "out of memory");
    }
  /* Consecutive points of one receiver form its polyline; a lone point
   * (a receiver on a source) is drawn as a dot. */
  for (size_t k = 0; k < pts.count; k++)
    {
      bool joined = k + 1 < pts.count && receivers[k + 1] == receivers[k];
      bool alone = !joined && (k == 0 || receivers[k - 1] != receivers[k]);
      if (!joined && !alone)
        continue;
      size_t j = joined ? k + 1 : k;
      double ax = ((pts.xyz[2 * k] - pic->x0) / pic->dx + 0.5) * (double) pic->sx - 0.5;
      double az = ((pts.xyz[2 * k + 1] - pic->z0) / pic->dz + 0.5) * (double) pic->sz - 0.5;
      double bx = ((pts.xyz[2 * j] - pic->x0) / pic->dx + 0.5) * (double) pic->sx - 0.5;
      double bz = ((pts.xyz[2 * j + 1] - pic->z0) / pic->dz + 0.5) * (double) pic->sz - 0.5;
      stroke_segment (pic, mask, ax, az, bx, bz);
    }
  for (size_t i = 0; i < pic->width * pic->height; i++)
    if (mask[i] > 0)
      blend (pic->rgb + 3 * i, white, mask[i]);
  free (mask);
  fr_points_clear (&pts);
  free (receivers);
  return CLI_EXIT_OK;
}

static int
parse_geometry (cli_option *o, picture *pic)
{
  double v[2];
  int n;

  pic->dx = pic->dz = 1;
  if (o[O_SPACING].count > 0)
    {
      if (!cli_parse_numbers ("--spacing", cli_value (&o[O_SPACING]), v, 1, 2, &n))
        return CLI_EXIT_USAGE;
      pic->dx = v[0];
      pic->dz = n == 2 ? v[1] : v[0];
      if (pic->dx <= 0 || pic->dz <= 0)
        return cli_fail (CLI_EXIT_USAGE, "--spacing '%s': spacing must be positive",
                         cli_value (&o[O_SPACING]));
    }
  else if (o[O_RAYS].count > 0)
    return cli_fail (CLI_EXIT_USAGE, "--rays needs --spacing to place the rays on the grid");
  if (o[O_ORIGIN].count > 0)
    {
      if (!cli_parse_numbers ("--origin", cli_value (&o[O_ORIGIN]), v, 2, 2, &n))
        return CLI_EXIT_USAGE;
      pic->x0 = v[0];
      pic->z0 = v[1];
    }
  if (o[O_INTERVAL].count > 0)
    {
      if (!cli_parse_numbers ("--isochron-interval", cli_value (&o[O_INTERVAL]), v, 1, 1, &n))
        return CLI_EXIT_USAGE;
      if (v[0] <= 0)
        return cli_fail (CLI_EXIT_USAGE, "--isochron-interval '%s': must be positive",
                         cli_value (&o[O_INTERVAL]));
      pic->interval = v[0];
    }
  if (o[O_SCALE].count > 0)
    {
      long s;
      if (!cli_parse_counts ("--scale", cli_value (&o[O_SCALE]), &s, 1, 1, &n, PICTURE_MAX_SCALE))
        return CLI_EXIT_USAGE;
      pic->sx = (size_t) s;
    }
  return CLI_EXIT_OK;
}

/* Picture size: sx pixels per node in x, and in z as many as keep cells
 * their true aspect ratio. */
static int
plan_size (picture *pic)
{
  if (pic->sx == 0)
    {
      pic->sx = (PICTURE_MIN_WIDTH + pic->nx - 1) / pic->nx;
      if (pic->sx > PICTURE_MAX_SCALE)
        pic->sx = PICTURE_MAX_SCALE;
      if (pic->sx < 1)
        pic->sx = 1;
    }
  double sz = round ((double) pic->sx * pic->dz / pic->dx);
  pic->sz = sz < 1 ? 1 : sz > PICTURE_MAX_SCALE * 64 ? PICTURE_MAX_SCALE * 64 : (size_t) sz;
  pic->width = pic->nx * pic->sx;
  pic->height = pic->nz * pic->sz;
  if (pic->width > PNG_MAX_SIDE || pic->height > PNG_MAX_SIDE
      || pic->width * pic->height > PICTURE_MAX_PIXELS)
    return cli_fail (CLI_EXIT_USAGE, "--scale: a %zu x %zu picture is too large; use a smaller "
                     "--scale", pic->width, pic->height);
  return CLI_EXIT_OK;
}

static void
default_interval (picture *pic)
{
  double tmin = INFINITY, tmax = -INFINITY;

  if (pic->interval > 0)
    return;
  for (size_t i = 0; i < pic->nx * pic->nz; i++)
    if (isfinite (pic->t[i]))
      {
        tmin = fmin (tmin, pic->t[i]);
        tmax = fmax (tmax, pic->t[i]);
      }
  pic->interval = tmax > tmin ? nice_interval (tmax - tmin, ISOCHRONS_DEFAULT) : 0;
}

int
main (int argc, char **argv)
{
  cli_option opts[O_COUNT] = {
    [O_VELOCITY] = { "--velocity", true, false },
    [O_TIME] = { "--time", true, false },
    [O_SPACING] = { "--spacing", true, false },
    [O_ORIGIN] = { "--origin", true, false },
    [O_RAYS] = { "--rays", true, false },
    [O_INTERVAL] = { "--isochron-interval", true, false },
    [O_SCALE] = { "--scale", true, false },
    [O_OUT] = { "--out", true, false },
  };
  picture pic = { 0 };
  fr_error err = { 0 };
  fr_cancel *cancel = NULL;
  const char *out;
  bool help;
  int status;

  cli_guard_process ();
  cli_set_program ("foldray-picture");
  if (argc < 2)
    return cli_fail (CLI_EXIT_USAGE, "missing options (try --help)");
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--version") == 0 && argc > 2)
      return cli_fail (CLI_EXIT_USAGE, "--version goes alone (got '%s' with it)", argv[i == 1 ? 2 : 1]);
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("foldray-picture %s\n", FOLDRAY_VERSION);
      if (fflush (stdout) != 0 || ferror (stdout))
        return cli_fail (CLI_EXIT_FAILURE, "standard output: cannot write");
      return CLI_EXIT_OK;
    }
  status = cli_parse_options (argc, argv, 1, opts, O_COUNT, &help);
  if (status != CLI_EXIT_OK || help)
    {
      if (status == CLI_EXIT_OK)
        usage ();
      goto done;
    }
  if (opts[O_VELOCITY].count == 0 || opts[O_TIME].count == 0 || opts[O_OUT].count == 0)
    {
      status = cli_fail (CLI_EXIT_USAGE, "missing %s (try --help)",
                         opts[O_VELOCITY].count == 0 ? "--velocity"
                         : opts[O_TIME].count == 0 ? "--time" : "--out");
      goto done;
    }
  out = cli_value (&opts[O_OUT]);
  if ((status = parse_geometry (opts, &pic)) != CLI_EXIT_OK
      || (status = cli_check_output ("--out", out)) != CLI_EXIT_OK
      /* As foldray-cli: a slip of --out T.npy for T.png replaced the
       * traveltimes with a picture. */
      || (status = cli_check_not_input ("--out", out, "--time", cli_value (&opts[O_TIME])))
           != CLI_EXIT_OK
      || (status = cli_check_not_input ("--out", out, "--velocity",
                                        cli_value (&opts[O_VELOCITY]))) != CLI_EXIT_OK
      || (opts[O_RAYS].count > 0
          && (status = cli_check_not_input ("--out", out, "--rays", cli_value (&opts[O_RAYS])))
               != CLI_EXIT_OK)
      || (status = load_grid ("--velocity", cli_value (&opts[O_VELOCITY]), &pic.nx, &pic.nz,
                              &pic.v, NULL)) != CLI_EXIT_OK
      || (status = load_grid ("--time", cli_value (&opts[O_TIME]), &pic.nx, &pic.nz,
                              NULL, &pic.t)) != CLI_EXIT_OK
      || (status = plan_size (&pic)) != CLI_EXIT_OK)
    goto done;

  /* From here a signal stops the run between steps, and before the PNG
   * replaces --out: the old file stays, and no temporary file. */
  if ((cancel = cli_interrupt_install ()) == NULL)
    {
      status = cli_fail (CLI_EXIT_FAILURE, "out of memory");
      goto done;
    }
  default_interval (&pic);
  pic.rgb = malloc (pic.width * pic.height * 3);
  if (pic.rgb == NULL)
    {
      status = cli_fail (CLI_EXIT_FAILURE, "out of memory for a %zu x %zu picture", pic.width,
                         pic.height);
      goto done;
    }
  if ((status = render_field (&pic)) != CLI_EXIT_OK)
    goto done;
  if (opts[O_RAYS].count > 0
      && (status = render_rays (&pic, cli_value (&opts[O_RAYS]))) != CLI_EXIT_OK)
    goto done;
  if (fr_cancel_raised (cancel))
    status = cli_fail (CLI_EXIT_FAILURE, "interrupted");
  else if (png_write_rgb (out, pic.rgb, pic.width, pic.height, cancel, &err) != FR_OK)
    {
      if (err.code == FR_E_CANCELLED)
        status = cli_fail (CLI_EXIT_FAILURE, "interrupted");
      else
        {
          err.code = err.code == FR_E_NOMEM ? FR_E_NOMEM : FR_E_IO;
          status = cli_fail_error (&err, out);
        }
    }

done:
  cli_interrupt_remove ();
  free (pic.v);
  free (pic.t);
  free (pic.rgb);
  cli_options_clear (opts, O_COUNT);
  return status;
}
