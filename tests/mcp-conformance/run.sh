#!/usr/bin/env bash
# The official MCP conformance suite (npm `@modelcontextprotocol/conformance`, pinned in
# package.json) against the examples' servers over streamable HTTP, at each protocol version
# pas negotiates: 2026-07-28 and 2025-11-25 as the suite's frozen requirement sets, 2025-06-18
# by its scenarios for that version. A failing check not named in the server's baseline (or
# a named one that passes) fails the run: see `expected-failures-SERVER.yaml` for why each is
# named.
#
# The Tasks extension's scenarios (SEP-2663; the requirement sets score no extension) run
# against `pas-mcp-fixtures`, the suite's task fixtures written as a pas tool (two of its
# commands are jobs, so a client that takes tasks gets them as tasks); the standard selections
# run against it too, as the job example.
#
# usage: tests/mcp-conformance/run.sh BIN_DIR
#   (BIN_DIR holds the built `todo`, `notes` and `pas-mcp-fixtures`)
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
fixtures_url=$(serve pas-mcp-fixtures "XDG_STATE_HOME=$work/fixtures")
# The fixture tool fails what todo fails (the reference server's other fixtures, capabilities
# pas does not offer), and the task checks named in expected-failures-tasks.yaml.
cat "$here/expected-failures-todo.yaml" "$here/expected-failures-tasks.yaml" >"$work/expected-failures-fixtures.yaml"

# One run of the suite: SERVER, what to select, a name for its log; 1 when it failed.
run() {
  local server=$1 name=$2
  shift 2
  local url_var="${server//-/_}_url"
  local baseline="$here/expected-failures-$server.yaml"
  [ "$server" = fixtures ] && baseline="$work/expected-failures-fixtures.yaml"
  printf 'conformance: %s %s ... ' "$server" "$name" >&2
  if "$node" "$suite" server --url "${!url_var}" "$@" --expected-failures "$baseline" \
    -o "$work/results-$server-$name" >"$work/$server-$name.log" 2>&1; then
    echo "ok" >&2
  else
    echo "FAILED" >&2
    sed -n '/=== SUMMARY/,$p' "$work/$server-$name.log" >&2
    grep -iE "unexpected|stale" "$work/$server-$name.log" >&2 || true
    return 1
  fi
}

status=0
for server in todo notes fixtures; do
  for version in 2026-07-28 2025-11-25 2025-06-18; do
    case $version in
      2025-06-18) run "$server" "$version" --spec-version "$version" || status=1 ;;
      *) run "$server" "$version" --requirements "$version" || status=1 ;;
    esac
  done
done
# The Tasks extension, scenario by scenario (the suite's pinned list).
for scenario in tasks-lifecycle tasks-capability-negotiation tasks-wire-fields \
  tasks-request-state-removal tasks-mrtr-input tasks-request-headers \
  tasks-dispatch-and-envelope tasks-status-notifications tasks-required-task-error \
  tasks-mrtr-composition; do
  run fixtures "$scenario" --scenario "$scenario" || status=1
done
# HTTP carries the protocol: a server writes nothing on stdout.
for server in todo notes pas-mcp-fixtures; do
  if [ -s "$work/$server.out" ]; then
    echo "conformance: $server wrote on stdout: $(head -c 300 "$work/$server.out")" >&2
    status=1
  fi
done
exit $status

