/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Device discovery for builds with CUDA.  A machine without a GPU makes
 * cudaGetDeviceCount fail (insufficient driver or no device): that is "no
 * device", never an error. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "fr-device.h"
#include "fr-spr.h"
#include "spr-private.h"

extern "C" fr_status
fr_cuda_devices (fr_device_info *out, int max, int *count, char *why, size_t why_len)
{
  int n = 0;
  cudaError_t rc = cudaGetDeviceCount (&n);

  *count = 0;
  if (rc != cudaSuccess || n == 0)
    {
      if (why != NULL && why_len > 0)
        snprintf (why, why_len, "no usable CUDA device (%s)",
                  rc != cudaSuccess ? cudaGetErrorString (rc) : "none present");
      cudaGetLastError ();  /* clear the sticky-free error state */
      return FR_OK;
    }
  for (int i = 0; i < n && i < max; i++)
    {
      cudaDeviceProp prop;
      if (cudaGetDeviceProperties (&prop, i) != cudaSuccess)
        continue;
      fr_device_info *d = &out[*count];
      /* As much of the name as fits (prop.name is longer than ours). */
      const size_t nn = strnlen (prop.name, sizeof d->name - 1);
      memcpy (d->name, prop.name, nn);
      d->name[nn] = '\0';
      d->memory_bytes = prop.totalGlobalMem;
      d->multiprocessors = prop.multiProcessorCount;
      d->major = prop.major;
      d->minor = prop.minor;
      (*count)++;
    }
  return FR_OK;
}

extern "C" bool
fr_cuda_built (void)
{
  return true;
}

extern "C" bool
fr_cuda_usable (void)
{
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess)
    {
      cudaGetLastError ();
      return false;
    }
  return n > 0;
}

extern "C" void
fr_device_free (void *device_ptr)
{
  if (device_ptr == nullptr)
    return;
  cudaFree (device_ptr);
  cudaGetLastError ();   /* a failure here has nobody to tell; leave no error behind */
}
