#!/usr/bin/env node
// The sitetags CLI. The generator is TypeScript compiled to build/ by
// `npm ci` (the prepare script) or `npm run compile`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../build/generator/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write("sitetags: the generator is not compiled yet; run `npm run compile` (npm ci does it too)\n");
  process.exit(2);
}
const { main } = await import(entry.href);
// Exit explicitly: a failed TypeScript compile can leave the compiler's file
// watchers open. Writes to stdout/stderr are synchronous on Linux pipes and files.
process.exit(await main(process.argv.slice(2)));
