// Gaussian elimination, step k, the pivot (src/plan/lu.rs states the algorithm
// and the singularity rule). The output is the next state row, 1 × (n + 3):
// [p_0 … p_{n−1}, first singular step (−1: none), unused, unused]. Fragment k
// finds the first row p ≥ k with the largest |w_pk|: a reduction over the
// column by one fragment scanning it (a tree of passes would cost a draw per
// level, more than the n fetches it saves at these sizes); fragment n records k
// if that pivot is at or below the threshold and no earlier step was; the
// others copy the state.
uniform highp sampler2D u_work;
uniform highp sampler2D u_state;
uniform int u_n;
uniform int u_k;
uniform float u_tiny;
out vec4 o_value;

// (the pivot row, |its entry|)
vec2 pivot() {
    int best = u_k;
    float bv = abs(texelFetch(u_work, ivec2(u_k, u_k), 0).r);
    for (int i = u_k + 1; i < u_n; ++i) {
        float v = abs(texelFetch(u_work, ivec2(u_k, i), 0).r);
        if (v > bv) {
            bv = v;
            best = i;
        }
    }
    return vec2(float(best), bv);
}

void main() {
    int x = int(gl_FragCoord.x);
    float old = texelFetch(u_state, ivec2(x, 0), 0).r;
    float v = old;
    if (x == u_k) {
        v = pivot().x;
    } else if (x == u_n && old < 0.0 && pivot().y <= u_tiny) {
        v = float(u_k);
    }
    o_value = vec4(v, 0.0, 0.0, 1.0);
}
