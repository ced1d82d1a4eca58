//! ldd-eval (stub)
