// The full-screen strip: positions pass straight through; the texture coordinate
// (s, t) runs 0..1 across the output so a fragment can tell which element it owns.
in vec3 a_position;
in vec2 a_texcoord;
out vec2 v_texcoord;

void main() {
    v_texcoord = a_texcoord;
    gl_Position = vec4(a_position, 1.0);
}
