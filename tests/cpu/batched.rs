//! Many small matrices on the CPU backend: batched products and powers, batched SVDs
//! and RANSAC homographies, each against its float64 reference, with their errors
//! and leak checks (tests/common/{batched,svd,ransac}.rs).

use crate::common::*;

batched_tests!(Backend::Cpu);
svd_tests!(Backend::Cpu);
ransac_tests!(Backend::Cpu);
