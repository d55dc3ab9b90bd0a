/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sources fired one at a time (app/fr-job.c, fr-scene.c): each source is a
 * shot of its own.  Against independent truth: each shot's arrival times
 * are those of a solve from that source alone (a plain reference job), the
 * earliest of the shots is the solve of all sources together (T of several
 * sources is the least over them), and along the surface of a uniform
 * model T = |x − xs| / v exactly.  The scene's side: the shot shown follows
 * the source selected, the setting is one undo step and is saved; the
 * times file of a gather read back as a script would. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fr-csv.h"
#include "fr-export.h"
#include "fr-kept-solve.h"
#include "fr-result-time.h"
#include "fr-scene.h"
#include "fr-scene-file.h"
#include "fr-shot-job.h"
#include "test-tmpdir.h"

#define V 2.0

/* 61 × 41 nodes 0.05 apart at v = 2, sources at the surface at x = 0.5,
 * 1.5 and 2.5, seven surface receivers from x = 0 to 3. */
static FrScene *
make_scene (void)
{
  fr_grid g = fr_grid_2d (61, 41, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  FrScene *scene = fr_scene_new ();

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = (float) V;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "three shots", &g, bytes, NULL));
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.5, 0.0), ==, 0);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 1.5, 0.0), ==, 1);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 2.5, 0.0), ==, 2);
  g_assert_true (fr_scene_lay_receiver_line (scene, 0.0, 0.0, 3.0, 0.0, 7, &error));
  g_assert_no_error (error);
  return scene;
}

static FrResult *
run (FrJob *job)
{
  gboolean cancelled = TRUE;
  FrResult *result = fr_job_run (job, NULL, &cancelled);

  g_assert_false (cancelled);
  g_assert_nonnull (result);
  g_assert_true (result->ok);
  return result;
}

/* T at receiver r of a solve (its node's value). */
static double
time_at_receiver (const FrResult *result,
                  guint           r)
{
  double t;

  if (!fr_result_time_at (result, result->job->receivers[2 * r], result->job->receivers[2 * r + 1], &t))
    return INFINITY;
  return t;
}

/* Each shot's times are a solve from its source alone; their least is the
 * solve of all together; T and the rays are the shot shown's. */
static void
test_job (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrJob) together_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_autoptr(FrResult) together = run (together_job);
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) result = NULL;
  const FrJob *j;

  g_assert_cmpint (together_job->shot, ==, -1);
  g_assert_null (together->shots);

  fr_scene_set_separate_shots (scene, TRUE);
  fr_scene_select (scene, FR_MARKER_SOURCE, 1);
  job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_cmpint (job->shot, ==, 1);
  result = run (job);
  j = result->job;
  g_assert_nonnull (result->shots);
  g_assert_cmpuint (result->shots->n, ==, 3);
  g_assert_cmpuint (result->n_shots_solved, ==, 3);
  g_assert_cmpuint (result->rays->len, ==, 7);

  for (guint r = 0; r < j->n_receivers; r++)
    {
      double least = INFINITY;

      for (guint s = 0; s < 3; s++)
        {
          g_autoptr(FrJob) alone_job = fr_job_new (&j->grid, j->velocity, j->sources + 2 * s, 1,
                                                   j->receivers, j->n_receivers, j->radius, FR_SPR_CPU);
          g_autoptr(FrResult) alone = run (alone_job);
          const double t = result->shots->times[s * j->n_receivers + r];
          double read;

          g_assert_cmpfloat (t, ==, time_at_receiver (alone, r));
          /* Along the surface of a uniform model: the straight row of nodes. */
          g_assert_cmpfloat_with_epsilon (t, fabs (j->receivers[2 * r] - j->sources[2 * s]) / V, 1e-5);
          g_assert_true (fr_result_shot_time_at (result, s, r, j->receivers[2 * r], j->receivers[2 * r + 1],
                                                 &read));
          g_assert_cmpfloat (read, ==, t);
          least = MIN (least, t);
          if (s == 1)
            {
              /* The field shown is the shot's own, node by node. */
              for (size_t i = 0; i < fr_grid_count (&j->grid); i++)
                g_assert_cmpfloat (result->time[i], ==, alone->time[i]);
              g_assert_cmpfloat (result->time_max, ==, alone->time_max);
            }
        }
      g_assert_cmpfloat (least, ==, time_at_receiver (together, r));
    }

  /* The shown shot's rays end at its source. */
  for (guint r = 0; r < result->rays->len; r++)
    {
      GArray *ray = g_ptr_array_index (result->rays, r);
      const double *xz = (const double *) ray->data;
      guint n = ray->len / 2;

      g_assert_cmpuint (n, >=, 1);
      g_assert_true ((fabs (xz[0] - 1.5) < 1e-9 && fabs (xz[1]) < 1e-9) ||
                     (fabs (xz[2 * n - 2] - 1.5) < 1e-9 && fabs (xz[2 * n - 1]) < 1e-9));
    }

  /* A receiver moved since the solve: another shot's time there is not
   * known (the shot shown's is read from T wherever it stands). */
  {
    double read;

    g_assert_false (fr_result_shot_time_at (result, 0, 3, j->receivers[6] + 0.05, 0.0, &read));
    g_assert_true (fr_result_shot_time_at (result, 1, 3, j->receivers[6] + 0.05, 0.0, &read));
    g_assert_false (fr_result_shot_time_at (together, 0, 3, j->receivers[6], 0.0, &read));
  }
}

/* T of a solve from source s of job alone, with its rays. */
static FrResult *
solve_alone (const FrJob *j,
             guint        s)
{
  g_autoptr(FrJob) job = fr_job_new (&j->grid, j->velocity, j->sources + 2 * s, 1, j->receivers,
                                     j->n_receivers, j->radius, FR_SPR_CPU);

  return run (job);
}

/* result shows T and rays of a solve from source s of its job alone, node
 * by node and point by point. */
static void
assert_shows_alone (const FrResult *result,
                    guint           s)
{
  const FrJob *j = result->job;
  g_autoptr(FrResult) alone = solve_alone (j, s);

  for (size_t i = 0; i < fr_grid_count (&j->grid); i++)
    g_assert_cmpfloat (result->time[i], ==, alone->time[i]);
  g_assert_cmpfloat (result->time_max, ==, alone->time_max);
  g_assert_cmpuint (result->rays->len, ==, alone->rays->len);
  for (guint r = 0; r < alone->rays->len; r++)
    {
      GArray *ray = g_ptr_array_index (result->rays, r), *want = g_ptr_array_index (alone->rays, r);

      g_assert_cmpmem (ray->data, ray->len * sizeof (double), want->data, want->len * sizeof (double));
    }
  for (guint r = 0; r < j->n_receivers; r++)
    {
      double t;

      g_assert_true (fr_result_time_at (alone, j->receivers[2 * r], j->receivers[2 * r + 1], &t));
      g_assert_cmpfloat (result->shots->times[s * j->n_receivers + r], ==, t);
    }
}

/* A shot whose source has not moved is taken from the last result's
 * solves, not solved: another source selected solves nothing, a source
 * moved solves its own shot only, receivers moved solve nothing and get
 * each shot's rays and times traced again; each shot taken or solved is,
 * node by node and ray by ray, a solve from its source alone.  Never
 * taken across another radius, back end or velocity, sources together, or
 * shots whose solves memory did not keep; the job holds the solves, not
 * the result (no chain of results). */
static void
test_reuse (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrJob) first_job = NULL, other_job = NULL, moved_job = NULL, radius_job = NULL;
  g_autoptr(FrJob) receiver_job = NULL, together_job = NULL, backend_job = NULL, velocity_job = NULL;
  g_autoptr(FrResult) first = NULL, other = NULL, moved = NULL, together = NULL, received = NULL;
  g_autoptr(GBytes) velocity = NULL;

  fr_scene_set_separate_shots (scene, TRUE);
  fr_scene_select (scene, FR_MARKER_SOURCE, 1);
  first_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_false (fr_job_reuse_solves (first_job, NULL));
  first = run (first_job);
  g_assert_nonnull (first->solves);
  g_assert_cmpuint (first->solves->len, ==, 3);
  for (guint k = 0; k < 3; k++)
    g_assert_nonnull (g_ptr_array_index (first->solves, k));
  g_assert_cmpuint (first->n_shots_solved, ==, 3);
  g_assert_false (fr_job_reuses_solve (first_job));

  /* Another source selected: every shot taken. */
  fr_scene_select (scene, FR_MARKER_SOURCE, 0);
  other_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_true (fr_job_reuse_solves (other_job, first));
  g_assert_true (other_job->solves_kept == first->solves);
  g_assert_cmpuint (fr_job_n_solves_kept (other_job), ==, 3);
  g_assert_true (fr_job_reuses_solve (other_job));
  other = run (other_job);
  g_assert_cmpuint (other->n_shots_solved, ==, 0);
  g_assert_cmpfloat (other->solve_ms, ==, 0.0);
  g_assert_cmpstr (other->backend, ==, first->backend);
  g_assert_true (other->shots != first->shots);
  g_assert_true (g_ptr_array_index (other->solves, 2) == g_ptr_array_index (first->solves, 2));
  assert_shows_alone (other, 0);
  g_assert_cmpmem (other->shots->times, 3 * 7 * sizeof (float), first->shots->times, 3 * 7 * sizeof (float));
  g_assert_true (fr_result_time_matches_scene (other, scene));

  /* Source 3 moved (a drag): its shot alone is solved. */
  g_assert_true (fr_scene_move_marker (scene, FR_MARKER_SOURCE, 2, 2.0, 0.0));
  moved_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_true (fr_job_reuse_solves (moved_job, other));
  g_assert_cmpuint (fr_job_n_solves_kept (moved_job), ==, 2);
  g_assert_false (fr_job_reuses_solve (moved_job));
  moved = run (moved_job);
  g_assert_cmpuint (moved->n_shots_solved, ==, 1);
  assert_shows_alone (moved, 0);
  for (guint r = 0; r < 7; r++)
    {
      double t;
      g_autoptr(FrResult) alone = solve_alone (moved->job, 2);

      g_assert_true (fr_result_time_at (alone, moved->job->receivers[2 * r], 0.0, &t));
      g_assert_cmpfloat (moved->shots->times[2 * 7 + r], ==, t);
      g_assert_cmpfloat_with_epsilon (t, fabs (moved->job->receivers[2 * r] - 2.0) / V, 1e-5);
      g_assert_cmpfloat (moved->shots->times[r], ==, first->shots->times[r]);
      g_assert_cmpfloat (moved->shots->times[7 + r], ==, first->shots->times[7 + r]);
    }

  /* A receiver moved and one added: no shot solved, each shot's times
   * and the shown shot's rays those of a solve from its source alone to
   * the receivers where they stand now. */
  g_assert_true (fr_scene_move_marker (scene, FR_MARKER_RECEIVER, 0, 0.1, 0.0));
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 2.9, 0.5), ==, 7);
  receiver_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_true (fr_job_reuse_solves (receiver_job, moved));
  g_assert_true (fr_job_reuses_solve (receiver_job));
  received = run (receiver_job);
  g_assert_cmpuint (received->n_shots_solved, ==, 0);
  g_assert_cmpuint (received->shots->n_receivers, ==, 8);
  assert_shows_alone (received, 0);
  for (guint s = 0; s < 3; s++)
    {
      g_autoptr(FrResult) alone = solve_alone (received->job, s);

      for (guint r = 0; r < 8; r++)
        {
          size_t ix, iz;

          g_assert_true (fr_grid_nearest_node (&alone->job->grid, alone->job->receivers[2 * r], 0.0,
                                               alone->job->receivers[2 * r + 1], &ix, NULL, &iz));
          g_assert_cmpfloat (received->shots->times[s * 8 + r], ==,
                             alone->time[fr_grid_index (&alone->job->grid, ix, 0, iz)]);
        }
    }
  g_assert_cmpfloat_with_epsilon (received->shots->times[0], 0.4 / V, 1e-5);

  /* Other solves: another radius, back end or velocity, sources together. */
  radius_job = fr_scene_make_job (scene, fr_radius_square (3), FR_SPR_CPU);
  g_assert_false (fr_job_reuse_solves (radius_job, received));
  backend_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_DIJKSTRA);
  g_assert_false (fr_job_reuse_solves (backend_job, received));
  velocity = g_bytes_new (g_bytes_get_data (receiver_job->velocity, NULL),
                          g_bytes_get_size (receiver_job->velocity));
  velocity_job = fr_job_new (&receiver_job->grid, velocity, receiver_job->sources, 3,
                             receiver_job->receivers, 8, receiver_job->radius, FR_SPR_CPU);
  velocity_job->shot = 0;
  g_assert_false (fr_job_reuse_solves (velocity_job, received));
  fr_scene_set_separate_shots (scene, FALSE);
  together_job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  g_assert_false (fr_job_reuse_solves (together_job, received));
  together = run (together_job);
  g_assert_null (together->shots);
  g_assert_cmpuint (together->n_shots_solved, ==, 1);
  /* Solves that memory did not keep: solved again. */
  for (guint k = 0; k < received->solves->len; k++)
    g_clear_pointer (&g_ptr_array_index (received->solves, k), fr_kept_solve_unref);
  g_clear_pointer (&other_job->solves_kept, g_ptr_array_unref);
  g_assert_false (fr_job_reuse_solves (other_job, received));
  g_assert_null (other_job->solves_kept);
}

/* Reciprocity, which a reversed refraction profile is read with (the
 * marker list shows it at an idle source): over a model of two layers
 * under a dipping interface, with sources at the surface and at depth,
 * shot k's T at source j's node is shot j's T at source k's node, to float
 * rounding: a shortest path reversed is a shortest path of the same
 * length. */
static void
test_reciprocity (void)
{
  fr_grid g = fr_grid_2d (81, 41, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) result = NULL;
  const double src[4][2] = { { 0.2, 0.0 }, { 3.8, 0.0 }, { 2.0, 1.6 }, { 1.1, 0.35 } };

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      v[fr_grid_index (&g, ix, 0, iz)] = iz * g.dz < 0.5 + 0.15 * ix * g.dx ? 1.5f : 3.0f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "reciprocity", &g, bytes, NULL));
  for (guint k = 0; k < 4; k++)
    g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, src[k][0], src[k][1]), ==, (int) k);
  fr_scene_set_separate_shots (scene, TRUE);
  job = fr_scene_make_job (scene, fr_radius_square (5), FR_SPR_CPU);
  result = run (job);
  g_assert_cmpuint (result->solves->len, ==, 4);
  for (guint k = 0; k < 4; k++)
    for (guint j = k + 1; j < 4; j++)
      {
        const FrKeptSolve *sk = g_ptr_array_index (result->solves, k);
        const FrKeptSolve *sj = g_ptr_array_index (result->solves, j);
        const double *tk = sk->res.time, *tj = sj->res.time;
        size_t ix, iz;
        double k_at_j, j_at_k;

        g_assert_true (fr_grid_nearest_node (&g, src[j][0], 0.0, src[j][1], &ix, NULL, &iz));
        k_at_j = tk[fr_grid_index (&g, ix, 0, iz)];
        g_assert_true (fr_grid_nearest_node (&g, src[k][0], 0.0, src[k][1], &ix, NULL, &iz));
        j_at_k = tj[fr_grid_index (&g, ix, 0, iz)];
        g_assert_cmpfloat (k_at_j, >, 0.3);
        g_assert_cmpfloat (fabs (k_at_j - j_at_k), <=, 1e-5 * k_at_j);
      }
}

static void
count_changes (FrScene *scene,
               guint    what,
               guint   *shots)
{
  if (what & FR_SCENE_CHANGED_SHOT)
    (*shots)++;
}

/* The shot shown follows the source selected; a receiver selected keeps
 * it; a source removed before it keeps it on its source; a result of
 * another shot is not the scene's. */
static void
test_scene_shot (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = NULL;
  guint shots = 0;

  g_signal_connect (scene, "changed", G_CALLBACK (count_changes), &shots);
  g_assert_false (fr_scene_get_separate_shots (scene));
  g_assert_cmpint (fr_scene_get_shot (scene), ==, -1);
  g_assert_true (fr_scene_source_fires (scene, 2));
  /* Fired together, selecting a source changes no shot. */
  fr_scene_select (scene, FR_MARKER_SOURCE, 2);
  g_assert_cmpuint (shots, ==, 0);
  fr_scene_select (scene, FR_MARKER_NONE, 0);

  fr_scene_set_separate_shots (scene, TRUE);
  g_assert_cmpuint (shots, ==, 1);
  g_assert_true (fr_scene_get_modified (scene));
  /* The source last selected, while they fired together, is the shot. */
  g_assert_cmpint (fr_scene_get_shot (scene), ==, 2);
  g_assert_true (fr_scene_source_fires (scene, 2));
  g_assert_false (fr_scene_source_fires (scene, 0));
  fr_scene_select (scene, FR_MARKER_SOURCE, 0);
  g_assert_cmpint (fr_scene_get_shot (scene), ==, 0);
  g_assert_cmpuint (shots, ==, 2);
  fr_scene_select (scene, FR_MARKER_RECEIVER, 4);
  g_assert_cmpint (fr_scene_get_shot (scene), ==, 0);
  g_assert_cmpuint (shots, ==, 2);

  fr_scene_select (scene, FR_MARKER_SOURCE, 2);
  {
    g_autoptr(FrJob) job = fr_scene_make_job (scene, fr_radius_square (2), FR_SPR_CPU);

    result = run (job);
  }
  g_assert_true (fr_result_time_matches_scene (result, scene));
  fr_scene_select (scene, FR_MARKER_SOURCE, 1);
  g_assert_false (fr_result_time_matches_scene (result, scene));
  fr_scene_select (scene, FR_MARKER_SOURCE, 2);
  g_assert_true (fr_result_time_matches_scene (result, scene));

  /* Source 0 removed: the shot shown is still the source at x = 2.5. */
  g_assert_true (fr_scene_remove_marker (scene, FR_MARKER_SOURCE, 0));
  g_assert_cmpint (fr_scene_get_shot (scene), ==, 1);
  /* One source left: a shot of its own is all sources together. */
  g_assert_true (fr_scene_remove_marker (scene, FR_MARKER_SOURCE, 0));
  g_assert_cmpint (fr_scene_get_shot (scene), ==, -1);
  g_assert_true (fr_scene_get_separate_shots (scene));
}

/* One undo step each way, with its label; undo and redo tell the shot. */
static void
test_undo (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  FrUndo *undo = fr_scene_get_undo (scene);
  guint shots = 0;

  g_signal_connect (scene, "changed", G_CALLBACK (count_changes), &shots);
  fr_scene_set_separate_shots (scene, TRUE);
  g_assert_cmpstr (fr_undo_peek_label (undo), ==, "Fire Sources One at a Time");
  fr_scene_set_separate_shots (scene, TRUE);   /* no change, no step */
  g_assert_cmpuint (shots, ==, 1);
  g_assert_true (fr_undo_undo (undo));
  g_assert_false (fr_scene_get_separate_shots (scene));
  g_assert_cmpuint (shots, ==, 2);
  g_assert_true (fr_undo_redo (undo));
  g_assert_true (fr_scene_get_separate_shots (scene));
  g_assert_cmpuint (shots, ==, 3);
  fr_scene_set_separate_shots (scene, FALSE);
  g_assert_cmpstr (fr_undo_peek_label (undo), ==, "Fire Sources Together");
  g_assert_false (fr_scene_get_separate_shots (scene));
}

/* Saved as "shots": "separate" and read back; written only then; any
 * other value refused with a message that names it. */
static void
test_file (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrScene) back = fr_scene_new ();
  g_autoptr(FrSceneDoc) doc = NULL, read = NULL;
  g_autofree char *json = NULL, *plain = NULL, *bad = NULL;
  g_autoptr(GError) error = NULL;

  doc = fr_scene_to_doc (scene);
  plain = fr_scene_doc_to_json (doc, "/");
  g_assert_null (strstr (plain, "\"shots\""));
  fr_scene_set_separate_shots (scene, TRUE);
  g_clear_pointer (&doc, fr_scene_doc_free);
  doc = fr_scene_to_doc (scene);
  json = fr_scene_doc_to_json (doc, "/");
  g_assert_nonnull (strstr (json, "\"shots\": \"separate\""));
  read = fr_scene_doc_parse (json, -1, "shots.json", "/", &error);
  g_assert_no_error (error);
  g_assert_true (read->separate_shots);
  g_assert_true (fr_scene_load_doc (back, read, &error));
  g_assert_no_error (error);
  g_assert_true (fr_scene_get_separate_shots (back));
  g_assert_cmpint (fr_scene_get_shot (back), ==, 0);

  bad = g_strdup (json);
  memcpy (strstr (bad, "\"separate\""), "\"parallel\"", 10);
  g_clear_pointer (&read, fr_scene_doc_free);
  read = fr_scene_doc_parse (bad, -1, "shots.json", "/", &error);
  g_assert_null (read);
  g_assert_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "parallel"));
}

/* Export → Arrival Times of a gather: a line per shot and receiver, the
 * source's and the receiver's coordinates, T = |x − xs| / v. */
static void
test_times_file (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) result = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-shots-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "times.csv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  guint row = 1;

  fr_scene_set_separate_shots (scene, TRUE);
  job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  result = run (job);
  g_assert_true (fr_export_times (result, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "source,source_x,source_z,receiver,x,z,t");
  for (guint s = 0; s < 3; s++)
    for (guint r = 0; r < 7; r++, row++)
      {
        g_auto(GStrv) f = g_strsplit (lines[row], ",", -1);
        double sx, x, t;

        g_assert_cmpuint (g_strv_length (f), ==, 7);
        g_assert_cmpuint (g_ascii_strtoull (f[0], NULL, 10), ==, s);
        g_assert_cmpuint (g_ascii_strtoull (f[3], NULL, 10), ==, r);
        sx = g_ascii_strtod (f[1], NULL);
        x = g_ascii_strtod (f[4], NULL);
        t = g_ascii_strtod (f[6], NULL);
        g_assert_cmpfloat_with_epsilon (sx, 0.5 + s, 1e-12);
        g_assert_cmpfloat_with_epsilon (x, 0.5 * r, 1e-12);
        g_assert_cmpfloat (g_ascii_strtod (f[2], NULL), ==, 0.0);
        g_assert_cmpfloat_with_epsilon (t, fabs (x - sx) / V, 1e-5);
      }
  g_assert_cmpstr (lines[row], ==, "");
  g_assert_null (lines[row + 1]);
  test_tmpdir_remove (dir);
}

/* The writer in 3D, and sources and receivers of unlike dimensions
 * refused with nothing but the header's absence. */
static void
test_writer_3d (void)
{
  const double sxyz[3] = { 1.0, 2.0, 0.0 }, rxyz[6] = { 0.5, 0.0, 0.25, 3.0, 1.0, 0.0 };
  const double t[2] = { 0.125, INFINITY };
  const fr_points sources = { .ndim = 3, .count = 1, .xyz = (double *) sxyz };
  const fr_points receivers = { .ndim = 3, .count = 2, .xyz = (double *) rxyz };
  const fr_points flat = { .ndim = 2, .count = 1, .xyz = (double *) sxyz };
  char *text = NULL;
  size_t size = 0;
  FILE *fp = open_memstream (&text, &size);
  fr_error err = { 0 };

  g_assert_cmpint (fr_csv_write_shot_times_to (fp, &sources, &receivers, t, FALSE, &err), ==, FR_OK);
  g_assert_cmpint (fr_csv_write_shot_times_to (fp, &flat, &receivers, t, FALSE, &err), ==, FR_E_INPUT);
  fclose (fp);
  g_assert_cmpstr (text, ==, "source,source_x,source_y,source_z,receiver,x,y,z,t\n"
                             "0,1,2,0,0,0.5,0,0.25,0.125\n"
                             "0,1,2,0,1,3,1,0,inf\n");
  free (text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/shots/job", test_job);
  g_test_add_func ("/app/shots/reuse", test_reuse);
  g_test_add_func ("/app/shots/reciprocity", test_reciprocity);
  g_test_add_func ("/app/shots/scene-shot", test_scene_shot);
  g_test_add_func ("/app/shots/undo", test_undo);
  g_test_add_func ("/app/shots/file", test_file);
  g_test_add_func ("/app/shots/times-file", test_times_file);
  g_test_add_func ("/app/shots/writer-3d", test_writer_3d);
  return g_test_run ();
}
