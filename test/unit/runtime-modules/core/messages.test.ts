import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as messages from "../../../../runtime-modules/core/messages";

/** docs/messages.md: the project's copy of the spec's section 8 catalogue, and the table of runtime-only messages. */
const page = readFileSync(new URL("../../../../docs/messages.md", import.meta.url), "utf8");
const catalogue = page.slice(page.indexOf("<!-- catalogue:start -->"), page.indexOf("<!-- catalogue:end -->"));
const runtimeTable = page.slice(page.indexOf("## Runtime messages"));
/** Runtime messages the catalogue has no wording for: the constants named in docs/messages.md's table. */
const RUNTIME_ONLY = new Set([...runtimeTable.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]));

describe("messages", () => {
  it("section 8: 'not authorized for this domain' (code dynamic_host_not_allowed)", () => {
    expect(messages.NOT_AUTHORIZED).toBe("not authorized for this domain");
    expect(messages.DYNAMIC_HOST_NOT_ALLOWED).toBe("dynamic_host_not_allowed");
  });
  it("section 8 score and SDK wording", () => {
    expect(messages.LATEST_SCORE_NOT_AVAILABLE).toBe("Latest score not available");
    expect(messages.CONSENT_PENDING).toBe("Consent is pending.");
    expect(messages.SCRIPT_EMBEDDING_FAILED).toBe("script embedding failed");
    expect(messages.SELECTOR_NOT_VALID).toBe("selector not valid");
  });
  it("docs/messages.md holds the catalogue and names each runtime-only message once, every one a constant", () => {
    expect(catalogue).toContain("Popup and voucher:");
    expect(catalogue).toContain("'not authorized for this domain' (code dynamic_host_not_allowed)");
    const named = [...runtimeTable.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(new Set(named).size).toBe(named.length);
    for (const name of named) expect(typeof (messages as Record<string, unknown>)[name], name).toBe("string");
  });
  it("every catalogue constant appears word for word in the spec's section 8", () => {
    for (const [name, value] of Object.entries(messages)) {
      if (typeof value !== "string" || RUNTIME_ONLY.has(name)) continue;
      expect(catalogue, name).toContain(value);
    }
  });
  it("templated messages keep the spec's words", () => {
    expect(messages.timedOutAfter(10)).toBe("timed out after 10 attempts");
    expect(messages.serverResponded(503, "{}")).toContain("The server responded with a status code 503 and response body");
  });
  it("each message is its own export: strings and functions only, no object holding them", () => {
    for (const value of Object.values(messages)) expect(["string", "function"]).toContain(typeof value);
  });
});
