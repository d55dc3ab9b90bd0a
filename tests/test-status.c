/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fr_error: messages set, prefixed with context, and cut at FR_ERROR_MAX
 * without overrunning the buffer; a NULL fr_error is accepted everywhere. */
#include <glib.h>
#include <string.h>

#include "fr-status.h"

static void
test_set_and_prefix (void)
{
  fr_error err = { 0 };

  g_assert_cmpint (fr_error_set (&err, FR_E_INPUT, "row %d is short", 7), ==, FR_E_INPUT);
  g_assert_cmpstr (err.message, ==, "row 7 is short");
  g_assert_cmpint (fr_error_prefix (&err, "%s: ", "speeds.npy"), ==, FR_E_INPUT);
  g_assert_cmpstr (err.message, ==, "speeds.npy: row 7 is short");
  g_assert_cmpint (err.code, ==, FR_E_INPUT);
  fr_error_clear (&err);
  g_assert_cmpint (err.code, ==, FR_OK);
  g_assert_cmpstr (err.message, ==, "");
}

static void
test_cut_at_the_end (void)
{
  fr_error err = { 0 };
  char long_text[2 * FR_ERROR_MAX];

  /* A message that fills the buffer, then a prefix: the prefix stays
   * whole and the old message loses its end. */
  memset (long_text, 'm', sizeof long_text - 1);
  long_text[sizeof long_text - 1] = '\0';
  fr_error_set (&err, FR_E_IO, "%s", long_text);
  g_assert_cmpuint (strlen (err.message), ==, FR_ERROR_MAX - 1);
  fr_error_prefix (&err, "%s", "context: ");
  g_assert_cmpuint (strlen (err.message), ==, FR_ERROR_MAX - 1);
  g_assert_true (g_str_has_prefix (err.message, "context: mmm"));
  g_assert_cmpint (err.message[FR_ERROR_MAX - 2], ==, 'm');

  /* A prefix longer than the buffer: cut, and nothing of the old message. */
  memset (long_text, 'p', sizeof long_text - 1);
  fr_error_set (&err, FR_E_IO, "old");
  fr_error_prefix (&err, "%s", long_text);
  g_assert_cmpuint (strlen (err.message), ==, FR_ERROR_MAX - 1);
  g_assert_null (strstr (err.message, "old"));
}

static void
test_null_error (void)
{
  g_assert_cmpint (fr_error_set (NULL, FR_E_NOMEM, "x"), ==, FR_E_NOMEM);
  g_assert_cmpint (fr_error_prefix (NULL, "y"), ==, FR_OK);
  fr_error_clear (NULL);
  g_assert_cmpstr (fr_status_name (FR_E_DEVICE), !=, fr_status_name (FR_E_INPUT));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/status/set-and-prefix", test_set_and_prefix);
  g_test_add_func ("/status/cut-at-the-end", test_cut_at_the_end);
  g_test_add_func ("/status/null-error", test_null_error);
  return g_test_run ();
}
