//! Loading a tree-sitter grammar from a shared library at run time
//! (`--grammar LIB.so`), the one place `reduce` calls foreign code it was
//! not built with. The library is kept loaded for the rest of the process,
//! since the grammar's tables live in it.

use std::path::Path;

use anyhow::{Result, bail};

/// The language name a library's file name gives: `libtree-sitter-foo.so`,
/// `tree-sitter-foo.so`, `libfoo.so` and `foo.so` are all `foo` (dashes
/// become underscores, as in the symbol `tree_sitter_foo`).
pub(super) fn name_of(library: &Path) -> Result<String> {
    let Some(stem) = library
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.split('.').next().unwrap_or(n))
    else {
        bail!(
            "cannot tell the language of {}: use --lang NAME",
            library.display()
        );
    };
    let stem = stem.strip_prefix("lib").unwrap_or(stem);
    let stem = stem.strip_prefix("tree-sitter-").unwrap_or(stem);
    let name = stem.replace('-', "_");
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        bail!(
            "cannot tell the language of {} from its file name: use --lang NAME",
            library.display()
        );
    }
    Ok(name)
}

/// The grammar `tree_sitter_<name>` of the shared library `library`,
/// refused when the file cannot be loaded, lacks the symbol, or was
/// generated for an ABI this tree-sitter does not read.
pub(super) fn load(library: &Path, name: &str) -> Result<tree_sitter::Language> {
    let symbol = format!("tree_sitter_{name}");
    // SAFETY: loading a library runs its initialisers; the user names the
    // library as a tree-sitter grammar, which has none beyond the C
    // runtime's. `tree_sitter_<name>` is then called as what every
    // tree-sitter grammar exports under that name, `const TSLanguage
    // *(void)`, and the pointer it returns stays valid while the library
    // is loaded, which is for the rest of the process (it is leaked).
    let language = unsafe {
        let lib = match libloading::Library::new(library) {
            Ok(lib) => lib,
            Err(e) => bail!("cannot load the grammar {}: {e}", library.display()),
        };
        let make = match lib.get::<unsafe extern "C" fn() -> *const ()>(symbol.as_bytes()) {
            Ok(make) => *make,
            Err(_) => bail!(
                "the grammar {} has no symbol {symbol} (name the language with --lang NAME)",
                library.display()
            ),
        };
        std::mem::forget(lib);
        let raw = make();
        if raw.is_null() {
            bail!("{symbol} in {} returned no grammar", library.display());
        }
        tree_sitter::Language::from_raw(raw.cast::<tree_sitter::ffi::TSLanguage>())
    };
    let abi = language.abi_version();
    let (min, max) = (
        tree_sitter::MIN_COMPATIBLE_LANGUAGE_VERSION,
        tree_sitter::LANGUAGE_VERSION,
    );
    if !(min..=max).contains(&abi) {
        bail!(
            "the grammar {} has ABI version {abi}; this reduce reads versions {min} to {max} \
             (regenerate it with a matching tree-sitter CLI)",
            library.display()
        );
    }
    Ok(language)
}
