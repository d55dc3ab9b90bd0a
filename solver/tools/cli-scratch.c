/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scratch folder of `--scene` (cli-scratch.h).  A signal handler
 * removes it, and it may run at any moment on any thread (OpenMP's too),
 * so the names live in static storage that is never freed. */
#include "foldray-config.h"

#ifdef FOLDRAY_HAVE_SCENE

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "cli-scratch.h"

static const char *const scratch_names[N_SCRATCH] = { "velocity.npy", "receivers.csv", "horizon.csv" };
static char scratch_dir[PATH_MAX];
static char scratch_file[N_SCRATCH][PATH_MAX];

/* While the files are being made they may have names the handler cannot
 * know (fr_npy_write's temporary sibling), so it only records the signal
 * and the maker acts on it when done.  Both store, then load the other's
 * flag (sequentially consistent), so at least one of them sees the signal. */
static atomic_bool making = true;
static atomic_int pending_signal;

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved_actions[G_N_ELEMENTS (caught_signals)];
static bool caught[G_N_ELEMENTS (caught_signals)];

/* Async-signal-safe: unlink and rmdir only. */
static void
remove_scratch (void)
{
  for (int i = 0; i < N_SCRATCH; i++)
    if (scratch_file[i][0] != '\0')
      unlink (scratch_file[i]);
  if (scratch_dir[0] != '\0')
    rmdir (scratch_dir);
}

/* Removes the scratch files, then dies of sig as if it had never been
 * caught, so a shell sees the usual 128 + sig.  Async-signal-safe. */
static void
die_of (int sig)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigset_t set;

  remove_scratch ();
  sigemptyset (&dfl.sa_mask);
  sigaction (sig, &dfl, NULL);
  sigemptyset (&set);
  sigaddset (&set, sig);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
  raise (sig);
  _exit (128 + sig);
}

static void
on_signal (int sig)
{
  atomic_store (&pending_signal, sig);
  if (!atomic_load (&making))
    die_of (sig);
}

/* Catches SIGINT, SIGTERM and SIGHUP until cli_scratch_end; the subcommand's
 * own handlers take over during its solve and give them back after.  A
 * signal we were started ignoring stays ignored (nohup). */
static void
catch_signals (void)
{
  struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

  /* One at a time: the first one's handler decides. */
  sigemptyset (&sa.sa_mask);
  for (size_t i = 0; i < G_N_ELEMENTS (caught_signals); i++)
    sigaddset (&sa.sa_mask, caught_signals[i]);
  for (size_t i = 0; i < G_N_ELEMENTS (caught_signals); i++)
    {
      sigaction (caught_signals[i], NULL, &saved_actions[i]);
      caught[i] = saved_actions[i].sa_handler != SIG_IGN;
      if (caught[i])
        sigaction (caught_signals[i], &sa, NULL);
    }
}

/* Makes the scratch folder, signals caught from now on. */
bool
cli_scratch_begin (GError **error)
{
  g_autofree char *dir = NULL;

  catch_signals ();
  if ((dir = g_dir_make_tmp ("foldray-scene-XXXXXX", error)) == NULL)
    return false;
  g_strlcpy (scratch_dir, dir, sizeof scratch_dir);
  for (int i = 0; i < N_SCRATCH; i++)
    if (snprintf (scratch_file[i], PATH_MAX, "%s/%s", dir, scratch_names[i]) >= PATH_MAX)
      {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG,
                     "the temporary folder's name %s is too long", dir);
        memset (scratch_file, 0, sizeof scratch_file);
        return false;
      }
  return true;
}

/* The files are whole: from now on a signal removes them at once. */
void
cli_scratch_ready (void)
{
  int sig;

  atomic_store (&making, false);
  if ((sig = atomic_load (&pending_signal)) != 0)
    die_of (sig);
}

/* Removes the scratch folder and stops catching signals; one that came
 * meanwhile then takes its course. */
void
cli_scratch_end (void)
{
  int sig;

  atomic_store (&making, true);
  remove_scratch ();
  for (size_t i = 0; i < G_N_ELEMENTS (caught_signals); i++)
    if (caught[i])
      sigaction (caught_signals[i], &saved_actions[i], NULL);
  if ((sig = atomic_load (&pending_signal)) != 0)
    die_of (sig);
}

/* A file in memory holding the subcommand's stderr; -1 when none could be
 * made (its messages then go out as they are).  Not in the scratch folder:
 * on a full TMPDIR each message would fail to be written, without a word,
 * just when the user needs to read why the output was not written. */
int
cli_scratch_capture (void)
{
  return memfd_create ("foldray-cli-messages", MFD_CLOEXEC);
}

const char *
cli_scratch_dir (void)
{
  return scratch_dir;
}

const char *
cli_scratch_file (int which)
{
  return scratch_file[which];
}

#endif /* FOLDRAY_HAVE_SCENE */
