"""Connects to a pas tool's `TOOL mcp` with the official Python MCP SDK once per protocol mode
(`auto`: `server/discover`, then 2026-07-28 if offered; `2026-07-28` pinned; `legacy`: the
`initialize` handshake), lists its tools and makes one call in each; prints what each
connection negotiated and got, as one JSON array (pas-testbins/tests/mcp_clients.rs).

Usage: python mcp_versions.py PLAN.json
PLAN: {"command", "args", "env", "modes": [...], "tool", "arguments"}
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


async def connect(params, mode, tool, arguments):
    async with Client(params, mode=mode) as client:
        tools = await client.list_tools()
        result = await client.call_tool(tool, arguments)
        return {
            "mode": mode,
            "version": client.protocol_version,
            "tools": [t.name for t in tools.tools],
            "is_error": bool(result.is_error),
            "structured": result.structured_content,
        }


async def main(plan):
    params = StdioServerParameters(
        command=plan["command"], args=plan["args"], env=plan.get("env") or {}
    )
    answers = []
    for mode in plan["modes"]:
        answers.append(await connect(params, mode, plan["tool"], plan["arguments"]))
    print(json.dumps(answers))


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        asyncio.run(main(json.load(f)))
