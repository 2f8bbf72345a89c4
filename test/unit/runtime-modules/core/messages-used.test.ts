/**
 * Issue 18, "Error catalogue": every message of runtime-modules/core/messages.ts
 * is logged somewhere, by runtime code (a module that names the constant) or by
 * a rule's `log` action in the catalogue (sites/*.yaml, the message's text).
 * The catalogue entries nothing can log are not constants (docs/messages.md says
 * why). Nothing waits any more: issue 20's last one, the popup's "need a
 * valid DOM selector", is logged by the chat-flow popup.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import * as messages from "../../../../runtime-modules/core/messages";

const ROOT = new URL("../../../../", import.meta.url).pathname;

function files(dir: string, ext: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => join(e.parentPath, e.name));
}

/** The runtime's sources, but the messages file itself. */
const runtime = files("runtime-modules", ".ts")
  .filter((f) => !f.endsWith("core/messages.ts"))
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");

/** Every `log` action's message in the catalogue (org, sites, their environment blocks). */
function logMessages(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => logMessages(n, out));
  else if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (o.type === "log" && typeof o.message === "string") out.add(o.message);
    Object.values(o).forEach((n) => logMessages(n, out));
  }
  return out;
}
const yamlLogged = new Set<string>();
for (const f of files("sites", ".yaml")) logMessages(parse(readFileSync(f, "utf8")), yamlLogged);

const page = readFileSync(join(ROOT, "docs/messages.md"), "utf8");

const usedInRuntime = (name: string) => new RegExp(`\\b${name}\\b`).test(runtime);
const usedInYaml = (value: unknown) => typeof value === "string" && yamlLogged.has(value);

describe("the error catalogue: every message constant is logged", () => {
  it("each message of core/messages.ts is named by runtime code or said by a catalogue log action (docs/messages.md lists the rest)", () => {
    const unused = Object.entries(messages)
      .filter(([name, value]) => !usedInRuntime(name) && !usedInYaml(value))
      .map(([name]) => name);
    expect(unused).toEqual([]);
  });
  it("the voucher messages of spec section 8 are logged by testday's rules", () => {
    for (const m of [messages.NO_PAYLOAD_DATA, messages.VOUCHERS_ORDER_ID_MISSING, messages.VOUCHER_ACTION_NOT_RECOGNIZED]) expect(yamlLogged, m).toContain(m);
  });
  it("no message waits for issue 20 any more: docs/messages.md has no waiting table, and the popup names NEED_VALID_DOM_SELECTOR", () => {
    expect(page).not.toContain("waiting:start");
    expect(usedInRuntime("NEED_VALID_DOM_SELECTOR")).toBe(true);
  });
  it("a log action may only say a runtime message (the schema refuses any other text)", () => {
    const texts = new Set(Object.values(messages).filter((v) => typeof v === "string"));
    for (const m of yamlLogged) expect(texts, m).toContain(m);
  });
});
