//! ldd-align (stub)
