import { describe, expect, it } from "vitest";
import { inlineConfig } from "../../../generator/bundle/build";
import { actionConsent, extractConfig, pageHost } from "../../../preview/src/lib/bundle-config";

const raw = {
  v: 1,
  site: { code: "satreg", name: "SAT {Registration}", appId: "33", spa: true, internal: false },
  env: "uat",
  hosts: { prod: ["satreg.kiwi.example"], uat: ["satreg-uat.kiwi.example"] },
  apexDomain: "kiwi.example",
  dataLayerName: "kiwiDataLayer",
  consent: { groups: { marketing: "C0099" } },
  rules: [
    {
      id: "r",
      name: 'quote " and </script> and }',
      events: [{ type: "libraryLoaded" }],
      conditions: [],
      actions: [{ type: "pixel", src: "https://p.example/%id%", consent: "marketing" }],
    },
  ],
  modules: { chat: { scriptSrc: "https://chat.example/x.js" } },
  line: "a\u2028b",
};

describe("extractConfig", () => {
  it("reads the config exactly as the compiler inlines it (braces and quotes in strings, escapes)", () => {
    const code = `!function(){var a={"v":2};function b(c){return c}b(${inlineConfig(raw)},{x:1});var d="{\\"v\\":1}"}();`;
    const config = extractConfig(code)!;
    expect(config.raw).toEqual(raw);
    expect(config.site).toEqual({ code: "satreg", name: "SAT {Registration}", appId: "33", spa: true, internal: false });
    expect(config.rules[0].name).toBe('quote " and </script> and }');
    expect(config.consent.groups).toMatchObject({ marketing: "C0099", performance: "C0002", required: "C" });
    expect(config.identity.cookies).toMatchObject({ signInSession: "kiwi_session", signInToken: "kiwi_token" });
    expect(pageHost(config)).toBe("satreg-uat.kiwi.example");
    expect(actionConsent(config.rules[0].actions[0])).toBe("marketing");
    expect(actionConsent({ type: "sendEvent" })).toBe("performance");
  });

  it("is undefined for code without a config, and guesses a host from the naming pattern when the table has none", () => {
    expect(extractConfig("console.log({v:1})")).toBeUndefined();
    const config = extractConfig(inlineConfig({ v: 1, site: { code: "new" }, env: "qa", hosts: {} }))!;
    expect(pageHost(config)).toBe("new-qa.kiwi.example");
    expect(pageHost({ ...config, env: "prod" })).toBe("new.kiwi.example");
  });
});
