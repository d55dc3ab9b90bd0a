/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-bench-edit"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fr-application.h"
#include "fr-bench.h"
#include "fr-bench-stats.h"
#include "fr-export.h"

/* Pointer moves come at 60 Hz, like a real drag. */
#define MOVE_INTERVAL_MS 16

typedef enum
{
  PHASE_WORKER,      /* inside an edit: the worker thread rasterises */
  PHASE_MAIN,        /* no edit open: each move rasterises on the main thread */
  N_PHASES,
} Phase;

static const char *const phase_names[N_PHASES] = { "worker thread", "main thread" };

typedef struct
{
  guint   moves;
  gint64  start, last_move, last_landed;
  guint   landed;          /* velocity changes during the phase */
  guint   frames;          /* frames the window painted */
  GArray *handler_ms;      /* double: main-thread time of each move */
  GArray *stall_ms;        /* double: gaps between turns of the main loop */
} PhaseStats;

typedef struct
{
  FrWindow       *window;
  FrBenchOptions  options;
  char           *csv_path;
  Phase           phase;
  gboolean        started;
  guint           timer;
  guint           tick;        /* the main loop's pulse, for its stalls */
  gint64          last_tick;
  gulong          paint_id;
  PhaseStats      stats[N_PHASES];
} Bench;

static void
bench_free (gpointer data)
{
  Bench *b = data;

  g_clear_handle_id (&b->timer, g_source_remove);
  g_clear_handle_id (&b->tick, g_source_remove);
  for (int p = 0; p < N_PHASES; p++)
    {
      g_clear_pointer (&b->stats[p].handler_ms, g_array_unref);
      g_clear_pointer (&b->stats[p].stall_ms, g_array_unref);
    }
  g_free (b->csv_path);
  g_free (b);
}

/* The dragged node: the middle one of the second interface. */
static FrVertex *
dragged_node (Bench *b)
{
  FrModel *m = fr_scene_edit_model (fr_window_get_scene (b->window));
  FrLayer *l = g_ptr_array_index (m->layers, 1);

  return &g_array_index (l->nodes, FrVertex, 2);
}

static double
extent_of (Bench *b)
{
  return (b->options.size - 1) * 0.01;
}

/* The q-th quantile (0 to 1) of values. */
static double
quantile (GArray *values,
          double  q)
{
  g_autoptr(GArray) sorted = g_array_copy (values);

  fr_bench_sort ((double *) sorted->data, sorted->len);
  return fr_bench_percentile ((const double *) sorted->data, sorted->len, q);
}

static void
report (Bench *b)
{
  g_autoptr(GString) csv = g_string_new ("phase,move,main_thread_ms\n");
  g_autoptr(GError) error = NULL;

  g_print ("Model edits during a drag: an interface node dragged %d times at %d ms\n",
           b->options.moves, MOVE_INTERVAL_MS);
  g_print ("  drawn model, %d x %d nodes, no sources (rasterising only)\n",
           b->options.size, b->options.size);
  g_print ("| %-13s | %8s | %8s | %8s | %8s | %9s | %9s | %8s | %8s | %10s | %14s |\n",
           "rasterised on", "wall s", "move p50", "move p95", "move max", "stall p95", "stall max",
           "landed", "frames", "frames/s", "last move → v");
  g_print ("|---------------|----------|----------|----------|----------|-----------|-----------|"
           "----------|----------|------------|----------------|\n");
  for (int p = 0; p < N_PHASES; p++)
    {
      PhaseStats *s = &b->stats[p];
      double wall = (s->last_landed - s->start) / 1e6;

      g_print ("| %-13s | %8.2f | %8.1f | %8.1f | %8.1f | %9.1f | %9.1f | %8u | %8u | %10.1f | %11.1f ms |\n",
               phase_names[p], wall, quantile (s->handler_ms, 0.5), quantile (s->handler_ms, 0.95),
               quantile (s->handler_ms, 1.0), quantile (s->stall_ms, 0.95),
               quantile (s->stall_ms, 1.0), s->landed, s->frames,
               wall > 0.0 ? s->frames / wall : NAN, (s->last_landed - s->last_move) / 1e3);
      for (guint i = 0; i < s->handler_ms->len; i++)
        g_string_append_printf (csv, "%s,%u,%.3f\n", p == PHASE_WORKER ? "worker" : "main", i,
                                g_array_index (s->handler_ms, double, i));
    }
  g_print ("(move: the main thread's time in one pointer move's handler; stall: the longest the\n"
           " main loop went without a turn, landings and frames included; landed: velocity fields\n"
           " shown; last move → v: from the last move to its velocity on the scene)\n");
  g_print ("csv: %s\n", b->csv_path);
  if (!fr_export_write_file (b->csv_path, csv->str, csv->len, &error))
    {
      /* A benchmark whose figures were not written failed. */
      g_printerr ("foldray: %s\n", error->message);
      fr_application_set_exit_status (FR_APPLICATION (gtk_window_get_application (GTK_WINDOW (b->window))), 1);
    }
}

static void
finish (Bench *b)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (b->window));

  g_clear_signal_handler (&b->paint_id, gtk_widget_get_frame_clock (GTK_WIDGET (b->window)));
  report (b);
  g_application_quit (G_APPLICATION (app));
}

static gboolean move_cb (gpointer data);

/* Every 5 ms at high priority: a longer gap is a stretch the main loop
 * spent in one dispatch (a move, a landing, a frame). */
static gboolean
tick_cb (gpointer data)
{
  Bench *b = data;
  gint64 now = g_get_monotonic_time ();
  double gap = (now - b->last_tick) / 1e3;

  g_array_append_val (b->stats[b->phase].stall_ms, gap);
  b->last_tick = now;
  return G_SOURCE_CONTINUE;
}

static void
start_phase (Bench *b,
             Phase  phase)
{
  PhaseStats *s = &b->stats[phase];

  b->phase = phase;
  s->start = g_get_monotonic_time ();
  if (phase == PHASE_WORKER)
    fr_scene_begin_edit (fr_window_get_scene (b->window));
  b->timer = g_timeout_add (MOVE_INTERVAL_MS, move_cb, b);
  b->last_tick = s->start;
  if (b->tick == 0)
    b->tick = g_timeout_add_full (G_PRIORITY_HIGH, 5, tick_cb, b, NULL);
}

static void
end_phase (Bench *b)
{
  PhaseStats *s = &b->stats[b->phase];
  FrScene *scene = fr_window_get_scene (b->window);

  if (b->phase == PHASE_WORKER)
    fr_scene_end_edit (scene, "Move Node");
  s->last_landed = g_get_monotonic_time ();
  if (b->phase == PHASE_WORKER)
    start_phase (b, PHASE_MAIN);
  else
    {
      g_clear_handle_id (&b->tick, g_source_remove);
      finish (b);
    }
}

/* One pointer move: the node goes up and down through a third of the
 * model, and the scene is told, as the editor's drag does. */
static gboolean
move_cb (gpointer data)
{
  Bench *b = data;
  PhaseStats *s = &b->stats[b->phase];
  FrScene *scene = fr_window_get_scene (b->window);
  double extent = extent_of (b);
  gint64 t0;
  double ms;

  if (s->moves >= (guint) b->options.moves)
    {
      b->timer = 0;
      end_phase (b);
      return G_SOURCE_REMOVE;
    }
  t0 = g_get_monotonic_time ();
  dragged_node (b)->z = extent * (0.5 + 0.15 * sin (2.0 * G_PI * s->moves / 60.0));
  if (!fr_scene_model_changed (scene, NULL))
    g_printerr ("foldray: benchmark: move %u refused\n", s->moves);
  s->last_move = g_get_monotonic_time ();
  ms = (s->last_move - t0) / 1e3;
  g_array_append_val (s->handler_ms, ms);
  s->moves++;
  return G_SOURCE_CONTINUE;
}

static void
scene_changed_cb (FrScene *scene,
                  guint    what,
                  gpointer data)
{
  Bench *b = data;

  if (b->started && (what & FR_SCENE_CHANGED_VELOCITY))
    b->stats[b->phase].landed++;
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  Bench *b = data;

  if (b->started)
    b->stats[b->phase].frames++;
}

static void
settled_cb (FrWindow *window,
            gpointer  data)
{
  Bench *b = data;

  if (b->started)
    return;
  b->started = TRUE;
  b->paint_id = g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                                  G_CALLBACK (after_paint_cb), b);
  start_phase (b, PHASE_WORKER);
}

/* Loads a size × size drawn model (three layers with gradients, 0.01
 * spacing) and drags a node of its second interface, first inside an
 * edit (the editor's way: rasterised in the worker thread), then with no
 * edit open (rasterised on the main thread, as every edit was before);
 * prints a table, writes CSV and quits. */
void
fr_bench_edit_start (FrWindow             *window,
                     const FrBenchOptions *options)
{
  FrScene *scene = fr_window_get_scene (window);
  Bench *b = g_new0 (Bench, 1);
  fr_grid grid;
  FrModel *m;
  g_autoptr(GError) error = NULL;
  FrLayer *l;
  double extent;

  g_return_if_fail (FR_IS_WINDOW (window));
  g_return_if_fail (options != NULL && options->size >= 16 && options->moves >= 2);

  b->window = window;
  b->options = *options;
  b->csv_path = g_strdup (options->csv_path != NULL ? options->csv_path : "bench-edit.csv");
  for (int p = 0; p < N_PHASES; p++)
    {
      b->stats[p].handler_ms = g_array_new (FALSE, FALSE, sizeof (double));
      b->stats[p].stall_ms = g_array_new (FALSE, FALSE, sizeof (double));
    }
  g_object_set_data_full (G_OBJECT (window), "fr-bench", b, bench_free);

  grid = fr_grid_2d (options->size, options->size, 0.01, 0.01, 0.0, 0.0);
  extent = extent_of (b);
  m = fr_model_new (&grid, 1.5);
  l = fr_layer_new (1.5, 0.3, 0.0);
  fr_layer_add_node (l, 0.0, 0.0);
  fr_layer_add_node (l, extent, 0.0);
  g_ptr_array_add (m->layers, l);
  l = fr_layer_new (2.5, 0.5, 0.05);
  for (int i = 0; i <= 4; i++)
    fr_layer_add_node (l, extent * i / 4.0, extent * (0.35 + 0.1 * (i % 2)));
  g_ptr_array_add (m->layers, l);
  l = fr_layer_new (3.5, 0.2, 0.0);
  fr_layer_add_node (l, 0.0, extent * 0.8);
  fr_layer_add_node (l, extent, extent * 0.7);
  g_ptr_array_add (m->layers, l);

  fr_side_panel_set_radius (fr_window_get_side_panel (window), options->radius);
  fr_side_panel_set_backend (fr_window_get_side_panel (window), options->backend);
  if (!fr_scene_load_model (scene, "bench-edit", m, &error))
    {
      /* A grid too large for this process's memory: said, not a crash. */
      g_printerr ("foldray: benchmark: %s\n", error->message);
      fr_application_set_exit_status (FR_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))), 1);
      g_application_quit (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))));
      return;
    }

  g_signal_connect (scene, "changed", G_CALLBACK (scene_changed_cb), b);
  g_signal_connect (window, "settled", G_CALLBACK (settled_cb), b);
}
