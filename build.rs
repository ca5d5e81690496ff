//! Generates `include/toolgate.h` from `src/` (the C surface) with cbindgen and gives the shared
//! object its SONAME.
//!
//! - Normal build: the header is rewritten when (and only when) its text changes.
//!   A cbindgen failure is a warning, so an unrelated half-edited file elsewhere does
//!   not stop the build; the committed header stays as it was.
//! - `TOOLGATE_CHECK_HEADER=1`: nothing is written; the build fails if the committed
//!   header differs from the generated one, or if cbindgen fails (CI; see
//!   `scripts/check-header.sh`).

use std::path::PathBuf;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let header_path = manifest_dir.join("include").join("toolgate.h");

    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=include/toolgate.h");
    println!("cargo:rerun-if-env-changed=TOOLGATE_CHECK_HEADER");

    // The SONAME: hosts link against libtoolgate.so and load libtoolgate.so.0.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libtoolgate.so.0");
        soname_link();
    }

    let check = std::env::var("TOOLGATE_CHECK_HEADER").as_deref() == Ok("1");
    // cbindgen reports some unsupported syntax by panicking: treat that as a failure too.
    let generated = match std::panic::catch_unwind(|| generate(&manifest_dir))
        .unwrap_or_else(|_| Err("cbindgen panicked (see the message above)".to_owned()))
    {
        Ok(text) => text,
        Err(e) if check => panic!("cbindgen failed: {e}"),
        Err(e) => {
            println!("cargo:warning=include/toolgate.h not regenerated: cbindgen failed: {e}");
            return;
        }
    };
    let committed = std::fs::read_to_string(&header_path).unwrap_or_default();
    if committed == generated {
        return;
    }
    if check {
        panic!(
            "include/toolgate.h differs from the header generated from src/: run \
             `cargo build` and commit include/toolgate.h"
        );
    }
    std::fs::create_dir_all(header_path.parent().unwrap()).unwrap();
    std::fs::write(&header_path, generated).expect("write include/toolgate.h");
}

/// A program linked with `-L target/<profile> -ltoolgate` records the SONAME
/// `libtoolgate.so.0` and looks for that file at run time: put the link
/// `libtoolgate.so.0 -> libtoolgate.so` beside the library cargo writes, so that
/// `-Wl,-rpath,target/<profile>` (C tests, examples, cgo) finds it. Best effort: the
/// profile directory is three levels above OUT_DIR (`<profile>/build/<pkg>/out`).
fn soname_link() {
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        return;
    };
    let Some(profile_dir) = std::path::Path::new(&out_dir).ancestors().nth(3) else {
        return;
    };
    let link = profile_dir.join("libtoolgate.so.0");
    if std::fs::read_link(&link).is_ok_and(|target| target.as_os_str() == "libtoolgate.so") {
        return;
    }
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    if let Err(e) = std::os::unix::fs::symlink("libtoolgate.so", &link) {
        println!("cargo:warning=could not create {}: {e}", link.display());
    }
}

fn generate(manifest_dir: &std::path::Path) -> Result<String, String> {
    let mut config = cbindgen::Config::from_file(manifest_dir.join("cbindgen.toml"))?;
    let version = |key: &str| std::env::var(key).unwrap();
    config.after_includes = Some(format!(
        "\n/** The version of this header; compare with tg_version() at run time. */\n\
         #define TOOLGATE_VERSION_MAJOR {}\n\
         #define TOOLGATE_VERSION_MINOR {}\n\
         #define TOOLGATE_VERSION_PATCH {}\n\
         #define TOOLGATE_VERSION \"{}\"\n",
        version("CARGO_PKG_VERSION_MAJOR"),
        version("CARGO_PKG_VERSION_MINOR"),
        version("CARGO_PKG_VERSION_PATCH"),
        version("CARGO_PKG_VERSION"),
    ));
    // This crate is the C surface alone; the core lives in other crates, whose items
    // cbindgen never sees (it parses only this crate's files, following their `mod`s).
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(manifest_dir.join("src").join("lib.rs"))
        .generate()
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).map_err(|e| e.to_string())
}
