"""Progressive discovery (`TOOL mcp --discovery progressive`) through the official Python MCP
SDK: lists the tools, searches, describes a tool, calls it through `tools__call` and directly,
and prints what it got as one JSON object (examples/notes/tests/mcp_discovery.rs compares).

Usage: python mcp_discovery.py PLAN.json
PLAN: {"command", "args", "env", "query", "tool", "arguments"}
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


def result(called):
    return {
        "is_error": bool(called.is_error),
        "structured": called.structured_content,
        "text": [c.text for c in called.content if getattr(c, "text", None) is not None],
    }


async def main(plan):
    params = StdioServerParameters(
        command=plan["command"], args=plan["args"], env=plan.get("env") or {}
    )
    async with Client(params) as client:
        tools = await client.list_tools()
        found = await client.call_tool("tools__search", {"query": plan["query"]})
        described = await client.call_tool("tools__describe", {"names": [plan["tool"]]})
        through = await client.call_tool(
            "tools__call", {"name": plan["tool"], "arguments": plan["arguments"]}
        )
        direct = await client.call_tool(plan["tool"], plan["arguments"])
        print(
            json.dumps(
                {
                    "tools": [t.name for t in tools.tools],
                    "search": result(found),
                    "describe": result(described),
                    "through": result(through),
                    "direct": result(direct),
                }
            )
        )


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        asyncio.run(main(json.load(f)))
