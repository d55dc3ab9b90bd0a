/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rasterisation of drawn models against independent truths: the area of a
 * cell below a polyline or inside a polygon by polygon clipping
 * (Sutherland–Hodgman) and the shoelace formula, and the analytic cell
 * mean of slowness in a linear vertical gradient. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "fr-raster.h"

#define MAXV 64

typedef struct
{
  double x[MAXV], z[MAXV];
  int n;
} Poly;

static double
shoelace (const Poly *p)
{
  double a = 0.0;

  for (int i = 0; i < p->n; i++)
    {
      int j = (i + 1) % p->n;
      a += p->x[i] * p->z[j] - p->x[j] * p->z[i];
    }
  return fabs (0.5 * a);
}

/* Clips subject against one side of an axis-aligned line: keep points
 * with sign·(coord − c) ≥ 0, coord being x (axis 0) or z (axis 1). */
static void
clip_axis (Poly *p, int axis, double c, double sign)
{
  Poly out = { .n = 0 };

  for (int i = 0; i < p->n; i++)
    {
      int j = (i + 1) % p->n;
      double ci = axis == 0 ? p->x[i] : p->z[i];
      double cj = axis == 0 ? p->x[j] : p->z[j];
      gboolean in_i = sign * (ci - c) >= 0, in_j = sign * (cj - c) >= 0;

      if (in_i)
        {
          out.x[out.n] = p->x[i];
          out.z[out.n++] = p->z[i];
        }
      if (in_i != in_j)
        {
          double t = (c - ci) / (cj - ci);
          out.x[out.n] = p->x[i] + t * (p->x[j] - p->x[i]);
          out.z[out.n++] = p->z[i] + t * (p->z[j] - p->z[i]);
        }
    }
  *p = out;
}

/* Area of polygon ∩ [xa, xb] × [za, zb]. */
static double
clipped_area (const Poly *subject, double xa, double xb, double za, double zb)
{
  Poly p = *subject;

  clip_axis (&p, 0, xa, 1.0);
  clip_axis (&p, 0, xb, -1.0);
  clip_axis (&p, 1, za, 1.0);
  clip_axis (&p, 1, zb, -1.0);
  return p.n >= 3 ? shoelace (&p) : 0.0;
}

/* The region below a polyline extended flat beyond its ends, closed far
 * below. */
static Poly
below_polyline (const double *x, const double *z, int n)
{
  Poly p = { .n = 0 };

  p.x[p.n] = -1e3;
  p.z[p.n++] = z[0];
  for (int i = 0; i < n; i++)
    {
      p.x[p.n] = x[i];
      p.z[p.n++] = z[i];
    }
  p.x[p.n] = 1e3;
  p.z[p.n++] = z[n - 1];
  p.x[p.n] = 1e3;
  p.z[p.n++] = 1e6;
  p.x[p.n] = -1e3;
  p.z[p.n++] = 1e6;
  return p;
}

static void
assert_rel (double got, double want, double tol, size_t ix, size_t iz)
{
  if (!(fabs (got - want) <= tol * fabs (want)))
    g_error ("cell (%zu, %zu): got %.9g, want %.9g", ix, iz, got, want);
}

/* Two constant layers split by a polyline; every cell against the clipped
 * area fractions. */
static void
check_two_layers (const double *ix, const double *iz, int n)
{
  const double top_x[1] = { 0.0 }, top_z[1] = { -100.0 };
  const double v1 = 1.5, v2 = 4.0;
  fr_raster_layer layers[2] = {
    { top_x, top_z, 1, v1, 0.0, 0.0 },
    { ix, iz, (size_t) n, v2, 0.0, 0.0 },
  };
  fr_raster_model m = { .layers = layers, .n_layers = 2, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (23, 17, 0.1, 0.07, 0.0, 0.0);
  g_autofree float *out = g_new (float, fr_grid_count (&g));
  Poly below = below_polyline (ix, iz, n);
  fr_error err = { 0 };
  guint cut = 0;

  g_assert_cmpint (fr_raster_fill (&m, &g, out, &err), ==, FR_OK);
  for (size_t jz = 0; jz < g.nz; jz++)
    for (size_t jx = 0; jx < g.nx; jx++)
      {
        double xa = g.x0 + (jx - 0.5) * g.dx, xb = xa + g.dx;
        double za = g.z0 + (jz - 0.5) * g.dz, zb = za + g.dz;
        double area = g.dx * g.dz;
        double a2 = clipped_area (&below, xa, xb, za, zb);
        double s = ((area - a2) / v1 + a2 / v2) / area;

        if (a2 > 1e-9 * area && a2 < area * (1 - 1e-9))
          cut++;
        assert_rel (out[fr_grid_index (&g, jx, 0, jz)], 1.0 / s, 2e-6, jx, jz);
      }
  /* The interface really cuts cells, so the test tests something. */
  g_assert_cmpuint (cut, >, 20);
}

static void
test_straight_interface (void)
{
  /* One segment from beyond the left edge to beyond the right. */
  const double x[2] = { -0.3, 2.6 }, z[2] = { 0.13, 1.01 };
  /* The same kind of line with collinear nodes inside cells. */
  const double x3[4] = { -0.2, 0.537, 1.111, 2.5 };
  double z3[4];

  check_two_layers (x, z, 2);
  for (int i = 0; i < 4; i++)
    z3[i] = 0.9 - 0.31 * x3[i];
  check_two_layers (x3, z3, 4);
}

static void
test_kinked_interface (void)
{
  const double x[5] = { 0.0, 0.42, 0.83, 1.37, 2.2 };
  const double z[5] = { 0.2, 0.71, 0.33, 0.9, 0.5 };

  check_two_layers (x, z, 5);
}

static void
test_vertical_gradient (void)
{
  /* Monsegny & Agudelo: v = 0.5 + 0.005·z (km/s, z in m → here unitless). */
  const double x[1] = { 0.0 }, z[1] = { 0.0 };
  fr_raster_layer l = { x, z, 1, 0.5, 0.005, 0.0 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (5, 50, 10.0, 10.0, 0.0, 5.0);
  g_autofree float *out = g_new (float, fr_grid_count (&g));

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t iz = 0; iz < g.nz; iz++)
    {
      double za = g.z0 + (iz - 0.5) * g.dz, zb = za + g.dz;
      double mean_s = log ((0.5 + 0.005 * zb) / (0.5 + 0.005 * za)) / 0.005 / g.dz;

      for (size_t ix = 0; ix < g.nx; ix++)
        assert_rel (out[fr_grid_index (&g, ix, 0, iz)], 1.0 / mean_s, 1e-6, ix, iz);
    }
}

static void
test_lateral_gradient (void)
{
  /* Flat interface at z = 0, v = 2 + 0.5·x: mean slowness over a cell is
   * ln(v(xb)/v(xa)) / (0.5·dx). */
  const double x[1] = { 0.0 }, z[1] = { 0.0 };
  fr_raster_layer l = { x, z, 1, 2.0, 0.0, 0.5 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (9, 3, 0.25, 0.25, 0.0, 0.5);
  g_autofree float *out = g_new (float, fr_grid_count (&g));

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t ix = 0; ix < g.nx; ix++)
    {
      double xa = (ix - 0.5) * g.dx, xb = xa + g.dx;
      double mean_s = log ((2 + 0.5 * xb) / (2 + 0.5 * xa)) / 0.5 / g.dx;

      /* Gauss–Legendre on a smooth 1/v: far below float rounding. */
      assert_rel (out[fr_grid_index (&g, ix, 0, 1)], 1.0 / mean_s, 1e-6, ix, 1);
    }
}

/* A seismic line in its own coordinates, x from 452 000 m, 12.5 m cells,
 * and a layer of 2000 m/s at its first node falling by 0.01 /s along it:
 * the lateral term counts from the layer's x_ref.  From x = 0 it made
 * 2000 − 4520 m/s, clamped to nothing across the whole line. */
static void
test_lateral_gradient_from_reference (void)
{
  const double x[1] = { 452000.0 }, z[1] = { 0.0 };
  fr_raster_layer l = { x, z, 1, 2000.0, 0.0, -0.01, 452000.0 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (801, 3, 12.5, 12.5, 452000.0, 0.0);
  g_autofree float *out = g_new (float, fr_grid_count (&g));

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t ix = 0; ix < g.nx; ix++)
    {
      double xa = g.x0 + (ix - 0.5) * g.dx - l.x_ref, xb = xa + g.dx;
      double mean_s = log ((2000 - 0.01 * xb) / (2000 - 0.01 * xa)) / -0.01 / g.dx;

      assert_rel (out[fr_grid_index (&g, ix, 0, 1)], 1.0 / mean_s, 1e-6, ix, 1);
    }
  g_assert_cmpfloat_with_epsilon (fr_raster_velocity_at (&m, 452000.0, 10.0), 2000.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (fr_raster_velocity_at (&m, 462000.0, 10.0), 1900.0, 1e-9);
}

/* ∫ dz / (v + g·(z − h)) over [za, zb]: a layer's slowness down a line
 * whose interface lies at depth h. */
static double
gradient_slowness (double v, double g, double h, double za, double zb)
{
  return log ((v + g * (zb - h)) / (v + g * (za - h))) / g;
}

/* A horizon picked at 301 nodes, 15 to a cell's width, zigzagging between
 * two gently dipping layers, each layer with a vertical gradient from its
 * own interface.  A cell that one layer fills alone has, in x, the kinks of
 * that layer's interface only: above the horizon none, under it all of
 * the horizon's (the rasteriser cuts such rows at their own layer's kinks
 * only).  Each cell against its slowness integrated exactly in z and by
 * 5-point Gauss–Legendre on every interval between the horizon's nodes in
 * x, where the integrand is smooth. */
static void
test_picked_horizon (void)
{
  static const double gl_x[5] = { -0.9061798459386640, -0.5384693101056831, 0.0,
                                  0.5384693101056831, 0.9061798459386640 };
  static const double gl_w[5] = { 0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                  0.4786286704993665, 0.2369268850561891 };
  const double top_x[1] = { 0.0 }, top_z[1] = { 0.0 };
  const double base_x[1] = { 0.0 }, base_z[1] = { 1.6 };
  double hx[301], hz[301];
  fr_raster_layer layers[3] = {
    { top_x, top_z, 1, 1.5, 0.8, 0.0 },
    { hx, hz, 301, 2.5, 1.7, 0.0 },
    { base_x, base_z, 1, 4.0, 0.6, 0.0 },
  };
  fr_raster_model m = { .layers = layers, .n_layers = 3, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (21, 21, 0.1, 0.1, 0.0, 0.0);
  g_autofree float *out = g_new (float, fr_grid_count (&g));
  guint rows[3] = { 0, 0, 0 };

  for (int i = 0; i < 301; i++)
    {
      hx[i] = -0.5 + 3.0 * i / 300.0;
      hz[i] = 0.6 + 0.1 * hx[i] + (i % 2 ? 0.02 : -0.02);
    }
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t jz = 0; jz < g.nz; jz++)
    for (size_t jx = 0; jx < g.nx; jx++)
      {
        const double xa = g.x0 + (jx - 0.5) * g.dx, xb = xa + g.dx;
        const double za = g.z0 + (jz - 0.5) * g.dz, zb = za + g.dz;
        double hmin = INFINITY, hmax = -INFINITY, s = 0.0;
        int k;

        for (int i = 0; i < 301; i++)
          if (hx[i] + 0.01 >= xa && hx[i] - 0.01 <= xb)
            {
              hmin = fmin (hmin, hz[i]);
              hmax = fmax (hmax, hz[i]);
            }
        k = zb <= hmin ? 0 : za >= hmax && zb <= base_z[0] ? 1 : za >= base_z[0] ? 2 : -1;
        if (k < 0)
          continue;
        rows[k]++;
        if (k != 1)
          s = g.dx * gradient_slowness (layers[k].v_top, layers[k].dvdz, k == 0 ? 0.0 : base_z[0], za, zb);
        else
          for (int i = 0; i + 1 < 301; i++)
            {
              const double p = fmax (hx[i], xa), q = fmin (hx[i + 1], xb);

              if (!(q > p))
                continue;
              for (int j = 0; j < 5; j++)
                {
                  const double x = 0.5 * (p + q) + 0.5 * (q - p) * gl_x[j];
                  const double h = hz[i] + (x - hx[i]) * (hz[i + 1] - hz[i]) / (hx[i + 1] - hx[i]);

                  s += 0.5 * (q - p) * gl_w[j] * gradient_slowness (2.5, 1.7, h, za, zb);
                }
            }
        assert_rel (out[fr_grid_index (&g, jx, 0, jz)], g.dx * g.dz / s, 1e-6, jx, jz);
      }
  /* Rows of every kind were checked. */
  g_assert_cmpuint (rows[0], >=, 2 * g.nx);
  g_assert_cmpuint (rows[1], >=, 5 * g.nx);
  g_assert_cmpuint (rows[2], >=, 2 * g.nx);
}

static void
check_obstacle (const double *ox, const double *oz, int n, double vo)
{
  const double vb = 3.0;
  fr_raster_obstacle o = { ox, oz, (size_t) n, vo };
  fr_raster_model m = { .obstacles = &o, .n_obstacles = 1, .default_velocity = vb };
  fr_grid g = fr_grid_2d (20, 20, 0.1, 0.1, 0.0, 0.0);
  g_autofree float *out = g_new (float, fr_grid_count (&g));
  Poly p = { .n = n };

  memcpy (p.x, ox, n * sizeof (double));
  memcpy (p.z, oz, n * sizeof (double));
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      {
        double xa = (ix - 0.5) * g.dx, za = (iz - 0.5) * g.dz, area = g.dx * g.dz;
        double ao = clipped_area (&p, xa, xa + g.dx, za, za + g.dz);
        float got = out[fr_grid_index (&g, ix, 0, iz)];

        if (vo > 0)
          assert_rel (got, area / ((area - ao) / vb + ao / vo), 2e-6, ix, iz);
        else if (ao >= 0.5 * area + 1e-9)
          g_assert_cmpfloat (got, ==, 0.0f);
        else if (ao <= 0.5 * area - 1e-9)
          assert_rel (got, vb, 2e-6, ix, iz);
      }
}

static void
test_obstacles (void)
{
  const double tx[3] = { 0.33, 1.61, 0.77 }, tz[3] = { 0.21, 0.52, 1.74 };
  const double rx[4] = { 0.52, 1.33, 1.33, 0.52 }, rz[4] = { 0.61, 0.61, 1.18, 1.18 };
  /* Faces on cell faces: whole cells, exactly. */
  const double ax[4] = { 0.45, 0.95, 0.95, 0.45 }, az[4] = { 0.25, 0.25, 0.55, 0.55 };

  check_obstacle (tx, tz, 3, 0.8);
  check_obstacle (rx, rz, 4, 1.2);
  check_obstacle (tx, tz, 3, 0.0);
  check_obstacle (rx, rz, 4, 0.0);
  check_obstacle (ax, az, 4, 0.0);
}

/* Walls drawn to node lines cover their edge cells exactly half, and "at
 * least half" makes such a cell impermeable whatever the rounding of its
 * integral: the bundled wall maze's walls reached the surface, yet the top
 * row stayed open over two of them (the wave ran over the walls, 17 %
 * early) and their sides came out 5 or 6 cells wide. */
static void
test_half_covered_cells (void)
{
  fr_grid g = fr_grid_2d (301, 101, 0.01, 0.01, 0.0, 0.0);
  float *out = g_new (float, fr_grid_count (&g));
  static const double lefts[] = { 0.35, 0.62, 1.05, 1.33, 1.75, 2.0, 2.45 };
  fr_raster_obstacle o[G_N_ELEMENTS (lefts)];
  double ox[G_N_ELEMENTS (lefts)][4], oz[G_N_ELEMENTS (lefts)][4];
  fr_raster_model m = { .obstacles = o, .n_obstacles = G_N_ELEMENTS (lefts), .default_velocity = 1.0 };

  for (size_t k = 0; k < G_N_ELEMENTS (lefts); k++)
    {
      /* From the surface (the nodes' line z = 0) to z = 0.75, 0.03 wide. */
      const double x[4] = { lefts[k], lefts[k] + 0.03, lefts[k] + 0.03, lefts[k] };
      const double z[4] = { 0.0, 0.0, 0.75, 0.75 };

      memcpy (ox[k], x, sizeof x);
      memcpy (oz[k], z, sizeof z);
      o[k] = (fr_raster_obstacle) { ox[k], oz[k], 4, 0.0 };
    }
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t k = 0; k < G_N_ELEMENTS (lefts); k++)
    {
      /* Nodes lefts/0.01 to lefts/0.01 + 3, rows 0 to 75: the edge
       * columns and rows are half covered, so walls, the four corners a
       * quarter, so open; the columns beside them are open. */
      size_t i0 = (size_t) lround (lefts[k] / 0.01);

      for (size_t iz = 0; iz <= 80; iz++)
        for (size_t ix = i0 - 1; ix <= i0 + 4; ix++)
          {
            float v = out[fr_grid_index (&g, ix, 0, iz)];
            gboolean edge_x = ix == i0 || ix == i0 + 3, edge_z = iz == 0 || iz == 75;
            gboolean wall = ix >= i0 && ix <= i0 + 3 && iz <= 75 && !(edge_x && edge_z);

            if ((v == 0.0f) != wall)
              g_error ("wall %zu: node (%zu, %zu) is %g, expected %s", k, ix, iz, v,
                       wall ? "a wall" : "open");
          }
    }
  g_free (out);
}

/* A random star-shaped polygon around (cx, cz), within rx × rz. */
static Poly
star_polygon (GRand *r, double cx, double cz, double rx, double rz)
{
  Poly p = { .n = g_rand_int_range (r, 3, 8) };

  for (int i = 0; i < p.n; i++)
    {
      double a = 2.0 * G_PI * (i + g_rand_double_range (r, 0.0, 0.8)) / p.n;
      double f = g_rand_double_range (r, 0.5, 1.0);

      p.x[i] = cx + f * rx * cos (a);
      p.z[i] = cz + f * rz * sin (a);
    }
  return p;
}

/* A crowded model, every cell against clipped areas: three layers under
 * kinked interfaces, and 24 obstacles (a third impermeable) in three
 * bands between them, some with their vertices on cell faces.  The fill
 * finds a column's interfaces and edges once for all of its cells but
 * those that an edge cuts; here most columns hold several of each. */
static void
test_crowded_model (void)
{
  enum { N_BANDS = 3, PER_BAND = 8, N1 = 7, N2 = 9 };
  static const double band_z[N_BANDS][2] = { { 0.15, 0.75 }, { 1.5, 2.0 }, { 2.85, 3.5 } };
  static const double v_layer[N_BANDS] = { 1.5, 2.5, 4.0 };
  const double top_x[1] = { 0.0 }, top_z[1] = { -100.0 };
  fr_grid g = fr_grid_2d (61, 47, 0.1, 0.08, 0.0, 0.0);
  g_autofree float *out = g_new (float, fr_grid_count (&g));
  g_autoptr(GRand) r = g_rand_new_with_seed (20261125);
  double x1[N1], z1[N1], x2[N2], z2[N2];
  Poly obstacles[N_BANDS * PER_BAND], below[2];
  fr_raster_obstacle o[N_BANDS * PER_BAND];
  fr_raster_layer l[N_BANDS];
  fr_raster_model m = { .layers = l, .n_layers = N_BANDS, .obstacles = o,
                        .n_obstacles = N_BANDS * PER_BAND, .default_velocity = 1.0 };
  guint cut = 0, walls = 0;

  /* The interfaces stay within 0.85–1.35 and 2.2–2.7, between the bands. */
  for (int i = 0; i < N1; i++)
    {
      x1[i] = -0.5 + i * 7.0 / (N1 - 1) + g_rand_double_range (r, -0.3, 0.3);
      z1[i] = 1.1 + g_rand_double_range (r, -0.25, 0.25);
    }
  for (int i = 0; i < N2; i++)
    {
      x2[i] = -0.5 + i * 7.0 / (N2 - 1) + g_rand_double_range (r, -0.3, 0.3);
      z2[i] = 2.45 + g_rand_double_range (r, -0.25, 0.25);
    }
  l[0] = (fr_raster_layer) { top_x, top_z, 1, v_layer[0], 0.0, 0.0 };
  l[1] = (fr_raster_layer) { x1, z1, N1, v_layer[1], 0.0, 0.0 };
  l[2] = (fr_raster_layer) { x2, z2, N2, v_layer[2], 0.0, 0.0 };
  below[0] = below_polyline (x1, z1, N1);
  below[1] = below_polyline (x2, z2, N2);

  for (int b = 0; b < N_BANDS; b++)
    for (int j = 0; j < PER_BAND; j++)
      {
        int k = b * PER_BAND + j;
        Poly *p = &obstacles[k];

        *p = star_polygon (r, 0.4 + 0.75 * j, 0.5 * (band_z[b][0] + band_z[b][1]), 0.34,
                           0.5 * (band_z[b][1] - band_z[b][0]));
        if (j % 4 == 1)
          for (int i = 0; i < p->n; i++)
            {
              p->x[i] = g.dx * (floor (p->x[i] / g.dx) + 0.5);
              p->z[i] = g.dz * (floor (p->z[i] / g.dz) + 0.5);
            }
        o[k] = (fr_raster_obstacle) { p->x, p->z, (size_t) p->n,
                                      k % 3 == 0 ? 0.0 : g_rand_double_range (r, 0.6, 6.0) };
      }

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t jz = 0; jz < g.nz; jz++)
    for (size_t jx = 0; jx < g.nx; jx++)
      {
        double xa = g.x0 + (jx - 0.5) * g.dx, xb = xa + g.dx;
        double za = g.z0 + (jz - 0.5) * g.dz, zb = za + g.dz;
        double area = g.dx * g.dz, blocked = 0.0, slow = 0.0, open;
        double a1 = clipped_area (&below[0], xa, xb, za, zb);
        double a2 = clipped_area (&below[1], xa, xb, za, zb);
        double in_layer[N_BANDS] = { area - a1, a1 - a2, a2 };
        float got = out[fr_grid_index (&g, jx, 0, jz)];

        for (int k = 0; k < N_BANDS * PER_BAND; k++)
          {
            double ao = clipped_area (&obstacles[k], xa, xb, za, zb);

            if (ao > 1e-9 * area && ao < area * (1 - 1e-9))
              cut++;
            in_layer[k / PER_BAND] -= ao;
            if (o[k].velocity == 0.0)
              blocked += ao;
            else
              slow += ao / o[k].velocity;
          }
        for (int b = 0; b < N_BANDS; b++)
          slow += in_layer[b] / v_layer[b];
        open = area - blocked;
        if (fabs (blocked - 0.5 * area) < 1e-6 * area)
          continue;   /* a wall's half-covered edge: either is right */
        if (blocked > 0.5 * area)
          {
            walls++;
            if (got != 0.0f)
              g_error ("cell (%zu, %zu): got %.9g, want a wall", jx, jz, got);
          }
        else
          assert_rel (got, open / slow, 2e-6, jx, jz);
      }
  /* Edges cut many cells, and walls there are. */
  g_assert_cmpuint (cut, >, 300);
  g_assert_cmpuint (walls, >, 20);
}

/* The background's cell of index i along one axis: [lo, hi], the edge
 * cells going on for ever. */
static void
background_cell (const fr_grid *g, int axis, size_t i, double *lo, double *hi)
{
  const double o = axis == 0 ? g->x0 : g->z0, d = axis == 0 ? g->dx : g->dz;
  const size_t n = axis == 0 ? g->nx : g->nz;

  *lo = i == 0 ? -1e9 : o + (i - 0.5) * d;
  *hi = i + 1 == n ? 1e9 : o + (i + 0.5) * d;
}

/* Obstacles over a coarser, shifted background, every cell against
 * clipped areas: the obstacles' area in each background cell under it.
 * An edge that crosses a background row's face inside a cell is a kink
 * of the integrand in x; without it the cell was off by up to 0.3 %. */
static void
test_obstacles_over_background (void)
{
  enum { N_OBST = 12 };
  fr_grid g = fr_grid_2d (37, 29, 0.1, 0.1, 0.0, 0.0);
  fr_grid bg = fr_grid_2d (9, 7, 0.43, 0.47, 0.13, 0.05);
  g_autofree float *out = g_new (float, fr_grid_count (&g));
  float v[63];
  g_autoptr(GRand) r = g_rand_new_with_seed (125);
  Poly obstacles[N_OBST];
  fr_raster_obstacle o[N_OBST];
  fr_raster_model m = { .obstacles = o, .n_obstacles = N_OBST, .background_grid = &bg,
                        .background = v, .default_velocity = 1.0 };
  guint cut = 0;

  for (int i = 0; i < 63; i++)
    v[i] = (float) g_rand_double_range (r, 1.0, 5.0);
  for (int k = 0; k < N_OBST; k++)
    {
      obstacles[k] = star_polygon (r, 0.55 + 0.85 * (k % 4), 0.5 + 0.9 * (k / 4), 0.4, 0.42);
      o[k] = (fr_raster_obstacle) { obstacles[k].x, obstacles[k].z, (size_t) obstacles[k].n,
                                    k % 4 == 0 ? 0.0 : g_rand_double_range (r, 0.5, 6.0) };
    }
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t jz = 0; jz < g.nz; jz++)
    for (size_t jx = 0; jx < g.nx; jx++)
      {
        double xa = g.x0 + (jx - 0.5) * g.dx, xb = xa + g.dx;
        double za = g.z0 + (jz - 0.5) * g.dz, zb = za + g.dz;
        double area = g.dx * g.dz, blocked = 0.0, slow = 0.0;
        float got = out[fr_grid_index (&g, jx, 0, jz)];

        for (size_t bz = 0; bz < bg.nz; bz++)
          for (size_t bx = 0; bx < bg.nx; bx++)
            {
              double x0, x1, z0, z1, box;

              background_cell (&bg, 0, bx, &x0, &x1);
              background_cell (&bg, 1, bz, &z0, &z1);
              x0 = MAX (x0, xa), x1 = MIN (x1, xb), z0 = MAX (z0, za), z1 = MIN (z1, zb);
              if (!(x1 > x0 && z1 > z0))
                continue;
              box = (x1 - x0) * (z1 - z0);
              for (int k = 0; k < N_OBST; k++)
                {
                  double ao = clipped_area (&obstacles[k], x0, x1, z0, z1);

                  box -= ao;
                  if (o[k].velocity == 0.0)
                    blocked += ao;
                  else
                    slow += ao / o[k].velocity;
                  if (ao > 1e-9 * area && ao < (x1 - x0) * (z1 - z0) * (1 - 1e-9))
                    cut++;
                }
              slow += box / v[fr_grid_index (&bg, bx, 0, bz)];
            }
        if (fabs (blocked - 0.5 * area) < 1e-6 * area)
          continue;
        if (blocked > 0.5 * area)
          g_assert_cmpfloat (got, ==, 0.0f);
        else
          assert_rel (got, (area - blocked) / slow, 2e-6, jx, jz);
      }
  g_assert_cmpuint (cut, >, 300);
}

/* Where two edges cross inside a cell the boundary turns there, a kink
 * the quadrature must cut at (helper-61).  Two walls whose edges make an
 * X cover the cell [0, 1]² 50.75 %: a wall, which the cell missed
 * (48.5 % without the cut).  Two interfaces crossing at (0.5, 0.5), the
 * later layer on top: the mean slowness by hand is 0.375. */
static void
test_crossing_edges (void)
{
  const double ax[4] = { -0.5, 1.5, 1.5, -0.5 }, az[4] = { 0.005, 1.305, 5.0, 5.0 };
  const double bx[4] = { -0.5, 1.5, 1.5, -0.5 }, bz[4] = { 1.305, 0.005, 5.0, 5.0 };
  fr_raster_obstacle walls[2] = { { ax, az, 4, 0.0 }, { bx, bz, 4, 0.0 } };
  const double tx[1] = { 0.0 }, tz[1] = { -100.0 };
  const double x2[2] = { -0.5, 1.5 }, z2[2] = { -0.1, 1.1 }, z3[2] = { 1.1, -0.1 };
  fr_raster_layer layers[3] = {
    { tx, tz, 1, 2.0, 0.0, 0.0 }, { x2, z2, 2, 1.5, 0.0, 0.0 }, { x2, z3, 2, 5.0, 0.0, 0.0 },
  };
  fr_raster_model m = { .obstacles = walls, .n_obstacles = 2, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (3, 3, 1.0, 1.0, -0.5, -0.5);
  float out[9];

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  g_assert_cmpfloat (out[fr_grid_index (&g, 1, 0, 1)], ==, 0.0f);

  m = (fr_raster_model) { .layers = layers, .n_layers = 3, .default_velocity = 1.0 };
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  assert_rel (out[fr_grid_index (&g, 1, 0, 1)], 1.0 / 0.375, 2e-6, 1, 1);
}

/* A comb inside one cell: its left side zigzags n times across most of
 * the column, so that every vertical line of the column crosses about n
 * of its edges.  With few teeth the column keeps its profiles; with many
 * they would not fit (n² breaks), and each cell is built slice by slice.
 * Either way the comb's cell holds the harmonic mean by its area
 * (shoelace), and every other cell of the grid the background. */
static void
check_comb (int teeth)
{
  const int n = 2 * teeth + 3;
  g_autofree double *x = g_new (double, n);
  g_autofree double *z = g_new (double, n);
  fr_raster_obstacle comb = { x, z, (size_t) n, 4.0 };
  fr_raster_model m = { .obstacles = &comb, .n_obstacles = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (5, 7, 1.0, 1.0, 0.0, 0.0);
  float out[35];
  double area = 0.0;

  for (int i = 0; i <= 2 * teeth; i++)
    {
      x[i] = i % 2 == 0 ? 1.7 : 2.3;
      z[i] = 2.6 + 0.8 * i / (2.0 * teeth);
    }
  x[n - 2] = 2.4;
  z[n - 2] = 3.4;
  x[n - 1] = 2.4;
  z[n - 1] = 2.6;
  for (int i = 0; i < n; i++)
    area += x[i] * z[(i + 1) % n] - x[(i + 1) % n] * z[i];
  area = fabs (0.5 * area);

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      assert_rel (out[fr_grid_index (&g, ix, 0, iz)],
                  ix == 2 && iz == 3 ? 1.0 / (1.0 - area + area / 4.0) : 1.0, 2e-6, ix, iz);
}

static void
test_comb_in_one_column (void)
{
  check_comb (3);
  check_comb (200);
  check_comb (2000);
}

/* A gradient that takes a layer's velocity to 0 is reported: the cells
 * from v_top + dvdz·(z − h) = 0 down, and the first of them (the model
 * then solves them as nearly impermeable, 1e-6).  Under a wall they are
 * no concern; a model without such a gradient reports none. */
static void
test_clamp_report (void)
{
  fr_grid g = fr_grid_2d (101, 51, 0.01, 0.01, 0.0, 0.0);
  float *out = g_new (float, fr_grid_count (&g));
  const double x[2] = { 0.0, 1.0 }, z[2] = { 0.1, 0.1 };
  const double wx[4] = { -0.1, 0.305, 0.305, -0.1 }, wz[4] = { -0.1, -0.1, 0.6, 0.6 };
  fr_raster_layer l[2] = { { x, z, 2, 1.0, -5.0, 0.0 }, { x, z, 2, 1.0, 0.0, 0.0 } };
  fr_raster_obstacle wall = { wx, wz, 4, 0.0 };
  fr_raster_model m = { .layers = l, .n_layers = 1, .default_velocity = 1.0 };
  fr_raster_report r = { 99, 99, -1.0, -1.0 };

  /* v = 1 − 5 (z − 0.1): 0 at z = 0.3, rows 30 to 50. */
  g_assert_cmpint (fr_raster_fill_report (&m, &g, out, &r, NULL), ==, FR_OK);
  g_assert_cmpuint (r.clamped_cells, ==, 21 * 101);
  g_assert_cmpuint (r.layer, ==, 0);
  g_assert_cmpfloat (r.x, ==, 0.0);
  g_assert_cmpfloat (fabs (r.z - 0.3), <, 1e-12);
  g_assert_cmpfloat (out[fr_grid_index (&g, 50, 0, 40)], <, 1e-5);

  /* Columns 0 to 30 walled off: the first clamped cell is beside it. */
  m.obstacles = &wall;
  m.n_obstacles = 1;
  g_assert_cmpint (fr_raster_fill_report (&m, &g, out, &r, NULL), ==, FR_OK);
  g_assert_cmpuint (r.clamped_cells, ==, 21 * 70);
  g_assert_cmpfloat (fabs (r.x - 0.31), <, 1e-12);

  /* The second layer, constant, below the same interface wins: none. */
  m.n_obstacles = 0;
  m.n_layers = 2;
  g_assert_cmpint (fr_raster_fill_report (&m, &g, out, &r, NULL), ==, FR_OK);
  g_assert_cmpuint (r.clamped_cells, ==, 0);
  g_free (out);
}

/* A lateral gradient v = 0.45 + x reaches the clamp between the Gauss
 * points of cell 0 ([−0.5, 0.5]): the cell is nearly impermeable (its
 * harmonic mean, in closed form, 2.0e-5) and is reported as clamped.  It
 * had read 0.17, unreported (helper-63). */
static void
test_clamp_between_gauss_points (void)
{
  const double x[2] = { -5.0, 5.0 }, z[2] = { -5.0, -5.0 };
  const double vmin = FR_RASTER_MIN_VELOCITY, xc = vmin - 0.45;
  fr_raster_layer l = { x, z, 2, 0.45, 0.0, 1.0 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (3, 1, 1.0, 1.0, 0.0, 0.0);
  fr_raster_report r = { 99, 99, -1.0, -1.0 };
  float out[3];
  /* ∫ dx / max(0.45 + x, vmin) over each cell (dz = 1). */
  const double s0 = (xc + 0.5) / vmin + log (0.95 / vmin);
  const double s1 = log (1.95 / 0.95);

  g_assert_cmpint (fr_raster_fill_report (&m, &g, out, &r, NULL), ==, FR_OK);
  assert_rel (out[0], 1.0 / s0, 1e-4, 0, 0);
  assert_rel (out[1], 1.0 / s1, 1e-4, 1, 0);   /* smooth: 3-point Gauss, 5e-5 */
  g_assert_cmpuint (r.clamped_cells, ==, 1);
  g_assert_cmpuint (r.layer, ==, 0);
  g_assert_cmpfloat (r.x, ==, 0.0);
}

/* A wedge of a lateral gradient, v = C − 0.05 − x, between two interfaces
 * that cross at (C, 1) inside cell (1, 1): its tip, x from C − 0.05 to C,
 * is clamped, and narrows to a point on the side of a piece (the crossing),
 * which the Gauss points and that side's line both missed for most C
 * (helper-66).  The cell's mean against the closed form: every column's
 * slowness is linear in x but for the wedge, whose open part integrates
 * to a log. */
static void
check_clamped_wedge (double C)
{
  const double vmin = FR_RASTER_MIN_VELOCITY, xc = C - 0.05 - vmin;
  const double x0[2] = { -1.0, 3.0 }, z0[2] = { -10.0, -10.0 };
  const double z1[2] = { 1.0 + 0.5 * (-1.0 - C), 1.0 + 0.5 * (3.0 - C) };
  const double z2[2] = { 1.0 - 0.5 * (-1.0 - C), 1.0 - 0.5 * (3.0 - C) };
  fr_raster_layer l[3] = {
    { x0, z0, 2, 2.0, 0.0, 0.0 }, { x0, z1, 2, C - 0.05, 0.0, -1.0 }, { x0, z2, 2, 3.0, 0.0, 0.0 },
  };
  fr_raster_model m = { .layers = l, .n_layers = 3, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (3, 3, 1.0, 1.0, 0.0, 0.0);
  fr_raster_report r = { 99, 99, -1.0, -1.0 };
  float out[9];
  /* Over x from 0.5 to 1.5, z from 0.5 to 1.5: layer 0 down to z1 (x < C)
   * or z2 (x > C), layer 2 from z2 down, the wedge between for x < C. */
  const double top = 0.5 * ((0.5 + 0.5 * (0.5 - C)) + 0.5) * (C - 0.5) / 2.0
                     + 0.5 * (0.5 + (0.5 - 0.5 * (1.5 - C))) * (1.5 - C) / 2.0;
  const double bottom = 0.5 * ((0.5 + 0.5 * (0.5 - C)) + (0.5 + 0.5 * (1.5 - C))) / 3.0;
  const double open = (xc - 0.5) - 0.05 * (log (vmin) - log (C - 0.05 - 0.5));
  const double shut = (C - xc) * (C - xc) / (2.0 * vmin);

  g_assert_cmpint (fr_raster_fill_report (&m, &g, out, &r, NULL), ==, FR_OK);
  assert_rel (out[fr_grid_index (&g, 1, 0, 1)], 1.0 / (top + bottom + open + shut), 1e-5, 1, 1);
  g_assert_cmpuint (r.clamped_cells, ==, 1);
  g_assert_cmpuint (r.layer, ==, 1);
  g_assert_cmpfloat (r.x, ==, 1.0);
  g_assert_cmpfloat (r.z, ==, 1.0);
}

static void
test_clamped_wedge (void)
{
  check_clamped_wedge (1.21);
  check_clamped_wedge (1.3);
  check_clamped_wedge (1.37);
}

/* A layer pinched out onto the next interface (from x = 2 on they
 * coincide) has no extent there, however low its gradient takes v: no
 * cell holds it clamped (helper-68: 3 of 24 were reported). */
static void
test_pinched_layer_not_clamped (void)
{
  const double x0[2] = { -1.0, 10.0 }, z0[2] = { -10.0, -10.0 };
  const double x1[3] = { -1.0, 2.0, 10.0 }, z1[3] = { 1.0, 2.0, 2.0 }, z2[3] = { 3.0, 2.0, 2.0 };
  fr_raster_layer l[3] = {
    { x0, z0, 2, 2.0, 0.0, 0.0 }, { x1, z1, 3, 3.0, 0.0, -1.0 }, { x1, z2, 3, 4.0, 0.0, 0.0 },
  };
  fr_raster_model m = { .layers = l, .n_layers = 3, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (6, 4, 1.0, 1.0, 0.0, 0.0);
  fr_raster_report r = { 99, 99, -1.0, -1.0 };
  float out[24];

  g_assert_cmpint (fr_raster_fill_report (&m, &g, out, &r, NULL), ==, FR_OK);
  g_assert_cmpuint (r.clamped_cells, ==, 0);
}

/* v = c − x falling r-fold across cell 0 and reaching the clamp inside
 * cell 1: cell 0 holds 1 / ln r, and cell 1 the clamped part with the log
 * before it.  One Gauss piece per cell had been 5.6 % off at r = 15.9
 * (helper-68). */
static void
check_lateral_ratio (double ratio)
{
  const double vmin = FR_RASTER_MIN_VELOCITY, c = 0.5 * (ratio + 1.0) / (ratio - 1.0);
  const double xc = c - vmin, x[2] = { -5.0, 5.0 }, z[2] = { -5.0, -5.0 };
  fr_raster_layer l = { x, z, 2, c, 0.0, -1.0 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (3, 1, 1.0, 1.0, 0.0, 0.0);
  float out[3];

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  assert_rel (out[0], 1.0 / log (ratio), 1e-4, 0, 0);
  assert_rel (out[1], 1.0 / (log ((c - 0.5) / vmin) + (1.5 - xc) / vmin), 1e-4, 1, 0);
}

static void
test_lateral_gradient_beside_clamp (void)
{
  check_lateral_ratio (4.0);
  check_lateral_ratio (8.0);
  check_lateral_ratio (15.9);
}

/* v = 0.250001 + x reaches the clamp on cell 0's left face, up to
 * rounding: the cell holds 1 / ln (1.000001 / 1e-6), graded toward that
 * face (it had been 3 times too fast; helper-69). */
static void
test_clamp_edge_on_face (void)
{
  const double x[1] = { 0.25 }, z[1] = { -5.0 };
  fr_raster_layer l = { x, z, 1, 0.25000099999999997, 0.0, 1.0 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (4, 2, 1.0, 1.0, 0.25, 0.0);
  float out[8];

  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  assert_rel (out[fr_grid_index (&g, 0, 0, 0)], 1.0 / log (1.000001 / FR_RASTER_MIN_VELOCITY), 1e-4, 0, 0);
  assert_rel (out[fr_grid_index (&g, 0, 0, 1)], 1.0 / log (1.000001 / FR_RASTER_MIN_VELOCITY), 1e-4, 0, 1);
}

static void
test_background (void)
{
  fr_grid g = fr_grid_2d (7, 5, 0.5, 0.5, 1.0, 2.0);
  fr_grid fine = fr_grid_2d (14, 10, 0.25, 0.25, 0.875, 1.875);
  float bg[35], bgf[140], out[35];
  fr_raster_model m = { .background_grid = &g, .background = bg, .default_velocity = 1.0 };

  for (int i = 0; i < 35; i++)
    bg[i] = 1.0f + 0.1f * i + (i % 3 == 0 ? 0.0f : 0.5f);
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (int i = 0; i < 35; i++)
    assert_rel (out[i], bg[i], 1e-6, i, 0);

  /* A grid twice as fine: each cell is the harmonic mean of four. */
  for (int i = 0; i < 140; i++)
    bgf[i] = 1.0f + 0.037f * i;
  m.background_grid = &fine;
  m.background = bgf;
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      {
        double s = 0;

        for (int a = 0; a < 2; a++)
          for (int b = 0; b < 2; b++)
            s += 0.25 / bgf[fr_grid_index (&fine, 2 * ix + a, 0, 2 * iz + b)];
        assert_rel (out[fr_grid_index (&g, ix, 0, iz)], 1.0 / s, 1e-6, ix, iz);
      }
}

/* A background far finer than the grid, under one of the grid's cells:
 * beyond its edge columns the background goes on, so the cell's mean is
 * that of its two edge columns, each over half the cell.  The cell was cut
 * at every face the background's spacing would have had across the whole
 * cell, 2e9 of them, and ran out of memory (helper-57). */
static void
test_fine_background_under_wide_cell (void)
{
  fr_grid g = fr_grid_2d (3, 3, 1e8, 1e8, -1e8, -1e8);
  fr_grid bg = fr_grid_2d (41, 21, 0.05, 0.05, -1.0, -0.5);
  g_autofree float *v = g_new (float, fr_grid_count (&bg));
  float out[9];
  fr_raster_model m = { .background_grid = &bg, .background = v, .default_velocity = 1.0 };
  double s = 0.0;

  for (size_t i = 0; i < fr_grid_count (&bg); i++)
    v[i] = 1.0f + 0.01f * (float) (i % 41) + 0.001f * (float) (i / 41);
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  /* The centre cell, [-5e7, 5e7]²: its four corner columns of background
   * (edge rows and columns extended), each over a quarter of it, to within
   * the background's own 2 × 1 units against 1e16. */
  s = 0.25 / v[fr_grid_index (&bg, 0, 0, 0)] + 0.25 / v[fr_grid_index (&bg, 40, 0, 0)] +
      0.25 / v[fr_grid_index (&bg, 0, 0, 20)] + 0.25 / v[fr_grid_index (&bg, 40, 0, 20)];
  assert_rel (out[fr_grid_index (&g, 1, 0, 1)], 1.0 / s, 1e-6, 1, 1);
}

static void
test_layer_over_background (void)
{
  /* A flat interface on a cell face: cells above keep the background,
   * cells below take the layer. */
  fr_grid g = fr_grid_2d (4, 6, 1.0, 1.0, 0.0, 0.0);
  float bg[24], out[24];
  const double x[2] = { 0.0, 3.0 }, z[2] = { 2.5, 2.5 };
  fr_raster_layer l = { x, z, 2, 5.0, 0.0, 0.0 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .background_grid = &g,
                        .background = bg, .default_velocity = 1.0 };

  for (int i = 0; i < 24; i++)
    bg[i] = 2.0f;
  g_assert_cmpint (fr_raster_fill (&m, &g, out, NULL), ==, FR_OK);
  for (size_t iz = 0; iz < 6; iz++)
    for (size_t ix = 0; ix < 4; ix++)
      assert_rel (out[iz * 4 + ix], iz < 3 ? 2.0 : 5.0, 1e-6, ix, iz);
  g_assert_cmpfloat (fr_raster_velocity_at (&m, 1.0, 1.0), ==, 2.0);
  g_assert_cmpfloat (fr_raster_velocity_at (&m, 1.0, 3.0), ==, 5.0);
}

/* The point velocity (the app's cursor read-out) against fr-raster.h's
 * model: inside layer k, v_top + dvdz·(z − h_k(x)) + dvdx·x, the
 * interface extended flat beyond its ends; above every interface the
 * first layer when there is no background; an obstacle on top.  The
 * other tests of it had flat, uniform layers, where a read-out that
 * dropped a gradient or the interface's slope read the same. */
static void
test_velocity_at_point (void)
{
  const double x0[2] = { 0.0, 4.0 }, z0[2] = { 1.0, 3.0 };
  const double x1[2] = { 0.0, 4.0 }, z1[2] = { 4.0, 4.0 };
  const double ox[4] = { 3.0, 3.5, 3.5, 3.0 }, oz[4] = { 0.2, 0.2, 0.6, 0.6 };
  const fr_raster_layer l[2] = { { x0, z0, 2, 2.0, 0.5, 0.25 }, { x1, z1, 2, 6.0, 0.0, -0.5 } };
  const fr_raster_obstacle o = { ox, oz, 4, 0.0 };
  const fr_raster_model m = { .layers = l, .n_layers = 2, .obstacles = &o, .n_obstacles = 1,
                              .default_velocity = 1.5 };

  /* Layer 0 at x = 2, where its interface is at z = 2. */
  g_assert_cmpfloat_with_epsilon (fr_raster_velocity_at (&m, 2.0, 3.0),
                                  2.0 + 0.5 * (3.0 - 2.0) + 0.25 * 2.0, 1e-12);
  /* Above it: still layer 0's law. */
  g_assert_cmpfloat_with_epsilon (fr_raster_velocity_at (&m, 2.0, 1.0),
                                  2.0 + 0.5 * (1.0 - 2.0) + 0.25 * 2.0, 1e-12);
  /* Layer 1, below z = 4. */
  g_assert_cmpfloat_with_epsilon (fr_raster_velocity_at (&m, 2.0, 5.0), 6.0 - 0.5 * 2.0, 1e-12);
  /* Beyond the interfaces' end: layer 0's held at z = 3. */
  g_assert_cmpfloat_with_epsilon (fr_raster_velocity_at (&m, 6.0, 3.5),
                                  2.0 + 0.5 * (3.5 - 3.0) + 0.25 * 6.0, 1e-12);
  /* Inside the impermeable obstacle. */
  g_assert_cmpfloat (fr_raster_velocity_at (&m, 3.25, 0.4), ==, 0.0);
}

static void
test_bad_models (void)
{
  const double x[3] = { 0.0, 1.0, 1.0 }, z[3] = { 0.0, 0.0, 1.0 };
  fr_raster_layer l = { x, z, 3, 1.0, 0.0, 0.0 };
  fr_raster_obstacle o = { x, z, 2, 0.0 };
  fr_raster_model m = { .layers = &l, .n_layers = 1, .default_velocity = 1.0 };
  fr_grid g = fr_grid_2d (2, 2, 1.0, 1.0, 0.0, 0.0);
  float out[4];
  fr_error err = { 0 };

  g_assert_cmpint (fr_raster_fill (&m, &g, out, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "increasing x"));
  l.n = 2;
  l.v_top = -1.0;
  g_assert_cmpint (fr_raster_fill (&m, &g, out, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "top velocity"));
  l.v_top = 1.0;
  m.obstacles = &o;
  m.n_obstacles = 1;
  g_assert_cmpint (fr_raster_fill (&m, &g, out, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "3 vertices"));
  m.n_obstacles = 0;
  g_assert_cmpint (fr_raster_fill (&m, &g, out, &err), ==, FR_OK);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/raster/straight-interface", test_straight_interface);
  g_test_add_func ("/raster/kinked-interface", test_kinked_interface);
  g_test_add_func ("/raster/vertical-gradient", test_vertical_gradient);
  g_test_add_func ("/raster/lateral-gradient", test_lateral_gradient);
  g_test_add_func ("/raster/lateral-gradient-from-reference", test_lateral_gradient_from_reference);
  g_test_add_func ("/raster/picked-horizon", test_picked_horizon);
  g_test_add_func ("/raster/obstacles", test_obstacles);
  g_test_add_func ("/raster/half-covered-cells", test_half_covered_cells);
  g_test_add_func ("/raster/crowded-model", test_crowded_model);
  g_test_add_func ("/raster/crossing-edges", test_crossing_edges);
  g_test_add_func ("/raster/comb-in-one-column", test_comb_in_one_column);
  g_test_add_func ("/raster/obstacles-over-background", test_obstacles_over_background);
  g_test_add_func ("/raster/clamp-report", test_clamp_report);
  g_test_add_func ("/raster/clamp-between-gauss-points", test_clamp_between_gauss_points);
  g_test_add_func ("/raster/clamped-wedge", test_clamped_wedge);
  g_test_add_func ("/raster/pinched-layer-not-clamped", test_pinched_layer_not_clamped);
  g_test_add_func ("/raster/clamp-edge-on-face", test_clamp_edge_on_face);
  g_test_add_func ("/raster/lateral-gradient-beside-clamp", test_lateral_gradient_beside_clamp);
  g_test_add_func ("/raster/background", test_background);
  g_test_add_func ("/raster/layer-over-background", test_layer_over_background);
  g_test_add_func ("/raster/fine-background-under-wide-cell", test_fine_background_under_wide_cell);
  g_test_add_func ("/raster/velocity-at-point", test_velocity_at_point);
  g_test_add_func ("/raster/bad-models", test_bad_models);
  return g_test_run ();
}
