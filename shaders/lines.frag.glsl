// SPDX-License-Identifier: GPL-3.0-or-later
// Antialiased shapes from a distance field: kind 0 a disc, 1 a diamond,
// 2 a capsule (a line segment with round caps, half-length in w).
in vec2 v_pos;
in vec4 v_shape;
in vec4 v_color;
in float v_reach;

// x0, y0, x1, y1 in widget pixels: the model's rectangle for its own
// lines, or one that holds everything.
uniform vec4 u_clip;

out vec4 o_color;

void
main (void)
{
  float d;

  if (v_shape.z < 0.5)
    d = length (v_shape.xy);
  else if (v_shape.z < 1.5)
    d = abs (v_shape.x) + abs (v_shape.y);
  else
    d = length (vec2 (max (abs (v_shape.x) - v_shape.w, 0.0), v_shape.y));

  // One pixel's ramp centred on the edge (d = 1): the quads reach a pixel
  // beyond it (fr-lines.c), and a line keeps its width's coverage.
  float aa = max (fwidth (d), 1e-4);
  float a = 1.0 - smoothstep (1.0 - 0.5 * aa, 1.0 + 0.5 * aa, d);

  // The clip grows by each shape's reach and half a pixel, the outer half
  // of its ramp: a line on the model's edge shows whole, and one crossing
  // it ends flush with the outside of a line along the edge.  (The
  // derivatives above are taken before any fragment is discarded.)
  vec2 pixel = fwidth (v_pos);
  vec2 outside = max (u_clip.xy - v_pos, v_pos - u_clip.zw);
  if (a <= 0.0 || any (greaterThan (outside, vec2 (v_reach) + 0.5 * pixel)))
    discard;
  o_color = vec4 (v_color.rgb, v_color.a * a);
}
