#!/usr/bin/env bash
# The official MCP conformance suite (npm `@modelcontextprotocol/conformance`, pinned in
# package.json) against the examples' servers over streamable HTTP, at each protocol version
# pas negotiates: 2026-07-28 and 2025-11-25 as the suite's frozen requirement sets, 2025-06-18
# by its scenarios for that version. A failing check not named in the server's baseline (or
# a named one that passes) fails the run: see `expected-failures-SERVER.yaml` for why each is
# named.
#
# usage: tests/mcp-conformance/run.sh BIN_DIR    (BIN_DIR holds the built `todo` and `notes`)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bins="$(cd "$1" && pwd)"
node="$here/node_modules/.bin/node"
suite="$here/node_modules/.bin/conformance"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# Starts one example serving HTTP on a free loopback port; prints its URL.
serve() {
  local name=$1
  shift
  env "$@" "$bins/$name" --builtin mcp --http 127.0.0.1:0 2>"$work/$name.err" >"$work/$name.out" &
  for _ in $(seq 100); do
    if grep -q listening "$work/$name.err" 2>/dev/null; then
      head -1 "$work/$name.err" | sed 's/.*"listening":"\([^"]*\)".*/\1/'
      return
    fi
    sleep 0.1
  done
  echo "conformance: $name did not start: $(cat "$work/$name.err")" >&2
  exit 1
}

mkdir -p "$work/notes"
cp -r "$here/../../examples/notes/fixtures/store" "$work/notes/store"
todo_url=$(serve todo "TODO_DB=$work/todo.db")
notes_url=$(serve notes "NOTES_STORE=$work/notes/store" "XDG_STATE_HOME=$work/notes/state")

status=0
for server in todo notes; do
  url_var="${server}_url"
  url=${!url_var}
  for version in 2026-07-28 2025-11-25 2025-06-18; do
    case $version in
      2025-06-18) select=(--spec-version "$version") ;;
      *) select=(--requirements "$version") ;;
    esac
    printf 'conformance: %s at %s ... ' "$server" "$version" >&2
    if "$node" "$suite" server --url "$url" "${select[@]}" \
      --expected-failures "$here/expected-failures-$server.yaml" \
      -o "$work/results-$server-$version" >"$work/$server-$version.log" 2>&1; then
      echo "ok" >&2
    else
      echo "FAILED" >&2
      sed -n '/=== SUMMARY/,$p' "$work/$server-$version.log" >&2
      grep -iE "unexpected|stale" "$work/$server-$version.log" >&2 || true
      status=1
    fi
  done
done
# HTTP carries the protocol: a server writes nothing on stdout.
for server in todo notes; do
  if [ -s "$work/$server.out" ]; then
    echo "conformance: $server wrote on stdout: $(head -c 300 "$work/$server.out")" >&2
    status=1
  fi
done
exit $status
