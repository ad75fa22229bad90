// Batched SVD by one-sided Jacobi on WebGL (src/plan/svd.rs states the algorithm):
// what the pairs, round, measure and finish passes share. A matrix is a tile [A; V] of
// (rows + cols) × cols entries of an R32F atlas (glsl/common/atlas.glsl, prepended).

// The circle method, as src/plan/svd.rs `partner`: the column paired with `col`
// in round `r` of a sweep over `even` columns (even − 1 rounds).
int svd_partner(int r, int col, int even) {
    int m = even - 1;
    if (col == m) { return r; }
    int p = (2 * r + 2 * m - col) % m;
    return p == col ? m : p;
}

// (α, β, γ) = (‖a_p‖², ‖a_q‖², a_p·a_q) over the A rows of tile s, always added up
// in this order: both columns of a pair compute the identical rotation.
vec3 svd_dots(highp sampler2D work, int s, int p, int q, int rows, int cols, int per_row) {
    int tile_rows = rows + cols;
    vec3 d = vec3(0.0);
    for (int i = 0; i < rows; ++i) {
        float ap = texelFetch(work, atlas_at(s, i, p, tile_rows, cols, per_row), 0).r;
        float aq = texelFetch(work, atlas_at(s, i, q, tile_rows, cols, per_row), 0).r;
        d += vec3(ap * ap, aq * aq, ap * aq);
    }
    return d;
}

// Whether the pair rotates (src/plan/svd.rs `rotation`): not when one column is
// zero, nor when |γ| <= tol·√α·√β.
bool svd_rotates(vec3 d, float tol) {
    return d.x > 0.0 && d.y > 0.0 && abs(d.z) > tol * sqrt(d.x) * sqrt(d.y);
}

// t = tan θ of the rotation making a rotating pair orthogonal; c = 1/√(1+t²),
// s = c·t. It is 0 (the pair left alone) only where ζ overflows, columns whose
// norms differ by a factor past 1e30.
float svd_tangent(vec3 d) {
    float zeta = (d.y - d.x) / (2.0 * d.z);
    // 1 + ζ² overflows past |ζ| ≈ 1.8e19, where t ≈ 1/(2ζ) anyway.
    float root = abs(zeta) > 1e15 ? abs(zeta) : sqrt(1.0 + zeta * zeta);
    return (zeta < 0.0 ? -1.0 : 1.0) / (abs(zeta) + root);
}
