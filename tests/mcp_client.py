"""Drives one `TOOL mcp` server through the official Python MCP SDK (PyPI `mcp`) from a plan.

The plan (JSON, the file named by argv[1]) is written by the Rust test tests/mcp_clients.rs:

    {"command": PATH, "args": ["--builtin", "mcp"], "env": {...},
     "url": "http://127.0.0.1:PORT/mcp" | absent,  # a server already listening: HTTP, not stdio
     "tools": {"tools": [...]},                 # what tools/list must equal (`pas-gen mcp`)
     "calls": [{"tool", "arguments", "error": null | CODE, "meta": {...}?}],
     "resources": {"read": [URI...], "missing": URI} | null,
     "cancel": {"tool", "arguments"} | null,
     "progress": {"tool", "arguments", "least": N} | null,
     "concurrent": [{"tool", "arguments"}...] | null}   # sent together; each must succeed

Each successful call's structuredContent is validated against the tool's outputSchema with
`jsonschema`; each error's text block must be {"error": {code, message, exitCode, ...}}. Prints
`ok N` (N checks) and exits 0, or prints every failure and exits 1.
"""

import asyncio
import json
import sys
import time

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def connect(plan):
    """The plan's server: over streamable HTTP when it gives a URL, else spawned on stdio."""
    if plan.get("url"):
        return streamable_http_client(plan["url"])
    params = StdioServerParameters(
        command=plan["command"], args=plan.get("args", ["--builtin", "mcp"]), env=plan.get("env") or {}
    )
    return stdio_client(params)


async def run(plan):
    async with connect(plan) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == plan["tools_name"], f"server name {init.server_info.name}")

            listed = dump(await session.list_tools())
            expected = plan["tools"]
            check(
                [dump_tool(t) for t in listed["tools"]] == expected["tools"],
                f"tools/list differs from pas-gen mcp:\n{json.dumps(listed)}\n{json.dumps(expected)}",
            )
            schemas = {t["name"]: t.get("outputSchema") for t in expected["tools"]}

            for call in plan["calls"]:
                kwargs = {}
                if call.get("meta"):
                    kwargs["meta"] = call["meta"]
                result = await session.call_tool(call["tool"], call["arguments"], **kwargs)
                body = result.structured_content
                label = f"{call['tool']} {json.dumps(call['arguments'])}"
                if call.get("error"):
                    check(result.is_error, f"{label}: expected error {call['error']}, got {body}")
                    check(body is None, f"{label}: an error has no structuredContent")
                    error = json.loads(result.content[0].text).get("error", {})
                    check(error.get("code") == call["error"], f"{label}: code {error} != {call['error']}")
                    check("message" in error and "exitCode" in error, f"{label}: error fields {error}")
                    continue
                check(not result.is_error, f"{label}: unexpected error {body}")
                schema = schemas.get(call["tool"])
                if schema is not None:
                    try:
                        jsonschema.validate(body, schema)
                        check(True, "")
                    except jsonschema.ValidationError as e:
                        check(False, f"{label}: structuredContent does not fit the outputSchema: {e.message}")
                if body is not None:
                    check(json.loads(result.content[0].text) == body, f"{label}: text block != structuredContent")
                if "items" in call:
                    check(len(body["items"]) == call["items"], f"{label}: {len(body['items'])} items, not {call['items']}")

            resources = plan.get("resources")
            if resources:
                templates = dump(await session.list_resource_templates())
                check(len(templates["resourceTemplates"]) > 0, "no resource templates")
                listed = dump(await session.list_resources())
                uris = [r["uri"] for r in listed["resources"]]
                for uri in resources["read"]:
                    check(uri in uris, f"{uri} is not in resources/list: {uris}")
                    read = await session.read_resource(uri)
                    text = read.contents[0].text
                    check(isinstance(json.loads(text), dict), f"{uri}: contents are not a JSON object")
                try:
                    await session.read_resource(resources["missing"])
                    check(False, "reading a missing resource succeeded")
                except Exception:  # the SDK raises the JSON-RPC error
                    check(True, "")

            progress = plan.get("progress")
            if progress:
                seen = []

                async def on_progress(value, total, message):
                    seen.append(value)

                result = await session.call_tool(
                    progress["tool"], progress["arguments"], progress_callback=on_progress
                )
                check(not result.is_error, f"progress call failed: {result.structured_content}")
                check(len(seen) >= progress["least"], f"{len(seen)} progress notifications")

            concurrent = plan.get("concurrent")
            if concurrent:
                # All in flight at once: calls that wait for each other succeed only if the
                # server runs them at the same time.
                results = await asyncio.gather(
                    *(session.call_tool(c["tool"], c["arguments"]) for c in concurrent)
                )
                for c, result in zip(concurrent, results):
                    label = f"concurrent {c['tool']} {json.dumps(c['arguments'])}"
                    check(not result.is_error, f"{label}: {dump(result)}")
                    schema = schemas.get(c["tool"])
                    if schema is not None and not result.is_error:
                        try:
                            jsonschema.validate(result.structured_content, schema)
                        except jsonschema.ValidationError as e:
                            check(False, f"{label}: does not fit the outputSchema: {e.message}")

            cancel = plan.get("cancel")
            if cancel:
                started = time.monotonic()
                try:
                    # Abandoning the request sends notifications/cancelled.
                    await session.call_tool(
                        cancel["tool"], cancel["arguments"], read_timeout_seconds=0.5
                    )
                    check(False, "the long call was not cut short")
                except Exception:
                    check(True, "")
                # The server serves the next call promptly: the cancelled handler stopped.
                await session.send_ping()
                again = await session.call_tool(cancel["tool"], cancel["after"])
                check(not again.is_error, f"the call after a cancel failed: {again.structured_content}")
                check(time.monotonic() - started < 10, "the cancelled call kept the server busy")


def dump_tool(tool):
    return tool


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        plan = json.load(f)
    asyncio.run(run(plan))
    if failures:
        for failure in failures:
            print("FAILED", failure)
        sys.exit(1)
    print(f"ok {checks}")


main()
