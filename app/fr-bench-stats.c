/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "fr-bench-stats.h"

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Sorts values ascending, for fr_bench_percentile. */
void
fr_bench_sort (double *values,
               guint   n)
{
  qsort (values, n, sizeof (double), compare_double);
}

/* The p-th percentile (0 to 1) of n sorted values, between the two
 * nearest ranks; NAN when there are none. */
double
fr_bench_percentile (const double *sorted,
                     guint         n,
                     double        p)
{
  double pos;
  guint i;

  if (n == 0)
    return NAN;
  pos = p * (n - 1);
  i = (guint) floor (pos);
  if (i + 1 >= n)
    return sorted[n - 1];
  return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}
