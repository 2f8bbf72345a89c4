import { describe, expect, it } from "vitest";
import { createLoadScript, findNonce } from "../../../../runtime-modules/core/load-script";
import { fakePage, flush } from "../helpers/fake-page";

describe("findNonce", () => {
  it("takes the nonce property of the bundle's own script", () => {
    const page = fakePage({ currentScript: { nonce: "own123" }, scripts: [{ nonce: "other", attributes: { nonce: "" } }] });
    expect(findNonce(page.document as never)).toBe("own123");
  });
  it("else the first script[nonce] whose nonce property is set (the attribute is hidden)", () => {
    const page = fakePage({
      currentScript: { nonce: "" },
      scripts: [
        { nonce: "", attributes: { nonce: "" } },
        { nonce: "page456", attributes: { nonce: "" } },
      ],
    });
    expect(findNonce(page.document as never)).toBe("page456");
  });
  it("none when no script carries one", () => {
    expect(findNonce(fakePage().document as never)).toBeUndefined();
  });
});

describe("createLoadScript", () => {
  it("inserts <script async src> with id, attributes and the nonce into the head", () => {
    const page = fakePage();
    const load = createLoadScript(page.document as never, "n0nce");
    void load("https://chat.vendor.example/w.js", { id: "sitetags-chat-widget", attributes: { "data-deployment-id": "d1" } });
    const [script] = page.scripts();
    expect(script.src).toBe("https://chat.vendor.example/w.js");
    expect(script.async).toBe(true);
    expect(script.id).toBe("sitetags-chat-widget");
    expect(script.getAttribute("nonce")).toBe("n0nce");
    expect(script.getAttribute("data-deployment-id")).toBe("d1");
  });
  it("resolves on load", async () => {
    const page = fakePage();
    let done = false;
    createLoadScript(page.document as never)("https://a.example/x.js").then(() => (done = true));
    await flush();
    expect(done).toBe(false);
    page.scripts()[0].onload!();
    await flush();
    expect(done).toBe(true);
    expect(page.scripts()[0].getAttribute("nonce")).toBeNull();
  });
  it('rejects on error with "script embedding failed" and removes the element', async () => {
    const page = fakePage();
    const promise = createLoadScript(page.document as never)("https://a.example/x.js", { id: "x" });
    const script = page.scripts()[0];
    script.onerror!();
    await expect(promise).rejects.toThrow("script embedding failed: https://a.example/x.js");
    expect(script.removed).toBe(true);
  });
  it("loads one src once; a script already in the page with the id is not inserted again", async () => {
    const page = fakePage({ scripts: [{ id: "sitetags-survey" }] });
    const load = createLoadScript(page.document as never);
    const first = load("https://a.example/x.js");
    expect(load("https://a.example/x.js")).toBe(first);
    expect(page.scripts()).toHaveLength(1);
    await expect(load("https://b.example/s.js", { id: "sitetags-survey" })).resolves.toBeUndefined();
    expect(page.scripts()).toHaveLength(1);
  });
  it("after a failure the same src may be tried again", async () => {
    const page = fakePage();
    const load = createLoadScript(page.document as never);
    const first = load("https://a.example/x.js");
    page.scripts()[0].onerror!();
    await expect(first).rejects.toThrow();
    void load("https://a.example/x.js");
    expect(page.scripts()).toHaveLength(1);
    expect(page.scripts()[0].removed).toBe(false);
  });
});
