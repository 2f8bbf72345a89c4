import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as messages from "../../../../runtime-modules/core/messages";

const spec = readFileSync(new URL("../../../../../shared/spec/product-spec.txt", import.meta.url), "utf8");
const catalogue = spec.slice(spec.indexOf("## 8. Error catalogue"), spec.indexOf("## 9."));

/** Runtime messages the catalogue has no wording for. */
const RUNTIME_ONLY = new Set([
  "ALREADY_LOADED",
  "VIDEO_DATA_INVALID",
  "BOOT_FAILED",
  "MODULE_FAILED",
  "MODULE_CONFIG_MISSING",
  "COMMAND_FAILED",
  "TAG_DISABLED",
  "TAG_LOADED",
  "WIDGET_NOT_LOADED",
  "CONSENT_HOOK_FAILED",
  "BEFORE_SEND_HOOK_FAILED",
  "STEP_TIMEOUT",
  "STEP_WAITS_FOR_CONSENT",
  "CONSENT_BANNER_CONFIG_FAILED",
  "CONSENT_BANNER_TIMEOUT",
  "CREDENTIAL_FETCH_FAILED",
  "RULE_CONDITION_FAILED",
  "RULE_ACTION_FAILED",
  "DATA_ELEMENT_CIRCULAR",
  "DATA_ELEMENT_UNKNOWN",
  "DATA_ELEMENT_FAILED",
  "DATA_LAYER_INVALID_PUSH",
  "DATA_LAYER_LISTENER_FAILED",
]);

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
  it("every catalogue constant appears word for word in the spec's section 8", () => {
    for (const [name, value] of Object.entries(messages)) {
      if (typeof value !== "string" || RUNTIME_ONLY.has(name)) continue;
      expect(catalogue, name).toContain(value);
    }
  });
  it("templated messages keep the spec's words", () => {
    expect(messages.timedOutAfter(10)).toBe("timed out after 10 attempts");
    expect(messages.serverResponded(503, "{}")).toContain("The server responded with a status code 503 and response body");
    expect(messages.expectedButGot("a string", "5")).toBe("Expected a string, but got 5");
  });
  it("each message is its own export: strings and functions only, no object holding them", () => {
    for (const value of Object.values(messages)) expect(["string", "function"]).toContain(typeof value);
  });
});
