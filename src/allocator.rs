//! The C allocator's settings for a run. glibc's malloc gives each thread
//! that allocates an arena of its own, and once a freed block of a megabyte
//! or so has been mapped, it keeps blocks that size in its arenas instead
//! of mapping them: the texts of candidates rendered, blanked and counted
//! by the workers of a run on a megabyte input then stay resident after
//! they are freed. Two arenas and a fixed 256 KiB mapping threshold took a
//! whole run on a 1.2 MB C++ unit from 38 to 32 MB resident, with the
//! reducer's CPU at the same number of tests within 2% (docs/benchmarks.md).

/// Bytes from which an allocation is mapped on its own (and unmapped when
/// freed).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 256 * 1024;

/// Sets glibc's malloc up for a run, unless the user's environment sets
/// these (`MALLOC_ARENA_MAX`, `MALLOC_MMAP_THRESHOLD_`); elsewhere nothing.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
            // SAFETY: mallopt only changes the allocator's parameters; it
            // is called before the run starts any thread.
            unsafe { libc::mallopt(libc::M_ARENA_MAX, 2) };
        }
        if std::env::var_os("MALLOC_MMAP_THRESHOLD_").is_none() {
            // SAFETY: as above.
            unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD) };
        }
    }
}
