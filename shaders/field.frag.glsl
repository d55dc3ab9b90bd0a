// SPDX-License-Identifier: GPL-3.0-or-later
// Velocity in a colour map, obstacles grey, traveltime isochrons from the
// T texture, and the wavefront at time u_front.
in vec2 v_uv;

// Both grids lie in their textures as app/fr-grid-texture.h says: the
// nodes row after row, wrapped at the texture's width (texel_of).
uniform sampler2D u_velocity;   // R32F, one texel per cell (per stride cells), nearest
uniform sampler2D u_time;       // R32F, one texel per node (per stride), +inf unreached
uniform sampler2D u_lut;        // RGBA8 256 x 1 colour map
uniform vec2 u_vrange;          // velocity at the two ends of the map
uniform ivec2 u_size;           // nx, nz
uniform ivec2 u_stride;         // nodes per texel: 1, more only past the GL's
                                // largest texture squared
uniform int u_has_time;
uniform float u_interval;       // isochron spacing in time units, <= 0: none
uniform float u_front;          // wavefront time, < 0: off
uniform float u_bands;          // fold bands: floor(T / u_bands) parity, <= 0: off
uniform float u_bands_end;      // no band from T = count·Δ on: past the last horizon

out vec4 o_color;

const float UNREACHED = 1e30;

// The nodes the textures hold along x and z.
ivec2
texture_nodes (void)
{
  return (u_size + u_stride - ivec2 (1)) / u_stride;
}

// The texel of node n of those: node k = n.y·nx + n.x, wrapped at the
// texture's width (the identity where the grid fits one texture).
ivec2
texel_of (ivec2 n, int width)
{
  int k = n.y * texture_nodes ().x + n.x;

  return ivec2 (k % width, k / width);
}

// Bilinear T between the four nearest nodes.  Done by hand with texelFetch
// because float textures need not be filterable (GLES 3.0); an unreached
// corner makes the point unreached, so no isochron runs into an obstacle.
float
sample_time (vec2 uv)
{
  // In texels: node i is texel i / stride.
  vec2 p = (uv * vec2 (u_size) - 0.5) / vec2 (u_stride);
  vec2 f = floor (p);
  vec2 w = p - f;
  ivec2 hi = texture_nodes () - ivec2 (1);
  ivec2 i0 = clamp (ivec2 (f), ivec2 (0), hi);
  ivec2 i1 = clamp (ivec2 (f) + ivec2 (1), ivec2 (0), hi);
  int width = textureSize (u_time, 0).x;
  float t00 = texelFetch (u_time, texel_of (ivec2 (i0.x, i0.y), width), 0).r;
  float t10 = texelFetch (u_time, texel_of (ivec2 (i1.x, i0.y), width), 0).r;
  float t01 = texelFetch (u_time, texel_of (ivec2 (i0.x, i1.y), width), 0).r;
  float t11 = texelFetch (u_time, texel_of (ivec2 (i1.x, i1.y), width), 0).r;

  if (!(max (max (t00, t10), max (t01, t11)) < UNREACHED))
    return -1.0;
  return mix (mix (t00, t10, w.x), mix (t01, t11, w.x), w.y);
}

// Coverage of a line of about `width` pixels along integer values of q:
// the distance to the nearest integer in q units, divided by q's change per
// pixel (fwidth), is a distance in pixels, so lines stay crisp at any zoom.
float
line_coverage (float q,
               float width)
{
  float dq = max (fwidth (q), 1e-8);
  float d = abs (fract (q - 0.5) - 0.5) / dq;
  float a = 1.0 - smoothstep (0.5 * width - 0.5, 0.5 * width + 0.5, d);
  // When lines would crowd closer than ~3 pixels, fade them out rather than
  // let them alias into moire.
  return a * (1.0 - smoothstep (0.2, 0.4, dq));
}

void
main (void)
{
  ivec2 cell = clamp (ivec2 (floor (v_uv * vec2 (u_size))), ivec2 (0), u_size - ivec2 (1));
  ivec2 node = min (cell / u_stride, texture_nodes () - ivec2 (1));
  float v = texelFetch (u_velocity, texel_of (node, textureSize (u_velocity, 0).x), 0).r;
  vec3 col;

  if (v <= 0.0)
    {
      // Obstacle: grey with a faint diagonal hatch so it reads as solid.
      float h = line_coverage ((gl_FragCoord.x + gl_FragCoord.y) / 8.0, 1.5);
      col = mix (vec3 (0.55), vec3 (0.42), h);
    }
  else
    {
      float s = clamp ((v - u_vrange.x) / max (u_vrange.y - u_vrange.x, 1e-20), 0.0, 1.0);
      col = texture (u_lut, vec2 ((s * 255.0 + 0.5) / 256.0, 0.5)).rgb;
    }

  if (u_has_time != 0)
    {
      float t = sample_time (v_uv);

      if (t >= 0.0)
        {
          float lum = dot (col, vec3 (0.2126, 0.7152, 0.0722));
          vec3 ink = lum > 0.45 ? vec3 (0.0) : vec3 (1.0);

          if (u_bands > 0.0 && t < u_bands_end)
            {
              // Alternating strata between folded horizons: sandstone and
              // shale, lightly tinted by the field beneath.
              float parity = mod (floor (t / u_bands), 2.0);
              vec3 strat = parity < 0.5 ? vec3 (0.91, 0.78, 0.50) : vec3 (0.42, 0.47, 0.55);
              col = mix (col, strat, 0.8);
            }
          if (u_front >= 0.0 && t > u_front)
            col = mix (col, vec3 (0.08), 0.55);
          if (u_interval > 0.0)
            col = mix (col, ink, 0.85 * line_coverage (t / u_interval, 1.4));
          if (u_front >= 0.0)
            {
              float q = (t - u_front) / max (u_interval, 1e-6);
              float dq = max (fwidth (q), 1e-8);
              float a = 1.0 - smoothstep (1.0, 2.0, abs (q) / dq);
              col = mix (col, vec3 (1.0, 0.95, 0.6), a);
            }
        }
    }

  o_color = vec4 (col, 1.0);
}
