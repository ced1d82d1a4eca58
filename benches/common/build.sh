# Shared by the shell benchmarks that build a binary of their own (sourced, not run).
#
# The release profile as Cargo.toml ships it, pinned against a fast-iteration environment
# (CARGO_PROFILE_RELEASE_LTO=false and the like): thin LTO, one codegen unit, no
# incremental build. `cargo bench` inherits it (the bench profile inherits release).
export CARGO_PROFILE_RELEASE_LTO=thin CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  CARGO_PROFILE_RELEASE_INCREMENTAL=false

# build NAME SRC DEBUG STRIP: builds `ldd-sets` from the source tree SRC with debug = DEBUG
# and strip = STRIP into its own empty target directory $W/target-NAME; writes the build's
# "wall user sys" seconds, the binary's and the target directory's bytes to
# $W/build-NAME.txt and copies the binary to $W/ldd-sets-NAME.
build() {
  local t="$W/target-$1"
  rm -rf "$t"
  local r
  r=$( { time (cd "$2" && CARGO_TARGET_DIR="$t" CARGO_PROFILE_RELEASE_DEBUG=$3 \
    CARGO_PROFILE_RELEASE_STRIP=$4 cargo build -q --release --bin ldd-sets >&2); } 2>&1 | tail -1)
  local size tsize
  size=$(stat -c %s "$t/release/ldd-sets")
  tsize=$(du -sb "$t" | cut -f1)
  echo "$r $size $tsize" > "$W/build-$1.txt"
  cp "$t/release/ldd-sets" "$W/ldd-sets-$1"
}
