// SPDX-License-Identifier: GPL-3.0-or-later
// Lines and markers, tessellated on the CPU into quads in widget pixels.
in vec2 a_pos;        // widget pixels, y down
in vec4 a_shape;      // u, v across the shape; kind; half-length (capsules)
in vec4 a_color;      // straight (not premultiplied) RGBA
in float a_reach;     // how far the shape reaches from its line or centre (px)

uniform vec2 u_viewport;

out vec2 v_pos;
out vec4 v_shape;
out vec4 v_color;
out float v_reach;

void
main (void)
{
  gl_Position = vec4 (a_pos.x / u_viewport.x * 2.0 - 1.0,
                      1.0 - a_pos.y / u_viewport.y * 2.0, 0.0, 1.0);
  v_pos = a_pos;
  v_shape = a_shape;
  v_color = a_color;
  v_reach = a_reach;
}
