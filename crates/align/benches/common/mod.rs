//! What the benchmarks of ldd-align share.

/// Peak resident memory of this process so far (VmHWM of `/proc/self/status`), in kB; 0
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
