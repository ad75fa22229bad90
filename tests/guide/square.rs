use gpgpu_matrix::{BackendChoice, CreateOptions, Gpgpu, GpgpuError, Options};

/// R = M·M on the backend asked for, and what a wrong length gives.
pub async fn square_two_by_two(backend: BackendChoice) -> Result<Vec<f32>, GpgpuError> {
    let gpu = Gpgpu::create(CreateOptions { backend, ..CreateOptions::default() }).await?;
    let m = [1.0, 2.0, 3.0, 4.0];
    let r = gpu.square_async(2, &m, &Options::default()).await?;
    assert_eq!(r, [7.0, 10.0, 15.0, 22.0]);
    // Bad input is an error with a code and advice, never a panic.
    let err = gpu.square_async(3, &m, &Options::default()).await.unwrap_err();
    assert_eq!(err.code(), "BAD_LENGTH");
    Ok(r)
}
