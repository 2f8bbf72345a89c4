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
// A reader that stops early (`sitetags schema --json | head`) closes the pipe: that is no error of ours.
process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});
// A build with nothing changed since the last one prints its stamped result without loading the generator (generator/cli/replay.ts).
const { replayBuild } = await import(new URL("../build/generator/cli/replay.js", import.meta.url).href);
const replayed = await replayBuild(process.argv.slice(2), undefined, true).catch(() => undefined);
// A build that compiles the runtime runs in a child process with glibc's malloc trim threshold held at its default (generator/cli/child.ts: peak memory).
const inChild =
  replayed === undefined
    ? await import(new URL("../build/generator/cli/child.js", import.meta.url).href)
        .then(({ buildInChild }) => buildInChild(process.argv.slice(2)))
        .catch(() => undefined)
    : undefined;
const { main } = inChild !== undefined ? { main: async () => inChild } : replayed === undefined ? await import(entry.href) : { main: async () => replayed };
// Exit explicitly (a failed TypeScript compile can leave the compiler's file
// watchers open), but only once stdout and stderr are flushed: a pipe whose
// reader is slower than us (`sitetags build --json | jq`) takes 64 KB at a
// time, and exiting earlier would cut the JSON short.
const code = await main(process.argv.slice(2), undefined, true);
const flushed = (stream) => new Promise((resolve) => (stream.writableLength === 0 ? resolve() : stream.write("", resolve)));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
