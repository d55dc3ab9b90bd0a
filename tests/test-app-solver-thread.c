/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The solver thread (app/fr-solver-thread.c): latest wins, stale results
 * are never emitted, results arrive in order, the main loop stays free. */
#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "fr-csv.h"
#include "fr-fold.h"
#include "fr-i18n.h"
#include "fr-solver-i18n.h"
#include "fr-solver-thread.h"
#include "test-catalogue.h"
#include "test-rlimit.h"

typedef struct
{
  GArray *delivered;   /* guint serials, in emission order */
  gint    solves;      /* atomic: solves started */
  guint   sleep_ms;
} Fixture;

/* A slow fake solve that checks its cancel flag every millisecond, as the
 * real solvers do between passes. */
static FrResult *
slow_solve (FrJob           *job,
            const fr_cancel *cancel,
            gboolean        *cancelled,
            gpointer         user_data)
{
  Fixture *f = user_data;
  FrResult *result;

  g_atomic_int_inc (&f->solves);
  for (guint i = 0; i < f->sleep_ms; i++)
    {
      if (fr_cancel_raised (cancel))
        {
          *cancelled = TRUE;
          return NULL;
        }
      g_usleep (1000);
    }
  result = fr_result_new (job);
  result->ok = TRUE;
  return result;
}

static void
result_cb (FrSolverThread *solver,
           FrResult       *result,
           Fixture        *f)
{
  g_assert_cmpuint (result->serial, ==, fr_solver_thread_get_latest_serial (solver));
  if (f->delivered->len > 0)
    g_assert_cmpuint (result->serial, >, g_array_index (f->delivered, guint, f->delivered->len - 1));
  g_array_append_val (f->delivered, result->serial);
}

static FrJob *
make_job (void)
{
  fr_grid g = fr_grid_2d (4, 4, 1.0, 1.0, 0.0, 0.0);
  float v[16] = { 0 };
  g_autoptr(GBytes) bytes = g_bytes_new (v, sizeof v);
  double src[2] = { 1.0, 1.0 };

  return fr_job_new (&g, bytes, src, 1, NULL, 0, fr_radius_square (1), FR_SPR_CPU);
}

static FrSolverThread *
setup (Fixture *f,
       guint    sleep_ms)
{
  FrSolverThread *solver = fr_solver_thread_new ();

  f->delivered = g_array_new (FALSE, FALSE, sizeof (guint));
  f->solves = 0;
  f->sleep_ms = sleep_ms;
  fr_solver_thread_set_solve_func (solver, slow_solve, f, NULL);
  g_signal_connect (solver, "result", G_CALLBACK (result_cb), f);
  return solver;
}

static gboolean
tick_cb (gpointer data)
{
  gint64 *ticks = data;
  gint64 now = g_get_monotonic_time ();

  /* ticks[0]: last tick, ticks[1]: longest gap */
  if (ticks[0] != 0)
    ticks[1] = MAX (ticks[1], now - ticks[0]);
  ticks[0] = now;
  return G_SOURCE_CONTINUE;
}

static void
wait_idle (FrSolverThread *solver,
           gint64         *ticks)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (fr_solver_thread_is_busy (solver) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (fr_solver_thread_is_busy (solver));
}

/* 50 jobs in a burst: only the last one's result is ever emitted. */
static void
test_burst (void)
{
  Fixture f;
  FrSolverThread *solver = setup (&f, 30);
  gint64 ticks[2] = { 0, 0 };
  guint tick = g_timeout_add (5, tick_cb, ticks);

  for (guint i = 0; i < 50; i++)
    {
      g_autoptr(FrJob) job = make_job ();

      fr_solver_thread_submit (solver, job);
    }
  wait_idle (solver, ticks);
  g_assert_cmpuint (f.delivered->len, ==, 1);
  g_assert_cmpuint (g_array_index (f.delivered, guint, 0), ==, 50);
  /* Queued jobs were replaced, not run one after another. */
  g_assert_cmpint (g_atomic_int_get (&f.solves), <=, 3);

  g_source_remove (tick);
  g_array_unref (f.delivered);
  g_assert_finalize_object (solver);
}

typedef struct
{
  FrSolverThread *solver;
  guint           left;
} Feeder;

static gboolean
feed_cb (gpointer data)
{
  Feeder *fd = data;
  g_autoptr(FrJob) job = make_job ();

  fr_solver_thread_submit (fd->solver, job);
  return --fd->left > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Jobs submitted while results come back: results are emitted only for
 * the newest job at the time, in increasing order, the last job's result
 * is the last emitted, and the main loop never stalls on a solve. */
static void
test_interleaved (void)
{
  Fixture f;
  FrSolverThread *solver = setup (&f, 12);
  gint64 ticks[2] = { 0, 0 };
  guint tick = g_timeout_add (2, tick_cb, ticks);
  Feeder fd = { solver, 50 };
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  g_timeout_add (7, feed_cb, &fd);
  while ((fd.left > 0 || fr_solver_thread_is_busy (solver)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (fd.left, ==, 0);
  g_assert_false (fr_solver_thread_is_busy (solver));
  g_assert_cmpuint (f.delivered->len, >=, 1);
  g_assert_cmpuint (g_array_index (f.delivered, guint, f.delivered->len - 1), ==, 50);
  g_test_message ("%u results emitted, %u dropped, %u cancelled, longest main-loop gap %.1f ms",
                  f.delivered->len, fr_solver_thread_get_n_dropped (solver),
                  fr_solver_thread_get_n_cancelled (solver), ticks[1] / 1000.0);
  /* The solve takes 12 ms per job on the worker; the main loop must keep
   * ticking every 2 ms regardless (generous bound for a loaded CI box). */
  g_assert_cmpint (ticks[1], <, 250 * 1000);

  g_source_remove (tick);
  g_array_unref (f.delivered);
  g_assert_finalize_object (solver);
}

/* Disposing with a solve running stops the worker and emits nothing. */
static void
test_dispose_while_running (void)
{
  Fixture f;
  FrSolverThread *solver = setup (&f, 2000);
  g_autoptr(FrJob) job = make_job ();
  gint64 start;

  fr_solver_thread_submit (solver, job);
  while (g_atomic_int_get (&f.solves) == 0)
    g_usleep (1000);
  start = g_get_monotonic_time ();
  g_assert_finalize_object (solver);
  /* Cancelled at its next check, not after the full 2 s. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (f.delivered->len, ==, 0);
  g_array_unref (f.delivered);
}

static void
real_result_cb (FrSolverThread *solver,
                FrResult       *result,
                FrResult      **out)
{
  g_clear_pointer (out, fr_result_unref);
  *out = fr_result_ref (result);
}

/* The real SPR solve through the thread: T is 0 at the source and grows
 * with distance in a uniform model. */
static void
test_real_solve (void)
{
  FrSolverThread *solver = fr_solver_thread_new ();
  fr_grid g = fr_grid_2d (41, 31, 0.1, 0.1, 0.0, 0.0);
  g_autofree float *v = g_new (float, 41 * 31);
  g_autoptr(GBytes) bytes = NULL;
  FrResult *result = NULL;
  double rcv[2] = { 4.0, 3.0 };

  for (guint i = 0; i < 41 * 31; i++)
    v[i] = 2.0f;
  bytes = g_bytes_new (v, sizeof (float) * 41 * 31);
  g_signal_connect (solver, "result", G_CALLBACK (real_result_cb), &result);

  for (guint k = 0; k < 5; k++)
    {
      double src[2] = { 0.5 + 0.5 * k, 1.0 };
      g_autoptr(FrJob) job = fr_job_new (&g, bytes, src, 1, rcv, 1, fr_radius_square (4),
                                         FR_SPR_AUTO);

      fr_solver_thread_submit (solver, job);
    }
  wait_idle (solver, NULL);

  g_assert_nonnull (result);
  g_assert_true (result->ok);
  g_assert_cmpuint (result->serial, ==, 5);
  /* The last job's source is at (2.5, 1.0): node (25, 10). */
  g_assert_cmpfloat (result->time[10 * 41 + 25], ==, 0.0f);
  g_assert_cmpfloat_with_epsilon (result->time[10 * 41 + 35], 0.5, 1e-3);
  g_assert_cmpuint (result->rays->len, ==, 1);
  g_assert_cmpuint (((GArray *) g_ptr_array_index (result->rays, 0))->len, >=, 4);
  fr_result_unref (result);
  g_assert_finalize_object (solver);
}

/* A solve the user can make fail (a source placed inside a wall) says why
 * in the app's language, through the app's catalogue (the build's .mo
 * files); without a translator, as the command-line tools run, in
 * English. */
static void
test_messages_translated (void)
{
  static const struct { const char *language, *says; } cases[] = {
    { "es", "la fuente en (1, 1) está dentro de un obstáculo (velocidad 0)" },
    { "nb", "kilden i (1, 1) ligger inne i en hindring (hastighet 0)" },
  };
  TestCatalogue saved;

  test_catalogue_begin (&saved);
  for (guint i = 0; i <= G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(FrJob) job = make_job ();   /* every node a wall */
      FrResult *result;
      gboolean cancelled = FALSE;

      test_catalogue_use (i < G_N_ELEMENTS (cases) ? cases[i].language : NULL);
      result = fr_job_run (job, NULL, &cancelled);
      g_assert_nonnull (result);
      g_assert_false (result->ok);
      g_assert_cmpstr (result->error, ==, i < G_N_ELEMENTS (cases) ? cases[i].says
                       : "source at (1, 1) lies inside an obstacle (velocity 0)");
      fr_result_unref (result);
    }
  test_catalogue_end (&saved);
}

/* A horizon or receivers file the user loads in the app is refused in
 * the app's language too (fr-csv.c's messages; they were English in the
 * Spanish and Norwegian app), and, without a translator, in English as
 * foldray-cli says it. */
static void
test_csv_messages_translated (void)
{
  static const char *texts[] = { "x,z\n1\n", "x,z\n1,2,3,4\n", "a,b\n1,2\n", "x,z\n1,abc\n" };
  static const char *says[][G_N_ELEMENTS (texts)] = {
    { "h.csv: línea 2: se esperaban 2 números, hay 1 campo",
      "h.csv: línea 2: se esperaban 2 números, hay más de 2 campos",
      "h.csv: línea 1: se esperaba la cabecera x,z o x,y,z",
      "h.csv: línea 2: se esperaban 2 números, 'abc' no es un número finito" },
    { "h.csv: linje 2: forventet 2 tall, fant 1 felt",
      "h.csv: linje 2: forventet 2 tall, fant mer enn 2 felt",
      "h.csv: linje 1: forventet overskriften x,z eller x,y,z",
      "h.csv: linje 2: forventet 2 tall, «abc» er ikke et endelig tall" },
    { "h.csv: line 2: expected 2 numbers, found 1 field",
      "h.csv: line 2: expected 2 numbers, found more than 2 fields",
      "h.csv: line 1: expected the header x,z or x,y,z",
      "h.csv: line 2: expected 2 numbers, 'abc' is not a finite number" },
  };
  static const char *languages[] = { "es", "nb" };
  TestCatalogue saved;

  test_catalogue_begin (&saved);
  for (guint l = 0; l <= G_N_ELEMENTS (languages); l++)
    {
      test_catalogue_use (l < G_N_ELEMENTS (languages) ? languages[l] : NULL);
      for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
        {
          fr_points pts;
          fr_error err = { 0 };

          g_assert_cmpint (fr_csv_parse_points ("h.csv", texts[t], strlen (texts[t]), &pts, &err),
                           ==, FR_E_INPUT);
          g_assert_cmpstr (err.message, ==, says[l][t]);
        }
    }
  test_catalogue_end (&saved);
}

/* A solve too large for the memory left says so in the app's language
 * whole: its subject ("a 8000 x 8000 fold solve") was English inside the
 * Spanish and Norwegian sentence.  In a child held to 256 MB more than it
 * maps (ulimit -d), so that the 1.5 GB solve is refused on any machine. */
static void
memory_messages_child (void)
{
  static const struct { const char *language, *says; } cases[] = {
    { "es", "un cálculo de pliegue de 8000 x 8000 necesita unos " },
    { "nb", "en foldeberegning på 8000 x 8000 trenger omtrent " },
  };

  double src[3] = { 10.0, 0.0, 10.0 };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_grid g = fr_grid_2d (8000, 8000, 1.0, 1.0, 0.0, 0.0);
  TestCatalogue saved;

  g_assert_true (test_limit_memory (RLIMIT_DATA, "VmData:", 256.0 * 1048576.0));
  test_catalogue_begin (&saved);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      fr_fold_params p;
      fr_fold_result res;
      fr_error err = { 0 };

      test_catalogue_use (cases[i].language);
      fr_fold_params_init (&p);
      p.backend = FR_FOLD_CPU;
      g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_E_NOMEM);
      g_test_message ("%s", err.message);
      g_assert_true (g_str_has_prefix (err.message, cases[i].says));
      fr_fold_result_clear (&res);
    }
  test_catalogue_end (&saved);
}

static void
test_memory_messages_translated (void)
{
  test_in_limited_child (RLIMIT_DATA, memory_messages_child, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/solver-thread/burst", test_burst);
  g_test_add_func ("/app/solver-thread/interleaved", test_interleaved);
  g_test_add_func ("/app/solver-thread/dispose-while-running", test_dispose_while_running);
  g_test_add_func ("/app/solver-thread/real-solve", test_real_solve);
  g_test_add_func ("/app/solver-thread/messages-translated", test_messages_translated);
  g_test_add_func ("/app/solver-thread/csv-messages-translated", test_csv_messages_translated);
  g_test_add_func ("/app/solver-thread/memory-messages-translated", test_memory_messages_translated);
  return g_test_run ();
}
