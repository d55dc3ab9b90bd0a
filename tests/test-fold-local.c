/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The 3D local solver's pruning (fold-local.h), against plain arithmetic
 * written here:
 *   - the supporting plane (fold_support_3d) is one: its gradient p gives
 *     τ(d) >= p·d for every displacement d, with τ from its defining
 *     formula, so every point y of the base with T linear has
 *     T(y) + τ(x − y) >= the least w of the vertices around it;
 *   - it prunes where it should: a front whose characteristic runs along
 *     the base plane or away from it cannot lower the apex, and the bound
 *     says so (ψ up to 0.3 F; it stays a bound for any ψ); a front coming
 *     through the base is found all the same;
 *   - fold_node_update_3d, with all its skips, gives the least of every
 *     vertex, edge and triangle candidate, each evaluated plainly, also
 *     when only some base nodes changed since the node's last evaluation
 *     (the triangles and edges of unchanged nodes alone then no lower than
 *     the node, as in a solve);
 *   - the bound a solve tests before a new speed's constants (fold_coef_tlb)
 *     is the one the constants keep, and no candidate lies below it.
 * Random stencils: speeds, ψ up to 0.9 F, unequal spacings, the six
 * sub-sweeps, base values from linear fields with noise and unknown
 * (+inf) nodes.  The seed is GLib's (--seed to repeat a run). */
#include <glib.h>
#include <math.h>

#include "fold-private.h"

typedef struct {
  fr_grid grid;
  fold_layout layout;
  fold_stencil st;
  double psi[3], h[3];
  float F;
} scene;

static double
dot (const double *a, const double *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* τ(d) = (−ψ·d + sqrt((ψ·d)² + c|d|²)) / c, c = F² − |ψ|², as defined. */
static double
tau_plain (const scene *s, const double d[3])
{
  const double c = (double) s->F * s->F - dot (s->psi, s->psi);
  const double m = dot (s->psi, d);
  return (-m + sqrt (m * m + c * dot (d, d))) / c;
}

/* A random unit vector. */
static void
random_dir (double n[3])
{
  double l;
  do
    {
      for (int i = 0; i < 3; i++)
        n[i] = g_test_rand_double_range (-1.0, 1.0);
      l = sqrt (dot (n, n));
    }
  while (l < 0.1 || l > 1.0);
  for (int i = 0; i < 3; i++)
    n[i] /= l;
}

static void
scene_random (scene *s, double psi_max, bool equal_spacing)
{
  s->F = (float) g_test_rand_double_range (0.5, 3.0);
  double n[3];
  random_dir (n);
  const double a = g_test_rand_double_range (0.0, psi_max) * s->F;
  for (int i = 0; i < 3; i++)
    {
      s->psi[i] = a * n[i];
      s->h[i] = equal_spacing && i > 0 ? s->h[0] : g_test_rand_double_range (0.005, 0.02);
    }
  s->grid = fr_grid_3d (20, 20, 20, s->h[0], s->h[1], s->h[2], 0.0, 0.0, 0.0);
  fold_layout_init (&s->layout, &s->grid, 8);
  fold_stencil_build (&s->st, &s->layout, &s->grid, s->psi);
}

/* Displacement apex − base node n of sub-sweep ss, in x, y, z. */
static void
base_disp (const scene *s, const fold_subsweep *ss, int n, double d[3])
{
  d[0] = d[1] = d[2] = 0.0;
  d[ss->axis] = ss->sign * s->h[ss->axis];
  d[ss->u] = -(n % 3 - 1) * s->h[ss->u];
  d[ss->v] = -(n / 3 - 1) * s->h[ss->v];
}

/* A gradient on the eikonal's sheet, F|g| + ψ·g = 1, along n. */
static void
sheet_gradient (const scene *s, const double n[3], double g[3])
{
  const double k = 1.0 / (s->F * sqrt (dot (n, n)) + dot (s->psi, n));
  for (int i = 0; i < 3; i++)
    g[i] = k * n[i];
}

/* The gradient on the sheet whose characteristic, F g/|g| + ψ, points
 * along e. */
static void
gradient_of_ray (const scene *s, const double e[3], double g[3])
{
  const double l = sqrt (dot (e, e)), ep = dot (e, s->psi) / l;
  const double c = (double) s->F * s->F - dot (s->psi, s->psi);
  const double lambda = ep + sqrt (ep * ep + c);
  double n[3];
  for (int i = 0; i < 3; i++)
    n[i] = (lambda * e[i] / l - s->psi[i]) / s->F;
  sheet_gradient (s, n, g);
}

/* Base values of T(y) = T0 + g·(y − apex): T0 − g·d_n. */
static void
linear_base (const scene *s, const fold_subsweep *ss, double T0, const double g[3],
             double Tn[9])
{
  for (int n = 0; n < 9; n++)
    {
      double d[3];
      base_disp (s, ss, n, d);
      Tn[n] = T0 - dot (g, d);
    }
}

/* The speed constants of sub-sweep ss for the scene's F and ψ. */
static void
scene_coef (const scene *s, const fold_subsweep *ss, fold_coef3d *k)
{
  fold_coef3d_set (k, ss, s->F, dot (s->psi, s->psi), sqrt (dot (s->psi, s->psi)));
}

/* Random base values around a front: T linear with a gradient on the
 * sheet, plus noise of 0, 0.1 or 1 of a spacing's time (by `kind`), some
 * nodes unknown (+inf) when `unknown`.  Returns the apex's current value:
 * near the front's, or +inf when `unreached`. */
static double
random_base (const scene *s, const fold_subsweep *ss, int kind, bool unknown, bool unreached,
             double Tn[9])
{
  double n[3], g[3];
  random_dir (n);
  sheet_gradient (s, n, g);
  const double T0 = g_test_rand_double_range (0.5, 5.0);
  linear_base (s, ss, T0, g, Tn);
  const double hs = fmin (s->h[0], fmin (s->h[1], s->h[2])) / s->F;
  const double noise = kind % 3 == 0 ? 0.0 : kind % 3 == 1 ? 0.1 : 1.0;
  for (int m = 0; m < 9; m++)
    {
      Tn[m] += noise * hs * g_test_rand_double_range (-1.0, 1.0);
      if (unknown && g_test_rand_int_range (0, 7) == 0)
        Tn[m] = INFINITY;
    }
  return unreached ? INFINITY : T0 + hs * g_test_rand_double_range (-0.4, 0.4);
}

static void
test_support_is_a_bound (void)
{
  int checked = 0;

  for (int trial = 0; trial < 400; trial++)
    {
      scene s;
      scene_random (&s, 0.9, false);
      const fold_subsweep *ss = &s.st.sub[g_test_rand_int_range (0, 6)];
      double Tn[9];
      const double best = random_base (&s, ss, trial, trial % 5 == 4, trial % 7 == 6, Tn);
      fold_coef3d k;
      scene_coef (&s, ss, &k);
      const fold_support sp = fold_support_3d (ss, &k, Tn, best);

      /* p from the plane's coefficients: A = p·(h_a along the axis
       * towards the apex), U = p_u h_u, V = p_v h_v. */
      double p[3] = { 0.0, 0.0, 0.0 };
      p[ss->axis] = ss->sign * sp.A / s.h[ss->axis];
      p[ss->u] = sp.U / s.h[ss->u];
      p[ss->v] = sp.V / s.h[ss->v];
      for (int m = 0; m < 9; m++)
        {
          double d[3];
          base_disp (&s, ss, m, d);
          if (isfinite (Tn[m]))
            g_assert_cmpfloat (fabs (fold_support_w (&sp, m, Tn[m]) - (Tn[m] + dot (p, d))), <=,
                               1e-12 * (1.0 + fabs (Tn[m])));
        }
      /* τ(d) >= p·d in every direction. */
      for (int sample = 0; sample < 50; sample++)
        {
          double d[3];
          random_dir (d);
          g_assert_cmpfloat (tau_plain (&s, d), >=, dot (p, d) - 1e-12);
        }
      /* T(y) + τ(x − y) >= the least w of a triangle's vertices, at
       * points y of each base triangle. */
      for (int q = 0; q < 8; q++)
        {
          const int v[3] = { fold_tri_node (q, 0), fold_tri_node (q, 1), fold_tri_node (q, 2) };
          if (!isfinite (Tn[v[0]]) || !isfinite (Tn[v[1]]) || !isfinite (Tn[v[2]]))
            continue;
          double wmin = INFINITY;
          for (int i = 0; i < 3; i++)
            wmin = fmin (wmin, fold_support_w (&sp, v[i], Tn[v[i]]));
          for (int sample = 0; sample < 20; sample++)
            {
              double l[3] = { g_test_rand_double (), g_test_rand_double (), g_test_rand_double () };
              const double sum = l[0] + l[1] + l[2];
              double d[3] = { 0.0, 0.0, 0.0 }, T = 0.0;
              for (int i = 0; i < 3; i++)
                {
                  double di[3];
                  base_disp (&s, ss, v[i], di);
                  for (int j = 0; j < 3; j++)
                    d[j] += l[i] / sum * di[j];
                  T += l[i] / sum * Tn[v[i]];
                }
              g_assert_cmpfloat (T + tau_plain (&s, d), >=, wmin - 1e-12 * (1.0 + T));
              checked++;
            }
        }
    }
  g_assert_cmpint (checked, >, 10000);
}

/* The least of fold_node_update_3d's stencil's candidates, each
 * evaluated plainly: all of them (unchanged = 0), or only the triangles and
 * edges whose nodes are all in unchanged (bit n: base node n). */
static double
update_plain (const fold_subsweep *ss, const fold_coef3d *k, const double Tn[9], double best,
              unsigned unchanged)
{
  if (unchanged == 0)
    for (int n = 0; n < 9; n++)
      best = fmin (best, Tn[n] + k->vtau[n]);
  for (int q = 0; q < 8; q++)
    {
      const double T1 = Tn[fold_tri_node (q, 0)], T2 = Tn[fold_tri_node (q, 1)];
      const double T3 = Tn[fold_tri_node (q, 2)];
      if (unchanged != 0 && (fold_tri_nodes (q) & ~unchanged))
        continue;
      if (isfinite (T1) && isfinite (T2) && isfinite (T3))
        best = fmin (best, fold_tri_time (&ss->t[q], T1, T2, T3, k->F));
    }
  for (int q = 0; q < 16; q++)
    {
      const double T1 = Tn[fold_edge_node (q, 0)], T2 = Tn[fold_edge_node (q, 1)];
      if (unchanged != 0 && (fold_edge_nodes (q) & ~unchanged))
        continue;
      if (isfinite (T1) && isfinite (T2))
        best = fmin (best, fold_edge_cand (&ss->e[q], k->c, k->alpha[q], k->beta[q], k->D[q],
                                           T1, T2));
    }
  return best;
}

static void
test_update_is_least_candidate (void)
{
  int lowered = 0;

  for (int trial = 0; trial < 3000; trial++)
    {
      scene s;
      scene_random (&s, 0.9, false);
      const fold_subsweep *ss = &s.st.sub[trial % 6];
      double Tn[9];
      const double best = random_base (&s, ss, trial / 6, trial % 5 == 4, trial % 11 == 10, Tn);
      fold_coef3d k;
      scene_coef (&s, ss, &k);
      /* Every base node changed, or some.  Then, as in a solve, the
       * triangles and edges of unchanged nodes alone are no lower than the
       * node's value (best): they were looked at when it was set.  The
       * update's ways of skipping a candidate must not combine into one
       * that skips a lower candidate. */
      const unsigned changed
        = trial % 3 == 0 ? 0x1ffu : (unsigned) g_test_rand_int_range (1, 0x1ff);
      double best_in = best;
      if (changed != 0x1ffu)
        best_in = fmin (best, update_plain (ss, &k, Tn, INFINITY, 0x1ffu & ~changed));
      const double want = update_plain (ss, &k, Tn, best_in, 0);
      const double got = fold_node_update_3d (ss, &k, Tn, best_in, changed);
      if (isinf (want))
        g_assert_cmpfloat (got, ==, want);
      else
        g_assert_cmpfloat (fabs (got - want), <=, 1e-13 * fabs (want));
      lowered += want < best_in;

      /* Single precision: the same update in float. */
      fold_coef3d_f kf;
      fold_coef3d_set_f (&kf, ss, s.F, dot (s.psi, s.psi), sqrt (dot (s.psi, s.psi)));
      float Tf[9];
      for (int m = 0; m < 9; m++)
        Tf[m] = (float) Tn[m];
      const float gotf = fold_node_update_3d_f (ss, &kf, Tf, (float) best_in, changed);
      if (isinf (want))
        g_assert_cmpfloat (gotf, ==, (float) want);
      else
        g_assert_cmpfloat (fabs (gotf - want), <=, 2e-6 * fabs (want) + 1e-7);
    }
  /* The cases lower the apex often enough to test something. */
  g_assert_cmpint (lowered, >, 300);
}

/* A linear field: the bound over the whole base, its least w, against
 * the apex's exact time. */
static double
support_margin (const scene *s, const fold_subsweep *ss, const double g[3], double *T0out)
{
  double Tn[9];
  const double T0 = 2.0;
  linear_base (s, ss, T0, g, Tn);
  fold_coef3d k;
  scene_coef (s, ss, &k);
  const fold_support sp = fold_support_3d (ss, &k, Tn, T0);
  double wmin = INFINITY;
  for (int m = 0; m < 9; m++)
    wmin = fmin (wmin, fold_support_w (&sp, m, Tn[m]));
  *T0out = T0;
  return wmin - T0;
}

static void
test_prunes_lateral_fronts (void)
{
  for (int trial = 0; trial < 600; trial++)
    {
      scene s, se;
      scene_random (&s, 0.3, false);
      scene_random (&se, 0.3, true);
      const int sub = trial % 6;
      const fold_subsweep *ss = &s.st.sub[sub];
      const double hs = fmin (s.h[0], fmin (s.h[1], s.h[2])) / s.F;
      /* A front whose characteristic runs along the base plane or away
       * from it: no candidate of this base can reach the apex before T0,
       * and the bound must show it, by a margin. */
      double e[3], g[3], T0;
      random_dir (e);
      e[ss->axis] = trial % 2 == 0 ? 0.0 : -ss->sign * fabs (e[ss->axis]);
      if (sqrt (dot (e, e)) < 0.3)
        continue;
      gradient_of_ray (&s, e, g);
      g_assert_cmpfloat (support_margin (&s, ss, g, &T0), >, 0.01 * hs);

      /* A front coming through the base, its characteristic inside the
       * pyramid (equal spacings, at most 45 degrees off the axis): the
       * bound stays below T0 and the update finds T0. */
      const fold_subsweep *sse = &se.st.sub[sub];
      const double hse = se.h[0] / se.F;
      random_dir (e);
      e[sse->axis] = sse->sign * (3.0 + fabs (e[sse->axis]));
      gradient_of_ray (&se, e, g);
      g_assert_cmpfloat (support_margin (&se, sse, g, &T0), <, 0.0);
      double Tn[9];
      linear_base (&se, sse, T0, g, Tn);
      fold_coef3d k;
      scene_coef (&se, sse, &k);
      const double got = fold_node_update_3d (sse, &k, Tn, T0 + 0.5 * hse, 0x1ffu);
      g_assert_cmpfloat (fabs (got - T0), <=, 1e-12 * T0);
    }
}

/* The bound a solve tests before it computes a new speed's constants
 * (fold_coef_tlb; in a velocity gradient every node has its own speed):
 * it is the value the sets keep, no candidate of the stencil, each
 * evaluated plainly, lies below the least base value plus it, and where
 * the least base value plus it does not undercut the node's value the
 * update leaves that value as it is. */
static void
test_bound_before_set (void)
{
  int skipped = 0;

  for (int trial = 0; trial < 2000; trial++)
    {
      scene s;
      scene_random (&s, 0.9, false);
      const double psin = sqrt (dot (s.psi, s.psi));
      const fold_subsweep *ss = &s.st.sub[trial % 6];
      fold_coef3d k;
      fold_coef3d_f kf;
      scene_coef (&s, ss, &k);
      fold_coef3d_set_f (&kf, ss, s.F, dot (s.psi, s.psi), psin);
      g_assert_cmpfloat (k.tlb, ==, fold_coef_tlb (ss, s.F, psin));
      g_assert_cmpfloat (kf.tlb, ==, fold_coef_tlb_f (ss, s.F, psin));

      double Tn[9];
      const double best = random_base (&s, ss, trial / 6, trial % 5 == 4, trial % 11 == 10, Tn);
      double mn = INFINITY;
      for (int n = 0; n < 9; n++)
        mn = fmin (mn, Tn[n]);
      const double least = update_plain (ss, &k, Tn, INFINITY, 0);
      if (isfinite (least))
        g_assert_cmpfloat (least, >=, mn + k.tlb - 1e-12 * fabs (least));
      if (!(mn + k.tlb < best))
        {
          g_assert_cmpfloat (fold_node_update_3d (ss, &k, Tn, best, 0x1ffu), ==, best);
          skipped++;
        }
    }
  g_assert_cmpint (skipped, >, 100);

  /* 2D: the sets keep the same bound. */
  for (int trial = 0; trial < 200; trial++)
    {
      const double h[2] = { g_test_rand_double_range (0.005, 0.02),
                            g_test_rand_double_range (0.005, 0.02) };
      const float F = (float) g_test_rand_double_range (0.5, 3.0);
      const double psi[3] = { g_test_rand_double_range (-0.4, 0.4) * F, 0.0,
                              g_test_rand_double_range (-0.4, 0.4) * F };
      const double psi2 = psi[0] * psi[0] + psi[2] * psi[2], psin = sqrt (psi2);
      fr_grid g = fr_grid_2d (20, 20, h[0], h[1], 0.0, 0.0);
      fold_layout L;
      fold_stencil st;
      fold_layout_init (&L, &g, 8);
      fold_stencil_build (&st, &L, &g, psi);
      const fold_subsweep *ss = &st.sub[trial % st.nsub];
      fold_coef2d k;
      fold_coef2d_f kf;
      fold_coef2d_set (&k, ss, F, psi2, psin);
      fold_coef2d_set_f (&kf, ss, F, psi2, psin);
      g_assert_cmpfloat (k.tlb, ==, fold_coef_tlb (ss, F, psin));
      g_assert_cmpfloat (kf.tlb, ==, fold_coef_tlb_f (ss, F, psin));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/local/support-is-a-bound", test_support_is_a_bound);
  g_test_add_func ("/fold/local/update-is-least-candidate", test_update_is_least_candidate);
  g_test_add_func ("/fold/local/prunes-lateral-fronts", test_prunes_lateral_fronts);
  g_test_add_func ("/fold/local/bound-before-set", test_bound_before_set);
  return g_test_run ();
}
