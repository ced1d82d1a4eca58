//! Memory the process gives back: the aligner allocates and frees large work arrays pass
//! after pass, and glibc's allocator, once a large block is freed, raises the size from
//! which it maps blocks apart (up to 32 MB) and keeps later ones in its heaps, which it
//! seldom returns. On the shared corpora that held 20 MB more than training used.

/// Makes the C allocator map every block of 128 KiB or more apart, and so return it to the
/// system when freed (its initial threshold, kept fixed). A process-wide setting, for the
/// program to make once at startup; nothing outside glibc.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of the allocator; any value is valid.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}
