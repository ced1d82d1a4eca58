//! What the benchmarks of ldd-align share.

/// Peak resident memory of this process so far (or since [`reset_hwm`]) (VmHWM of `/proc/self/status`), in kB; 0
/// where it cannot be read.
pub fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// Resets the peak [`vm_hwm_kb`] to the current resident memory (Linux `clear_refs` 5), so
/// that the next reading is the peak of what runs in between; false where it cannot.
#[allow(dead_code)] // gold_aer's only
pub fn reset_hwm() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}
