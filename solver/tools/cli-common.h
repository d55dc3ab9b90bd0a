/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every foldray-cli subcommand shares: the one-line failure report,
 * the exit codes of CONTRACT.md, a strict option parser and number lists. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fr-status.h"

/* Exit codes of the contract. */
enum {
  CLI_EXIT_OK = 0,
  CLI_EXIT_FAILURE = 1,   /* anything that is not the user's input: I/O, memory, device */
  CLI_EXIT_USAGE = 2,     /* bad usage or bad input */
};

/* Names the program that messages start with (default "foldray-cli"). */
void cli_set_program (const char *name);

/* Prints "foldray-cli: <message>" as exactly one line on stderr (newlines
 * in the message become spaces, bytes that are not UTF-8 U+FFFD) and returns status, so that
 * `return cli_fail (CLI_EXIT_USAGE, ...)` reads well. */
int cli_fail (int status, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

/* FR_E_INPUT is the user's input and FR_E_UNSUPPORTED a request that a
 * back end does not do (2); everything else is a failure (1). */
int cli_exit_code (fr_status status);

/* Reports a library error: its message, prefixed with `context: ` unless
 * context is NULL or the message already names it.  Returns the exit code. */
int cli_fail_error (const fr_error *err, const char *context);

/* The flag a failed fr_grid_check blames: --spacing or --origin (or both)
 * when its message is about them, else fallback (the file the grid's
 * shape came from, or --shape). */
const char *cli_grid_context (const fr_error *err, const char *fallback);

/* Reports times that left the output precision's range
 * (fr_time_check_range's err) against what sets their scale, distance
 * over speed: the --spacing text and the speeds' file or flag.  Says how to
 * fix it.  Returns CLI_EXIT_USAGE. */
int cli_fail_time_range (const fr_error *err, const char *spacing, const char *speeds,
                         bool double_precision);

/* Prints a one-line note on stderr (on success only; see CONTRACT.md). */
void cli_note (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* The same with "warning: ": the run goes on. */
void cli_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* Writes the n bytes of s to fp, each byte that starts no well-formed
 * UTF-8 character (a Latin-1 file name's) as U+FFFD, as the app and the
 * scene reader show such a name (g_filename_display_name). */
void cli_write_utf8 (FILE *fp, const char *s, size_t n);

/* One option of a subcommand.  The parser fills count and values. */
typedef struct cli_option {
  const char *name;        /* "--velocity" */
  bool has_value;          /* takes one argument: "--out T.npy" or "--out=T.npy" */
  bool repeatable;         /* may be given several times ("--source") */
  int count;               /* how many times it was given */
  const char **values;     /* its arguments in order (count of them); NULL when none */
} cli_option;

/* Parses argv[first..argc) against opts.  `--help` / `-h` sets *help.
 * Unknown options, positional arguments, a missing value and a repeated
 * non-repeatable option are reported (one line) and give CLI_EXIT_USAGE;
 * success gives CLI_EXIT_OK.  Free with cli_options_clear. */
int cli_parse_options (int argc, char **argv, int first, cli_option *opts, size_t nopts,
                       bool *help);
void cli_options_clear (cli_option *opts, size_t nopts);

/* The option's last value, or NULL. */
const char *cli_value (const cli_option *opt);

/* Parses "A,B[,C]" strictly: between min and max comma-separated finite
 * decimal numbers, nothing else (no spaces, no "inf", no hex).  Returns
 * false, after reporting which flag and text are at fault, otherwise. */
bool cli_parse_numbers (const char *flag, const char *text, double *out, int min, int max,
                        int *n);

/* The same for positive integers no larger than max_value. */
bool cli_parse_counts (const char *flag, const char *text, long *out, int min, int max,
                       int *n, long max_value);

/* Fails (CLI_EXIT_USAGE) unless path names a readable regular file:
 * reported before the library tries, so a missing input is always exit 2. */
int cli_check_input (const char *flag, const char *path);

/* Fails (CLI_EXIT_FAILURE) unless path's folder exists and is writable,
 * and (CLI_EXIT_USAGE) when path names a device, pipe or socket: checked
 * before a long solve, which would otherwise be thrown away. */
int cli_check_output (const char *flag, const char *path);

/* Call first in main.  Makes a refused write an error that the caller
 * reports and cleans up after, not a signal that kills the process past
 * that: a closed pipe on stdout (SIGPIPE) or a file size limit (SIGXFSZ).
 * And keeps file descriptors 0-2 taken: started with stdout closed, an
 * output file would get descriptor 1, and printf would write into it.  A
 * closed stdout becomes /dev/full, so that printing to it fails. */
void cli_guard_process (void);

/* Whether two output names name one file, however spelled: one existing
 * file (links included), or one name in one resolved folder. */
bool cli_same_file (const char *a, const char *b);

/* Fails (CLI_EXIT_USAGE) when output out_path is the same file as the
 * input in_path, which the write would destroy; in_what names the input
 * ("--velocity", "--scene s.json's background grid"). */
int cli_check_not_input (const char *out_flag, const char *out_path, const char *in_what,
                         const char *in_path);

/* Prints s as a JSON string, quotes included. */
void cli_json_string (FILE *fp, const char *s);

/* Subcommands: argv[0] is the subcommand's name. */
int cli_info (int argc, char **argv);
int cli_spr (int argc, char **argv);
int cli_fold (int argc, char **argv);
