/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fold solver benchmark after Gillberg et al. (2014): Ex_A, Ex_B, Ex_C,
 * Ex_D and a 3D fold case (a horizon surface as the boundary), on n³
 * grids, LAS and SOLAS, on the CPU, the CUDA back end or both.  For each
 * run: solve time (least of --runs; for cuda also the device time alone),
 * passes, schedules, subdomain sweeps, the host's waits for the device,
 * the throughput, and with both back ends the speedup of cuda over the CPU
 * of the same run and the largest difference between the two solutions.
 * The CSV also splits the solve time: start values on the host, and for
 * cuda the set-up and uploads and T's way back (fr_fold_result).
 * Where the paper gives its K20 time for the same case, size and precision
 * (k20_times below), that time and our speedup over it.
 * Prints a table and writes CSV.  Models come from data/fold/fold-models.h.
 *
 *   bench-fold [--sizes 84,168] [--cases ex-a,ex-b,ex-c,ex-d,fold3d]
 *              [--methods las,solas] [--precision single,double] [--double]
 *              [--backend cpu|cuda|both] [--block B] [--blocks 4,6,8,...]
 *              [--threads N] [--runs N] [--max-seconds S] [--paper]
 *              [--2d 512,1024,2048] [--inner N] [--batch N] [--min-act N]
 *              [--graph on|off] [--sched passes|queue] [--rounds-max N]
 *              [--eager on|off] [--admit on|off] [--once 0|3]
 *              [--gradient] [--dry-run] [CSV]
 *
 *   --paper        the paper's matrix: ex-a, ex-b, ex-c and ex-d on 84, 168,
 *                  336 and 504, fold3d on 266 and 518, single and double
 *                  (replaces --sizes, --cases and --precision)
 *   --blocks       subdomain edges for the CUDA back end, one run each, to
 *                  choose its default by measurement (the CPU runs once,
 *                  with --block)
 *   --max-seconds  skip a CPU run when the smaller CPU runs of the same
 *                  case, method and precision predict more than S seconds
 *   --2d           instead of the 3D cases: a 2D fold (horizon polyline
 *                  start, layered speeds, ψa ≠ 0) on n² grids, both back
 *                  ends unless --backend says otherwise; the CUDA runs keep
 *                  T on the device as the application does
 *   --gradient     fold3d and the 2D fold with a smooth speed gradient,
 *                  F = 0.8 + 1.4 z + 0.1 sin 6x (every node its own speed, as
 *                  a model editor's velocity gradient gives), instead of
 *                  their constant and layered speeds; named fold3d-grad and
 *                  2d-grad; the other cases are unchanged
 *   --inner, --batch, --min-act, --graph, --sched, --rounds-max, --eager,
 *   --admit, --once
 *                  the CUDA back end's knobs (fold-cuda-tune.h)
 *   --dry-run      list the runs (and the K20 times known for them) only
 *
 * With cuda, one small warm-up solve first takes the context creation and
 * module load out of the timings.  Memory: every model, result and
 * reference is freed before the next size (504³ in double is 1 GB per grid). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold-models.h"
#include "foldray-config.h"
#include "fr-device.h"
#include "fr-fold.h"
#if FOLDRAY_HAVE_CUDA
#include "fold-cuda-tune.h"
#endif

#define MAX_LIST 16
#define MAX_JOBS 64
#define CASE_2D FOLD_MODEL_COUNT   /* the 2D mode's case, after the paper's */

/* The paper's own times on an NVIDIA Tesla K20 (Gillberg, Bruaset, Hjelle
 * & Sourouri 2014), as quoted in our issue; only these four are known
 * here, every other row is left blank.  (Our fold3d is our stand-in for the
 * paper's fold model, so that comparison is indicative only.) */
static const struct k20_time {
  int model;                  /* fold_model_id */
  int n;
  bool dbl;
  const char *method;         /* NULL: not stated, any method */
  double seconds;
} k20_times[] = {
  { FOLD_FOLD3D, 266, false, "solas", 0.43 },
  { FOLD_FOLD3D, 518, false, NULL, 2.98 },
  { FOLD_EX_C, 504, true, NULL, 4.5 },
  { FOLD_EX_D, 504, true, NULL, 5.7 },
};

typedef struct job {
  int model;                  /* fold_model_id or CASE_2D */
  int n;
} job;

typedef struct options {
  job jobs[MAX_JOBS];
  int njobs;
  int sizes[MAX_LIST], nsizes;
  int cases[MAX_LIST], ncases;
  int sizes2d[MAX_LIST], nsizes2d;
  fr_fold_method methods[MAX_LIST];
  int nmethods;
  bool precision[2];          /* [0] single, [1] double */
  bool cpu, cuda, backend_given;
  int blocks[MAX_LIST], nblocks;
  int threads, runs, block;
  double max_seconds;         /* 0: no guard */
  bool paper, dry_run;
  bool gradient;              /* --gradient */
  const char *csv;
} options;

/* One line of the table and the CSV. */
typedef struct row {
  const char *model;
  size_t n;
  int ndim;
  fr_fold_method method;
  bool dbl;
  fr_fold_backend backend;
  int block, threads;
  double ms, device_ms;       /* NAN: not run */
  double start_ms, setup_ms, results_ms;   /* parts of ms (fr_fold_result) */
  long iterations, schedules, round_trips;
  uint64_t sweeps;
  size_t subdomains, nodes;
  double tmax;
  double speedup;             /* over the CPU of this run, NAN if none */
  double k20_ms, speedup_k20; /* NAN where unknown */
  double max_diff;            /* largest |T − T_cpu| / max(1, |T_cpu|), NAN if no CPU */
  char note[256];
} row;

/* CPU times seen so far per case, method and precision: the last two
 * (n, ms), for --max-seconds. */
typedef struct cpu_history {
  int n[2];
  double ms[2];
  int count;
} cpu_history;

/* ------------------------------------------------------------ arguments */

static int
parse_ints (const char *s, int *out, int min)
{
  int n = 0;
  char *end;
  while (*s != '\0' && n < MAX_LIST)
    {
      long v = strtol (s, &end, 10);
      if (end == s || v < min || v > 100000)
        return -1;
      out[n++] = (int) v;
      if (*end != ',' && *end != '\0')
        return -1;
      s = *end == ',' ? end + 1 : end;
    }
  return n;
}

/* Names to ids: 0 cases, 1 methods, 2 precisions, 3 back ends. */
static int
parse_names (const char *s, int *out, int kind)
{
  int n = 0;
  char buf[256], *save = NULL;
  snprintf (buf, sizeof buf, "%s", s);
  for (char *tok = strtok_r (buf, ",", &save); tok != NULL && n < MAX_LIST;
       tok = strtok_r (NULL, ",", &save))
    {
      int found = -1;
      if (kind == 1)
        {
          fr_fold_method m;
          if (fr_fold_method_from_name (tok, &m) && m != FR_FOLD_METHOD_AUTO)
            found = (int) m;
        }
      else if (kind == 2)
        found = strcmp (tok, "single") == 0 ? 0 : strcmp (tok, "double") == 0 ? 1 : -1;
      else if (kind == 3)
        found = strcmp (tok, "cpu") == 0 ? 0 : strcmp (tok, "cuda") == 0 ? 1
              : strcmp (tok, "both") == 0 ? 2 : -1;
      else
        for (int k = 0; k < FOLD_MODEL_COUNT; k++)
          if (strcmp (tok, fold_model_names[k]) == 0)
            found = k;
      if (found < 0)
        return -1;
      out[n++] = found;
    }
  return n;
}

static int
cmp_int (const void *a, const void *b)
{
  return *(const int *) a - *(const int *) b;
}

/* The (case, n) pairs to run, each case's sizes ascending (so that the
 * --max-seconds guard has the smaller runs first). */
static void
build_jobs (options *o)
{
  static const int paper_sizes[] = { 84, 168, 336, 504 };
  static const int paper_fold_sizes[] = { 266, 518 };

  o->njobs = 0;
  if (o->nsizes2d > 0)
    {
      qsort (o->sizes2d, (size_t) o->nsizes2d, sizeof (int), cmp_int);
      for (int s = 0; s < o->nsizes2d; s++)
        o->jobs[o->njobs++] = (job) { CASE_2D, o->sizes2d[s] };
      return;
    }
  if (o->paper)
    {
      for (int c = FOLD_EX_A; c <= FOLD_EX_D; c++)
        for (size_t s = 0; s < sizeof paper_sizes / sizeof paper_sizes[0]; s++)
          o->jobs[o->njobs++] = (job) { c, paper_sizes[s] };
      for (size_t s = 0; s < sizeof paper_fold_sizes / sizeof paper_fold_sizes[0]; s++)
        o->jobs[o->njobs++] = (job) { FOLD_FOLD3D, paper_fold_sizes[s] };
      return;
    }
  qsort (o->sizes, (size_t) o->nsizes, sizeof (int), cmp_int);
  for (int c = 0; c < o->ncases; c++)
    for (int s = 0; s < o->nsizes && o->njobs < MAX_JOBS; s++)
      o->jobs[o->njobs++] = (job) { o->cases[c], o->sizes[s] };
}

static int
parse_args (int argc, char **argv, options *o)
{
  o->sizes[0] = 84, o->sizes[1] = 168, o->nsizes = 2;
  o->cases[0] = FOLD_EX_A, o->cases[1] = FOLD_EX_C, o->cases[2] = FOLD_EX_D;
  o->cases[3] = FOLD_FOLD3D, o->ncases = 4;
  o->methods[0] = FR_FOLD_LAS, o->methods[1] = FR_FOLD_SOLAS, o->nmethods = 2;
  o->precision[0] = true;
  o->cpu = true;
  o->runs = 1;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      int m[MAX_LIST], k;
      if (strcmp (a, "--sizes") == 0 && v && (o->nsizes = parse_ints (v, o->sizes, 2)) > 0)
        i++;
      else if (strcmp (a, "--cases") == 0 && v && (o->ncases = parse_names (v, o->cases, 0)) > 0)
        i++;
      else if (strcmp (a, "--methods") == 0 && v && (o->nmethods = parse_names (v, m, 1)) > 0)
        {
          for (k = 0; k < o->nmethods; k++)
            o->methods[k] = (fr_fold_method) m[k];
          i++;
        }
      else if (strcmp (a, "--precision") == 0 && v && (k = parse_names (v, m, 2)) > 0)
        {
          o->precision[0] = o->precision[1] = false;
          while (k-- > 0)
            o->precision[m[k]] = true;
          i++;
        }
      else if (strcmp (a, "--double") == 0)
        o->precision[0] = false, o->precision[1] = true;
      else if (strcmp (a, "--backend") == 0 && v && parse_names (v, m, 3) == 1)
        {
          o->cpu = m[0] != 1;
          o->cuda = m[0] != 0;
          o->backend_given = true;
          i++;
        }
      else if (strcmp (a, "--blocks") == 0 && v && (o->nblocks = parse_ints (v, o->blocks, 2)) > 0)
        i++;
      else if (strcmp (a, "--2d") == 0 && v && (o->nsizes2d = parse_ints (v, o->sizes2d, 2)) > 0)
        i++;
      else if (strcmp (a, "--threads") == 0 && v)
        o->threads = atoi (argv[++i]);
      else if (strcmp (a, "--runs") == 0 && v)
        o->runs = atoi (argv[++i]);
      else if (strcmp (a, "--block") == 0 && v)
        o->block = atoi (argv[++i]);
      else if (strcmp (a, "--max-seconds") == 0 && v)
        o->max_seconds = atof (argv[++i]);
#if FOLDRAY_HAVE_CUDA
      else if (strcmp (a, "--inner") == 0 && v)
        fold_cuda_tuning.inner = atoi (argv[++i]);
      else if (strcmp (a, "--batch") == 0 && v)
        fold_cuda_tuning.batch = atoi (argv[++i]);
      else if (strcmp (a, "--min-act") == 0 && v)
        fold_cuda_tuning.min_act = atoi (argv[++i]);
      else if (strcmp (a, "--rounds-max") == 0 && v)
        fold_cuda_tuning.rounds_max = atoi (argv[++i]);
      else if (strcmp (a, "--eager") == 0 && v && (strcmp (v, "on") == 0 || strcmp (v, "off") == 0))
        fold_cuda_tuning.eager = strcmp (argv[++i], "on") == 0 ? 1 : -1;
      else if (strcmp (a, "--once") == 0 && v)
        fold_cuda_tuning.once3d = atoi (argv[++i]);
      else if (strcmp (a, "--admit") == 0 && v && (strcmp (v, "on") == 0 || strcmp (v, "off") == 0))
        fold_cuda_tuning.admit = strcmp (argv[++i], "on") == 0 ? 1 : -1;
      else if (strcmp (a, "--sched") == 0 && v
               && (strcmp (v, "passes") == 0 || strcmp (v, "queue") == 0))
        fold_cuda_tuning.sched = strcmp (argv[++i], "queue") == 0 ? FOLD_CUDA_SCHED_QUEUE
                                                                   : FOLD_CUDA_SCHED_PASSES;
      else if (strcmp (a, "--graph") == 0 && v && (strcmp (v, "on") == 0 || strcmp (v, "off") == 0))
        fold_cuda_tuning.graph = strcmp (argv[++i], "on") == 0 ? FOLD_CUDA_GRAPH_ON
                                                                : FOLD_CUDA_GRAPH_OFF;
#endif
      else if (strcmp (a, "--paper") == 0)
        o->paper = true;
      else if (strcmp (a, "--gradient") == 0)
        o->gradient = true;
      else if (strcmp (a, "--dry-run") == 0)
        o->dry_run = true;
      else if (a[0] != '-' && o->csv == NULL)
        o->csv = a;
      else
        {
          fprintf (stderr, "bench-fold: bad argument '%s' (see the head of bench-fold.c)\n", a);
          return -1;
        }
    }
  if (o->runs < 1)
    o->runs = 1;
  if (o->paper)
    o->precision[0] = o->precision[1] = true;
  /* The 2D mode compares both back ends unless told otherwise. */
  if (o->nsizes2d > 0 && !o->backend_given)
    o->cpu = o->cuda = true;
  if (o->nblocks == 0)
    o->blocks[0] = o->block, o->nblocks = 1;
  build_jobs (o);
  return 0;
}

/* --------------------------------------------------------------- models */

/* A problem to solve: a fold_model (3D) or the 2D case, owning its arrays. */
typedef struct bench_model {
  fr_grid g;
  fold_model m;               /* 3D; m.speed, m.boundary owned */
  float *speed2d;             /* 2D */
  double *horizon;            /* 2D polyline (x, z) */
  size_t nhorizon;
  double flat[13 * 3];        /* sources, ndim per source */
} bench_model;

static void
bench_model_clear (bench_model *b)
{
  free (b->m.speed);
  free (b->m.boundary);
  free (b->speed2d);
  free (b->horizon);
  memset (b, 0, sizeof *b);
}

/* The 2D case: n² nodes over [0, 2] × [0, 1], five wavy layers of speed
 * 0.8–2.2, a horizon polyline of 64 points that crosses the grid from
 * side to side (and starts and ends outside it), ψa = (0.3, −0.2). */
static int
make_2d (bench_model *b, size_t n)
{
  static const float layers[5] = { 1.0f, 1.6f, 0.8f, 2.2f, 1.2f };
  const size_t np = 64;

  b->g = fr_grid_2d (n, n, 2.0 / (double) (n - 1), 1.0 / (double) (n - 1), 0, 0);
  b->speed2d = malloc (n * n * sizeof *b->speed2d);
  b->horizon = malloc (2 * np * sizeof *b->horizon);
  if (b->speed2d == NULL || b->horizon == NULL)
    return -1;
  for (size_t i = 0; i < n * n; i++)
    {
      double u = (double) (i % n) / (double) (n - 1), w = (double) (i / n) / (double) (n - 1);
      int k = (int) floor ((w + 0.08 * sin (6.0 * u)) * 5.0);
      b->speed2d[i] = layers[k < 0 ? 0 : k > 4 ? 4 : k];
    }
  for (size_t k = 0; k < np; k++)
    {
      double x = -0.1 + 2.2 * (double) k / (double) (np - 1);
      b->horizon[2 * k] = x;
      b->horizon[2 * k + 1] = 0.45 + 0.15 * sin (3.0 * x) + 0.03 * cos (11.0 * x);
    }
  b->nhorizon = np;
  b->m.psi[0] = 0.3, b->m.psi[2] = -0.2;
  return 0;
}

/* Whether --gradient changes this job's model. */
static bool
job_gradient (const options *o, const job *jb)
{
  return o->gradient && (jb->model == CASE_2D || jb->model == FOLD_FOLD3D);
}

/* --gradient's speed at (x, z) of the unit square or cube. */
static float
gradient_speed (double x, double z)
{
  return (float) (0.8 + 1.4 * z + 0.1 * sin (6.0 * x));
}

static int
bench_model_make (bench_model *b, const job *jb, bool gradient)
{
  memset (b, 0, sizeof *b);
  size_t n = (size_t) jb->n;
  if (jb->model == CASE_2D)
    {
      if (make_2d (b, n) != 0)
        return -1;
      for (size_t i = 0; gradient && i < n * n; i++)
        b->speed2d[i] = gradient_speed ((double) (i % n) / (double) (n - 1),
                                        (double) (i / n) / (double) (n - 1));
      return 0;
    }
  if (fold_model_make (&b->m, (fold_model_id) jb->model, n, malloc) != 0)
    return -1;
  if (gradient)
    {
      /* fold3d's unit cube; its constant speed gives way to the grid. */
      b->m.speed = malloc (n * n * n * sizeof *b->m.speed);
      if (b->m.speed == NULL)
        return -1;
      for (size_t i = 0; i < n * n * n; i++)
        b->m.speed[i] = gradient_speed ((double) (i % n) / (double) (n - 1),
                                        (double) (i / (n * n)) / (double) (n - 1));
      b->m.speed_const = 0.0;
    }
  b->g = fr_grid_3d (n, n, n, b->m.d[0], b->m.d[1], b->m.d[2], 0, 0, 0);
  for (int k = 0; k < b->m.nsrc; k++)
    memcpy (b->flat + 3 * k, b->m.src[k], sizeof b->m.src[k]);
  return 0;
}

static const char *
bench_model_name (const job *jb, bool gradient)
{
  if (jb->model == CASE_2D)
    return gradient ? "2d-grad" : "2d-horizon";
  return gradient ? "fold3d-grad" : fold_model_names[jb->model];
}

static void
bench_params (const bench_model *b, const options *o, fr_fold_method method, bool dbl,
              fr_fold_params *p)
{
  fr_fold_params_init (p);
  p->speed = b->g.ndim == 2 ? b->speed2d : b->m.speed;
  p->speed_const = b->m.speed_const > 0 ? b->m.speed_const : 1.0;
  memcpy (p->psi_a, b->m.psi, sizeof p->psi_a);
  p->method = method;
  p->threads = o->threads;
  p->double_precision = dbl;
}

static fr_fold_start
bench_start (const bench_model *b)
{
  fr_fold_start st = {
    .sources = b->m.nsrc ? b->flat : NULL,
    .nsrc = (size_t) b->m.nsrc,
    .boundary = b->m.boundary,
    .horizon = b->horizon,
    .nhorizon = b->nhorizon,
  };
  return st;
}

/* -------------------------------------------------------------- running */

/* Solves `runs` times, keeping the result of the fastest run in *best. */
static int
solve_best (const bench_model *b, const fr_fold_params *p, int runs, fr_fold_result *best,
            const char *name)
{
  fr_fold_start st = bench_start (b);

  memset (best, 0, sizeof *best);
  for (int r = 0; r < runs; r++)
    {
      fr_fold_result res = { 0 };
      fr_error err = { 0 };
      if (fr_fold_solve (&b->g, &st, p, &res, &err) != FR_OK)
        {
          fprintf (stderr, "bench-fold: %s (%s): %s\n", name, fr_fold_backend_name (p->backend),
                   err.message);
          fr_fold_result_clear (&res);
          fr_fold_result_clear (best);
          return -1;
        }
      if (r == 0 || res.solve_ms < best->solve_ms)
        {
          fr_fold_result_clear (best);
          *best = res;
        }
      else
        fr_fold_result_clear (&res);
    }
  return 0;
}

/* One tiny CUDA solve, so that context creation and module loading are not
 * timed with the first case. */
static void
cuda_warm_up (void)
{
  fr_grid g = fr_grid_3d (16, 16, 16, 1.0, 1.0, 1.0, 0, 0, 0);
  double src[3] = { 8, 8, 8 };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_fold_params p;
  fr_fold_result res = { 0 };
  fr_error err = { 0 };

  fr_fold_params_init (&p);
  p.backend = FR_FOLD_CUDA;
  if (fr_fold_solve (&g, &st, &p, &res, &err) != FR_OK)
    fprintf (stderr, "bench-fold: cuda warm-up: %s\n", err.message);
  else if (res.backend != FR_FOLD_CUDA)
    fprintf (stderr, "bench-fold: cuda warm-up ran on the CPU: %s\n", res.notice);
  fr_fold_result_clear (&res);
}

/* The paper's K20 time for this row in ms, or NAN. */
static double
k20_ms (int model, size_t n, bool dbl, fr_fold_method method)
{
  for (size_t k = 0; k < sizeof k20_times / sizeof k20_times[0]; k++)
    {
      const struct k20_time *t = &k20_times[k];
      if (t->model == model && (size_t) t->n == n && t->dbl == dbl
          && (t->method == NULL || strcmp (t->method, fr_fold_method_name (method)) == 0))
        return t->seconds * 1e3;
    }
  return NAN;
}

/* The predicted CPU time in ms of size n from the history: the last time
 * scaled by (n / n_last)^e, e the growth exponent between the last two
 * sizes, at least 3 (work grows at least with the node count). */
static double
cpu_predict_ms (const cpu_history *h, int n)
{
  if (h->count == 0)
    return 0.0;
  int last = (h->count - 1) % 2;
  double e = 3.0;
  if (h->count >= 2)
    {
      int prev = 1 - last;
      if (h->n[last] > h->n[prev] && h->ms[prev] > 0.0)
        e = fmax (3.0, log (h->ms[last] / h->ms[prev]) / log ((double) h->n[last] / h->n[prev]));
    }
  return h->ms[last] * pow ((double) n / h->n[last], e);
}

static void
cpu_history_add (cpu_history *h, int n, double ms)
{
  int slot = h->count % 2;
  h->n[slot] = n;
  h->ms[slot] = ms;
  h->count++;
}

/* Largest |a − ref| / max(1, |ref|), +inf where one is +inf and the other not. */
static double
max_rel_diff (const double *ref, const double *a, size_t n)
{
  double m = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      if (isinf (ref[i]) || isinf (a[i]))
        {
          if (ref[i] != a[i])
            return INFINITY;
          continue;
        }
      m = fmax (m, fabs (a[i] - ref[i]) / fmax (1.0, fabs (ref[i])));
    }
  return m;
}

static void
row_from_result (row *r, const fr_fold_result *res)
{
  r->backend = res->backend;
  r->block = res->block;
  r->threads = res->threads;
  r->ms = res->solve_ms;
  r->device_ms = res->backend == FR_FOLD_CUDA ? res->device_ms : NAN;
  r->start_ms = res->start_ms;
  r->setup_ms = res->backend == FR_FOLD_CUDA ? res->setup_ms : NAN;
  r->results_ms = res->backend == FR_FOLD_CUDA ? res->results_ms : NAN;
  r->iterations = res->iterations;
  r->schedules = res->schedules;
  r->round_trips = res->host_round_trips;
  r->sweeps = res->subdomain_sweeps;
  r->subdomains = res->subdomains;
  r->tmax = 0.0;
  for (size_t i = 0; i < r->nodes; i++)
    if (isfinite (res->time[i]))
      r->tmax = fmax (r->tmax, res->time[i]);
  /* The notice, without double quotes (the CSV quotes it). */
  snprintf (r->note, sizeof r->note, "%s", res->notice);
  for (char *c = r->note; *c != '\0'; c++)
    if (*c == '"')
      *c = '\'';
}

/* A number for the table or the CSV with the given decimals (< 0: in
 * exponent form with 2), blank when NAN. */
static const char *
fmt (char buf[32], int decimals, double v)
{
  if (isnan (v))
    buf[0] = '\0';
  else if (decimals < 0)
    snprintf (buf, 32, "%.2e", v);
  else
    snprintf (buf, 32, "%.*f", decimals, v);
  return buf;
}

static void
print_header (FILE *csv)
{
  printf ("%-10s %5s %-5s %-6s %-4s %3s %10s %10s %6s %5s %8s %6s %9s %8s %9s %8s %9s %8s\n",
          "case", "n", "meth", "prec", "back", "b", "ms", "device ms", "passes", "sched",
          "sweep/sd", "trips", "Mnode/s", "xCPU", "K20 ms", "xK20", "max diff", "T max");
  if (csv)
    fprintf (csv, "case,n,ndim,method,precision,backend,threads,block,ms,device_ms,iterations,"
                  "schedules,sweeps,subdomains,sweeps_per_subdomain,host_round_trips,"
                  "mnodes_per_s,mnodes_per_s_per_core,speedup_vs_cpu,k20_ms,speedup_vs_k20,"
                  "max_rel_diff_vs_cpu,t_max,start_ms,setup_ms,results_ms,note\n");
}

static void
print_row (const row *r, FILE *csv)
{
  char b[9][32];
  const bool ran = !isnan (r->ms);
  const double spsd = ran && r->subdomains ? (double) r->sweeps / (double) r->subdomains : NAN;
  const double mnps = ran ? (double) r->nodes / (r->ms * 1e-3) / 1e6 : NAN;
  const double per_core = ran && r->threads > 0 ? mnps / r->threads : NAN;
  const char *prec = r->dbl ? "double" : "single";
  const char *back = fr_fold_backend_name (r->backend);

  printf ("%-10s %5zu %-5s %-6s %-4s %3d %10s %10s %6ld %5ld %8s %6ld %9s %8s %9s %8s %9s %8s%s%s\n",
          r->model, r->n, fr_fold_method_name (r->method), prec, back, r->block,
          fmt (b[0], 2, r->ms), fmt (b[1], 2, r->device_ms), r->iterations,
          r->schedules, fmt (b[2], 2, spsd), r->round_trips, fmt (b[3], 2, mnps),
          fmt (b[4], 2, r->speedup), fmt (b[5], 0, r->k20_ms),
          fmt (b[6], 2, r->speedup_k20), fmt (b[7], -1, r->max_diff), fmt (b[8], 3, r->tmax),
          r->note[0] ? "  " : "", r->note);
  fflush (stdout);
  if (csv == NULL)
    return;
  fprintf (csv, "%s,%zu,%d,%s,%s,%s,%d,%d,", r->model, r->n, r->ndim,
           fr_fold_method_name (r->method), prec, back, r->threads, r->block);
  fprintf (csv, "%s,", fmt (b[0], 3, r->ms));
  fprintf (csv, "%s,", fmt (b[0], 3, r->device_ms));
  fprintf (csv, "%ld,%ld,%llu,%zu,", r->iterations, r->schedules, (unsigned long long) r->sweeps,
           r->subdomains);
  fprintf (csv, "%s,", fmt (b[0], 4, spsd));
  fprintf (csv, "%ld,", r->round_trips);
  fprintf (csv, "%s,", fmt (b[0], 4, mnps));
  fprintf (csv, "%s,", fmt (b[0], 4, per_core));
  fprintf (csv, "%s,", fmt (b[0], 3, r->speedup));
  fprintf (csv, "%s,", fmt (b[0], 0, r->k20_ms));
  fprintf (csv, "%s,", fmt (b[0], 3, r->speedup_k20));
  fprintf (csv, "%s,", fmt (b[0], -1, r->max_diff));
  fprintf (csv, "%s,", fmt (b[0], 6, r->tmax));
  fprintf (csv, "%s,", fmt (b[0], 3, r->start_ms));
  fprintf (csv, "%s,", fmt (b[0], 3, r->setup_ms));
  fprintf (csv, "%s,", fmt (b[0], 3, r->results_ms));
  fprintf (csv, "\"%s\"\n", r->note);
  fflush (csv);
}

/* Every run of one model: per precision and method, the CPU (unless
 * skipped), then the CUDA back end for each block. */
static int
run_job (const options *o, const job *jb, cpu_history hist[][3][2], FILE *csv)
{
  bench_model b;
  const bool gradient = job_gradient (o, jb);
  const char *name = bench_model_name (jb, gradient);

  if (o->dry_run)
    {
      for (int dbl = 0; dbl < 2; dbl++)
        for (int mi = 0; mi < o->nmethods && o->precision[dbl]; mi++)
          {
            char k20[32];
            printf ("%-10s %5d %-5s %-6s %s%s  K20 ms: %s\n", name, jb->n,
                    fr_fold_method_name (o->methods[mi]), dbl ? "double" : "single",
                    o->cpu ? "cpu " : "", o->cuda ? "cuda" : "",
                    fmt (k20, 0, gradient ? NAN
                                : k20_ms (jb->model, (size_t) jb->n, dbl, o->methods[mi])));
          }
      return 0;
    }
  if (bench_model_make (&b, jb, gradient) != 0)
    {
      fprintf (stderr, "bench-fold: out of memory for %s %d\n", name, jb->n);
      bench_model_clear (&b);
      return -1;
    }
  const size_t nodes = fr_grid_count (&b.g);

  for (int dbl = 0; dbl < 2; dbl++)
    for (int mi = 0; mi < o->nmethods && o->precision[dbl]; mi++)
      {
        fr_fold_params p;
        fr_fold_result res;
        double *cpu_time = NULL, cpu_ms = NAN;
        row base = { .model = name, .n = (size_t) jb->n, .ndim = b.g.ndim,
                     .method = o->methods[mi], .dbl = dbl, .nodes = nodes };

        base.k20_ms = gradient ? NAN : k20_ms (jb->model, base.n, dbl, o->methods[mi]);
        bench_params (&b, o, o->methods[mi], dbl, &p);

        if (o->cpu)
          {
            cpu_history *h = &hist[jb->model][o->methods[mi]][dbl];
            double est = cpu_predict_ms (h, jb->n);
            row r = base;
            r.backend = FR_FOLD_CPU;
            r.ms = r.device_ms = r.speedup = r.speedup_k20 = r.max_diff = r.tmax = NAN;
            r.start_ms = r.setup_ms = r.results_ms = NAN;
            if (o->max_seconds > 0 && est > o->max_seconds * 1e3)
              {
                snprintf (r.note, sizeof r.note, "skipped: predicted %.3g s > --max-seconds %g",
                          est * 1e-3, o->max_seconds);
                print_row (&r, csv);
              }
            else
              {
                p.backend = FR_FOLD_CPU;
                p.block = o->block;
                if (solve_best (&b, &p, o->runs, &res, name) != 0)
                  goto fail;
                row_from_result (&r, &res);
                r.speedup_k20 = r.k20_ms / r.ms;
                print_row (&r, csv);
                cpu_history_add (h, jb->n, res.solve_ms);
                cpu_ms = res.solve_ms;
                if (o->cuda)
                  cpu_time = res.time, res.time = NULL;   /* the reference for max diff */
                fr_fold_result_clear (&res);
              }
          }

        for (int bi = 0; o->cuda && bi < o->nblocks; bi++)
          {
            row r = base;
            p.backend = FR_FOLD_CUDA;
            p.block = o->blocks[bi];
            p.keep_device_time = b.g.ndim == 2;   /* as the application does */
            if (solve_best (&b, &p, o->runs, &res, name) != 0)
              {
                free (cpu_time);
                goto fail;
              }
            row_from_result (&r, &res);
            r.speedup = cpu_ms / r.ms;
            r.speedup_k20 = r.k20_ms / r.ms;
            r.max_diff = cpu_time ? max_rel_diff (cpu_time, res.time, nodes) : NAN;
            print_row (&r, csv);
            fr_fold_result_clear (&res);
          }
        free (cpu_time);
      }
  bench_model_clear (&b);
  return 0;
fail:
  bench_model_clear (&b);
  return -1;
}

int
main (int argc, char **argv)
{
  options o = { 0 };
  FILE *csv = NULL;
  cpu_history hist[FOLD_MODEL_COUNT + 1][3][2];   /* [model][method][double] */
  int status = 0;

  memset (hist, 0, sizeof hist);

  if (parse_args (argc, argv, &o) != 0)
    return 2;
  if (o.csv && (csv = fopen (o.csv, "w")) == NULL)
    {
      perror (o.csv);
      return 1;
    }
  int threads = o.threads > 0 ? o.threads : fr_cpu_threads ();
  printf ("# fold benchmark: %s%s%s, %d CPU thread%s, %s%s precision, CPU block %d (0: default), "
          "%d run%s\n", o.cpu ? "cpu" : "", o.cpu && o.cuda ? " + " : "", o.cuda ? "cuda" : "",
          threads, threads == 1 ? "" : "s", o.precision[0] ? "single" : "",
          o.precision[1] ? (o.precision[0] ? "+double" : "double") : "", o.block, o.runs,
          o.runs == 1 ? "" : "s");
  if (o.cuda && !o.dry_run)
    {
      fr_device_info d;
      int nd = 0;
      char why[160] = "";
      fr_cuda_devices (&d, 1, &nd, why, sizeof why);
      if (nd > 0)
        {
          printf ("# device: %s, %zu MiB, %d SMs, sm_%d%d\n", d.name, d.memory_bytes >> 20,
                  d.multiprocessors, d.major, d.minor);
          cuda_warm_up ();
        }
      else
        printf ("# no CUDA device (%s): the cuda runs fall back to the CPU\n", why);
    }
  if (!o.dry_run)
    print_header (csv);
  for (int j = 0; j < o.njobs && status == 0; j++)
    if (run_job (&o, &o.jobs[j], hist, csv) != 0)
      status = 1;
  if (csv)
    fclose (csv);
  return status;
}
