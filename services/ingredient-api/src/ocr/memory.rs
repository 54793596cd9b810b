//! How `/ocr` keeps its peak memory down: glibc's allocator settings for ONNX Runtime.
//!
//! ONNX Runtime allocates the activations of each model run through glibc's `malloc` (the
//! service's own allocations go to jemalloc), tens of megabytes a tensor, freed when the run
//! no longer needs them. glibc serves a freed block of that size again only to a request that
//! fits it, and after the first such block is freed it raises its threshold for serving large
//! requests from fresh mappings to that size (up to 32 MB): from then on the activations of
//! the next tensors come from the thread's heap, beside the holes the previous ones left, and
//! the peak grows with the holes. Measured on the detector alone over two 720×1280 frames:
//! 306 MB peak with glibc's defaults, 193 MB with the threshold fixed at 128 KiB (every large
//! block mapped and unmapped with its tensor), the same boxes; in the server a frame's peak
//! fell from about 440 to 245 MB. The fresh pages cost the kernel CPU: a whole photo about a
//! fifth more (docs/ocr.md, "Memory", has the threshold's curve); transparent huge pages
//! (`hugetlb=1`: `madvise` for the blocks) win a little of it back where the kernel allows.
//!
//! glibc reads these settings (`GLIBC_TUNABLES`) only when a process starts, and setting
//! them from inside would need `unsafe` (`mallopt`), which the workspace forbids: the server
//! starts itself again once with them ([`exec_with_malloc_tunables`]). An operator's own
//! `GLIBC_TUNABLES` naming `glibc.malloc.mmap_threshold` is left as it is, and
//! `OCR_MALLOC=default` keeps glibc's defaults (less system CPU, a higher peak).

use std::ffi::OsString;

/// The settings: large blocks always mapped afresh (freed with their tensor), and on huge
/// pages where the kernel allows it.
pub const MALLOC_TUNABLES: &str = "glibc.malloc.mmap_threshold=131072:glibc.malloc.hugetlb=1";

/// The `GLIBC_TUNABLES` value to start again with, given the current one: `None` when it
/// already sets the mapping threshold (ours, after the restart, or the operator's).
pub fn tunables(current: Option<&str>) -> Option<String> {
    match current {
        Some(current) if current.contains("glibc.malloc.mmap_threshold") => None,
        Some(current) if !current.is_empty() => Some(format!("{current}:{MALLOC_TUNABLES}")),
        _ => Some(MALLOC_TUNABLES.to_owned()),
    }
}

/// Starts this program again (same process id, arguments and environment) with
/// [`MALLOC_TUNABLES`] added to `GLIBC_TUNABLES`, unless it already runs with a mapping
/// threshold. Returns only when it does not start again: already set, not Linux with glibc,
/// or the new start failed (then the process goes on with glibc's defaults).
pub fn exec_with_malloc_tunables() {
    if !cfg!(all(target_os = "linux", target_env = "gnu"))
        || std::env::var_os("OCR_MALLOC").is_some_and(|v| v == "default")
    {
        return;
    }
    let current = std::env::var_os("GLIBC_TUNABLES");
    let Some(value) = tunables(current.as_deref().and_then(|v| v.to_str())) else {
        return;
    };
    if current.as_ref().is_some_and(|v| v.to_str().is_none()) {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let mut args = std::env::args_os();
        let arg0 = args
            .next()
            .unwrap_or_else(|| OsString::from("ingredient-api"));
        // `/proc/self/exe` starts the same binary even when its file was replaced meanwhile.
        let error = std::process::Command::new("/proc/self/exe")
            .arg0(arg0)
            .args(args)
            .env("GLIBC_TUNABLES", value)
            .exec();
        #[allow(clippy::print_stderr)]
        {
            eprintln!("not restarted with glibc's malloc settings for OCR: {error}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tunables_are_added_once_and_an_operators_threshold_is_kept() {
        assert_eq!(tunables(None).as_deref(), Some(MALLOC_TUNABLES));
        assert_eq!(tunables(Some("")).as_deref(), Some(MALLOC_TUNABLES));
        assert_eq!(
            tunables(Some("glibc.malloc.arena_max=2")),
            Some(format!("glibc.malloc.arena_max=2:{MALLOC_TUNABLES}"))
        );
        assert_eq!(tunables(Some(MALLOC_TUNABLES)), None);
        assert_eq!(tunables(Some("glibc.malloc.mmap_threshold=65536")), None);
    }
}
