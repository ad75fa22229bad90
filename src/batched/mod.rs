//! Many small problems at once (the developer's log): a batch of small matrices
//! laid side by side in one atlas, each pass working on all of them. [`products`]
//! multiplies batches and raises them to powers; [`svd`] decomposes them
//! (one-sided Jacobi); [`ransac`] fits thousands of homographies at once and
//! scores them.

pub mod products;
pub mod ransac;
pub mod svd;
