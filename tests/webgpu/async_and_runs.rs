//! The JavaScript API's Promise forms and the step-through `Run` on WebGPU (checks
//! in tests/common/runs.rs, also run on WebGL by browser_async_and_runs.rs).

use crate::common::*;

run_tests!(Backend::WebGpu);
