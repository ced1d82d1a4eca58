//! ldd-sets library
