"""Loads `pas-gen mcp` output with the Python MCP SDK (PyPI `mcp`) and checks it three ways.

1. The SDK's own model of a `tools/list` result accepts it (`ListToolsResult.model_validate`).
2. It validates against the JSON Schema the SDK publishes for that result type.
3. Every tool's inputSchema and outputSchema is itself a valid JSON Schema (draft 2020-12),
   of type object, as the MCP specification requires.

Usage: python mcp_check.py FILE.json...   Prints `ok FILE N` per file; exits 1 on any failure.
"""

import json
import sys

import jsonschema
from mcp.types import ListToolsResult


def check(path):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    result = ListToolsResult.model_validate(document)
    jsonschema.validate(document, ListToolsResult.model_json_schema())
    for tool in document["tools"]:
        for key in ("inputSchema", "outputSchema"):
            schema = tool.get(key)
            if schema is None:
                continue
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object", f"{tool['name']}: {key} is not an object schema"
    # The SDK read every tool with its annotations.
    assert len(result.tools) == len(document["tools"])
    for tool in result.tools:
        assert tool.annotations is not None, tool.name
    return len(result.tools)


def main():
    failed = False
    for path in sys.argv[1:]:
        try:
            print(f"ok {path} {check(path)}")
        except Exception as error:  # report every file, then fail
            failed = True
            print(f"FAILED {path}: {error}")
    sys.exit(1 if failed else 0)


main()
