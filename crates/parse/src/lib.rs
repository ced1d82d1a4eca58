//! ldd-parse (stub)
