// Drives one `TOOL mcp` server through the official TypeScript MCP SDK from the plan that
// tests/mcp_support writes (its format is documented in tests/mcp_client.py, which runs the
// same plan through the Python SDK). The SDK itself validates every structuredContent against
// the tool's outputSchema (Ajv) once tools/list is read; each is validated here again with Ajv
// directly, so a silent SDK change cannot skip it. Prints `ok N` and exits 0, or every failure
// and exits 1.

import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv from "ajv";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const failures = [];
let checks = 0;
const check = (condition, what) => {
  checks += 1;
  if (!condition) failures.push(what);
};

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

// A plan with a `url` names a server already listening (streamable HTTP); else it is spawned.
const transport = plan.url
  ? new StreamableHTTPClientTransport(new URL(plan.url))
  : new StdioClientTransport({
      command: plan.command,
      args: plan.args ?? ["--builtin", "mcp"],
      env: { ...process.env, ...(plan.env ?? {}) },
      stderr: "inherit",
    });
const client = new Client({ name: "pas-mcp-ts-client", version: "1.0.0" });
await client.connect(transport);
check(client.getServerVersion()?.name === plan.tools_name, "server name");

const listed = await client.listTools();
check(
  isDeepStrictEqual(listed.tools, plan.tools.tools),
  `tools/list differs from pas-gen mcp:\n${JSON.stringify(listed)}\n${JSON.stringify(plan.tools)}`,
);
const schemas = Object.fromEntries(plan.tools.tools.map((t) => [t.name, t.outputSchema]));

for (const call of plan.calls) {
  const label = `${call.tool} ${JSON.stringify(call.arguments)}`;
  const params = { name: call.tool, arguments: call.arguments };
  if (call.meta) params._meta = call.meta;
  let result;
  try {
    result = await client.callTool(params);
  } catch (error) {
    check(false, `${label}: ${error}`);
    continue;
  }
  const body = result.structuredContent;
  if (call.error) {
    check(result.isError === true, `${label}: expected error ${call.error}, got ${JSON.stringify(body)}`);
    check(body === undefined, `${label}: an error has no structuredContent`);
    const error = JSON.parse(result.content[0].text).error ?? {};
    check(error.code === call.error, `${label}: code ${JSON.stringify(error)} != ${call.error}`);
    check("message" in error && "exitCode" in error, `${label}: error fields ${JSON.stringify(error)}`);
    continue;
  }
  check(!result.isError, `${label}: unexpected error ${JSON.stringify(body)}`);
  const schema = schemas[call.tool];
  if (schema) {
    const validate = ajv.compile(schema);
    check(validate(body), `${label}: structuredContent does not fit the outputSchema: ${ajv.errorsText(validate.errors)}`);
  }
  if (body !== undefined) {
    check(isDeepStrictEqual(JSON.parse(result.content[0].text), body), `${label}: text block != structuredContent`);
  }
  if (call.items !== undefined) {
    check(body.items.length === call.items, `${label}: ${body.items.length} items, not ${call.items}`);
  }
}

if (plan.resources) {
  const templates = await client.listResourceTemplates();
  check(templates.resourceTemplates.length > 0, "no resource templates");
  const resources = await client.listResources();
  const uris = resources.resources.map((r) => r.uri);
  for (const uri of plan.resources.read) {
    check(uris.includes(uri), `${uri} is not in resources/list: ${uris}`);
    const read = await client.readResource({ uri });
    const value = JSON.parse(read.contents[0].text);
    check(typeof value === "object" && !Array.isArray(value), `${uri}: contents are not a JSON object`);
  }
  let refused = false;
  try {
    await client.readResource({ uri: plan.resources.missing });
  } catch {
    refused = true;
  }
  check(refused, "reading a missing resource succeeded");
}

if (plan.progress) {
  const seen = [];
  const result = await client.callTool(
    { name: plan.progress.tool, arguments: plan.progress.arguments },
    undefined,
    { onprogress: (p) => seen.push(p.progress) },
  );
  check(!result.isError, `progress call failed: ${JSON.stringify(result.structuredContent)}`);
  // The server writes every notification before the result, but the SDK may resolve the call
  // before it has run the handlers of notifications read in the same chunk: let them run.
  for (let waited = 0; seen.length < plan.progress.least && waited < 2000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  check(seen.length >= plan.progress.least, `${seen.length} progress notifications`);
}

if (plan.concurrent) {
  // All in flight at once: calls that wait for each other succeed only if the server runs
  // them at the same time.
  const results = await Promise.all(
    plan.concurrent.map((c) => client.callTool({ name: c.tool, arguments: c.arguments })),
  );
  plan.concurrent.forEach((c, i) => {
    const result = results[i];
    const label = `concurrent ${c.tool} ${JSON.stringify(c.arguments)}`;
    check(!result.isError, `${label}: ${JSON.stringify(result)}`);
    const schema = schemas[c.tool];
    if (schema && !result.isError) {
      const validate = ajv.compile(schema);
      check(validate(result.structuredContent), `${label}: ${ajv.errorsText(validate.errors)}`);
    }
  });
}

if (plan.cancel) {
  const started = Date.now();
  const abort = new AbortController();
  setTimeout(() => abort.abort("enough"), 500);
  let cut = false;
  try {
    // Aborting sends notifications/cancelled.
    await client.callTool({ name: plan.cancel.tool, arguments: plan.cancel.arguments }, undefined, {
      signal: abort.signal,
    });
  } catch {
    cut = true;
  }
  check(cut, "the long call was not cut short");
  await client.ping();
  const again = await client.callTool({ name: plan.cancel.tool, arguments: plan.cancel.after });
  check(!again.isError, `the call after a cancel failed: ${JSON.stringify(again.structuredContent)}`);
  check(Date.now() - started < 10000, "the cancelled call kept the server busy");
}

await client.close();
if (failures.length > 0) {
  for (const failure of failures) console.log("FAILED", failure);
  process.exit(1);
}
console.log(`ok ${checks}`);
