/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for the .npy parser: any bytes must give either a valid
 * array or a refusal with a message, never a crash, a leak or a hang. */
#include <stdint.h>
#include <string.h>

#include "fr-npy.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fr_array a;
  fr_error err = { 0 };
  fr_status st = fr_npy_parse (data, size, &a, &err);

  if (st == FR_OK)
    {
      size_t width = a.dtype == FR_F32 ? 4 : 8;
      size_t n = fr_array_count (&a);
      volatile uint8_t sink = 0;

      /* A success is a whole array, and every byte of it was in the input. */
      if (a.data == NULL || a.ndim < 1 || a.ndim > 3 || n > FR_NPY_MAX_ELEMENTS
          || n * width > size)
        __builtin_trap ();
      for (size_t i = 0; i < n * width; i++)
        sink ^= ((const uint8_t *) a.data)[i];
      (void) sink;
    }
  else if (a.data != NULL || a.ndim != 0 || err.code != st || err.message[0] == '\0'
           || memchr (err.message, '\0', sizeof err.message) == NULL)
    __builtin_trap ();
  fr_array_clear (&a);
  return 0;
}
