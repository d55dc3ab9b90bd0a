// SPDX-License-Identifier: GPL-3.0-or-later
// The model box as one quad.  The version line (330 core or 300 es) is
// prepended at load time.
in vec2 a_pos;            // model units: x right, z down

uniform mat3 u_clip;      // model -> clip space (FrView)
uniform vec4 u_cells;     // x_min, z_min, width, height of the cell box

out vec2 v_uv;            // 0..1 across the cells, row 0 at z_min

void
main (void)
{
  vec3 p = u_clip * vec3 (a_pos, 1.0);
  gl_Position = vec4 (p.xy, 0.0, 1.0);
  v_uv = (a_pos - u_cells.xy) / u_cells.zw;
}
