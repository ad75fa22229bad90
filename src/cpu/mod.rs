pub mod kernel;
