#!/usr/bin/env bash
# Follows README.md top to bottom as a new user would (issue 29): a fresh clone of this checkout's
# HEAD, the network cut (the dependencies were fetched before, as `.ci/run` does), and every line
# of every ```sh block run in order from the clone's root by bash, failing on the first line
# that fails. The README's rust blocks run too: the "Use pas in your own CLI" block becomes the
# main.rs of a new clap project that the install lines turn into a pas tool, which is then
# called as the README says.
#
# What differs from a person at a keyboard, and why:
# - `cargo test --workspace` (the test command) is not run here: `.ci/run` runs it on its own.
# - The install lines (`cargo add`, `cargo install`) run in a new clap project, `PAS` in them
#   being the clone's directory.
# - The clone's `target` is a link to this checkout's, so the dependencies are not compiled a
#   second time (the clone's own crates are, from its own path); `cargo install` gets `--debug`
#   and a temporary root, for the same reason and to leave the user's ~/.cargo/bin alone.
#
# Usage: bash tests/readme_follow.sh   (minutes: it builds pas-gen, a scaffold and a tool)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/pas"
clone="$work/pas"
mkdir -p "$target"
ln -s "$target" "$clone/target"
# The README's demo scaffold lives in that target: an earlier run's names a clone that is gone.
rm -rf "$target/demo/weather"
export CARGO_NET_OFFLINE=true
unset CARGO_TARGET_DIR PAS_AGENT

# The README's sh blocks, one command a line, comments and blank lines left out.
mapfile -t lines < <(awk '/^```sh$/ {block = 1; next} /^```/ {block = 0} block && /^[^#]/ && NF' \
  "$clone/README.md")
[ "${#lines[@]}" -gt 5 ] || { echo "README.md: too few sh lines (${#lines[@]})" >&2; exit 1; }

# The "Use pas in your own CLI" rust block, for the project the install lines make.
awk '/^### 1\. Use pas in your own CLI/ {section = 1} section && /^```rust$/ {block = 1; next}
     block && /^```$/ {exit} block {print}' "$clone/README.md" > "$work/main.rs"
[ -s "$work/main.rs" ] || { echo "README.md: no rust block under 'Use pas in your own CLI'" >&2; exit 1; }
cargo new -q --name lines "$work/lines"
# An existing clap CLI: clap is already its dependency.
(cd "$work/lines" && cargo add -q clap --features derive)

first=1
for line in "${lines[@]}"; do
  case "$line" in
    "cargo test --workspace"*) continue ;;
  esac
  line="${line%%  #*}" # a trailing comment (two spaces, then #) is the README's, not bash's
  echo "README> $line" >&2
  if [[ "$line" == "cargo add "* || "$line" == "cargo install "* ]]; then
    # The install lines are for the user's own project: here the new clap project.
    line="${line//PAS/$clone}"
    if [[ "$line" == "cargo install "* ]]; then
      line="$line --debug --root $work/bin"
    fi
    (cd "$work/lines" && CARGO_TARGET_DIR="$target" bash -euo pipefail -c "$line") </dev/null
  else
    (cd "$clone" && bash -euo pipefail -c "$line") </dev/null >"$work/out"
    if [ "$first" = 1 ]; then
      # The first command, run again, finds its own scaffold instead of stopping at OUT_NOT_EMPTY.
      (cd "$clone" && bash -euo pipefail -c "$line") </dev/null >"$work/out"
      grep -q "weather" "$work/out"
      first=0
    fi
  fi
done

# The installed pas-gen works.
"$work/bin/bin/pas-gen" check "$clone/specs/weather.yaml"
# The tool the README's derive example makes, called as the README says.
cp "$work/main.rs" "$work/lines/src/main.rs"
(cd "$work/lines" && CARGO_TARGET_DIR="$target" cargo build -q)
lines_bin="$target/debug/lines"
(cd "$work/lines" && "$lines_bin" Cargo.toml) | grep -qx 'Cargo.toml: [0-9]*'
(cd "$work/lines" && "$lines_bin" --agent Cargo.toml) | jq -e '.file == "Cargo.toml" and .lines > 0' >/dev/null
set +e
(cd "$work/lines" && "$lines_bin" --agent nope) >"$work/out" 2>"$work/err"
code=$?
set -e
[ "$code" = 100 ] || { echo "lines --agent nope exited $code, the README says 100" >&2; exit 1; }
[ ! -s "$work/out" ] || { echo "lines --agent nope wrote to stdout" >&2; exit 1; }
jq -e '.error == "FILE_UNREADABLE" and .code == 100' "$work/err" >/dev/null
echo "README followed: ${#lines[@]} lines, the derive example built and called" >&2
