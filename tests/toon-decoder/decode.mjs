// Reads TOON on stdin, prints the decoded value as JSON on stdout (strict mode: any deviation
// from the spec is an error, exit 1).
import { decode } from "@toon-format/toon";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
// The CLI ends its envelope with one newline; TOON documents do not carry it.
const text = input.endsWith("\n") ? input.slice(0, -1) : input;
process.stdout.write(JSON.stringify(decode(text, { strict: true })) + "\n");
