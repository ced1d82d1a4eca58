//! `slice`: a system's translation of the whole corpus cut into per-set (and per-control)
//! hypothesis files, by the sets' ids.
//!
//! For a hypothesis `FILE` with name `NAME` (default: the file name without its last
//! extension, and without `.gz`), the hypothesis lines of every set are written as
//! `SETS/<phenomenon>/<bucket>.hyp.<NAME>` and of every control as
//! `SETS/<phenomenon>/controls/<bucket>.<k>.hyp.<NAME>`, line-aligned with the set's
//! (control's) `.ids` and reference files. All files are first written into a hidden
//! staging directory inside `SETS` and moved into place (one `rename` each) only when all
//! are complete, with stops held back while they move (a stop finds all of them moved or
//! none; [`ldd_io::FilesInto`]); a failure before the move leaves the sets directory as it
//! was. Existing
//! `.hyp.<NAME>` files are replaced; nothing else in `SETS` is touched.

use std::path::Path;

use crate::error::Result;
use crate::layout;
use crate::pipeline::read::select::{open_corpus_long, read_selected};
use crate::pipeline::read::sets::load;

/// Cuts the hypothesis `hyp` of system `name` (checked by [`super::check_name`]; the
/// command line names a system after its file unless told) into per-set and per-control files of the
/// sets directory `sets`.
pub fn slice_sets(sets: &Path, hyp: &Path, name: &str) -> Result<()> {
    // Keep an `extract` from replacing the sets while they are sliced.
    let _lock = ldd_io::cleanup::Lock::acquire(sets)?;
    let l = load(sets)?;
    // The hypothesis lines of every id of the sets and controls; the file must have the
    // corpus's line count.
    let mut ids: Vec<u32> = l
        .units
        .iter()
        .flat_map(|u| u.ids.iter().chain(u.controls.iter().flatten()).copied())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let input = open_corpus_long(hyp, l.manifest.corpus.lines, &l.manifest_path)?;
    let (lines, n) = read_selected(input, &ids)?;
    l.manifest.check_translation(&l.manifest_path, hyp, n)?;
    // Every id of the sets is there (the count is checked).
    let text = |of: &[u32]| -> String {
        let mut text = String::new();
        for id in of {
            let i = ids.binary_search(id).ok();
            text.push_str(i.and_then(|i| lines.get(i)).map_or("", String::as_str));
            text.push('\n');
        }
        text
    };
    // Each file, named after its set's (control's) ids file, staged, then all moved into
    // place together.
    let mut files = ldd_io::FilesInto::new(&l.dir, "slice")?;
    for u in &l.units {
        let stem = layout::set_stem(&u.set.files.ids);
        files.add(&layout::hyp_file(stem, name), text(&u.ids).as_bytes())?;
        for (k, ids) in u.controls.iter().enumerate() {
            let stem = layout::control_stem(&u.prefix, k + 1);
            files.add(&layout::hyp_file(&stem, name), text(ids).as_bytes())?;
        }
    }
    Ok(files.commit()?)
}
