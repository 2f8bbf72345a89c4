/**
 * The fault matrix, the credential service (issue #22, the page;
 * docs/runtime.md "Faults"), with the setup the identity tests use (a
 * temporary catalogue whose qa environment names a credential service on the
 * mock edge host: the shipped catalogue configures none). A signed-in
 * visitor; the service hangs, answers 500, or answers a malformed token. The
 * record is the lab's library-loaded event, counted at the edge by requestId.
 */
import { beforeAll, expect, it } from "vitest";
import { buildBundle, CONSENT, signInCookies, tempCatalogue, useBrowserHarness, type Bundle, type EdgeResponse } from "./harness/index.js";

const h = useBrowserHarness();
const SITE = `code: idlab
name: Identity lab
appId: "880"
hosts:
  qa: [idlab-qa.kiwi.example]
envs:
  qa:
    identity:
      credentials:
        serviceUrl: https://edge.kiwi.example/creds
dataElements:
  login: { provided: loginState }
disabledRules: [page-view]
rules:
  - id: who
    name: Who is visiting
    events: [{ type: libraryLoaded }]
    actions: [{ type: sendEvent, name: "who:%login%", eventType: lab.identity }]
`;

let lab: Bundle;
beforeAll(async () => {
  lab = await buildBundle("idlab", "qa", { sitesDir: tempCatalogue({ "idlab.yaml": SITE }) });
}, 240_000);

const STUDENT = signInCookies({ sessionId: "S-1", accountId: "A-1", profileType: "ECL", gradYear: 2030 }, { typ: "Bearer", namespace: "st", hashedId: "h-1" });
const creds = () => h.web.find((r) => r.host === "edge.kiwi.example" && r.path.startsWith("/creds/") && r.method === "GET");
const records = () =>
  h.web
    .find((r) => r.host === "edge.kiwi.example" && r.method === "POST" && /\/v1\/(interact|collect)$/.test(r.path))
    .filter((r) => r.body.includes("lab.identity"));

const cases: Array<[string, EdgeResponse, number, string | undefined]> = [
  ["hangs: the startup goes on after at most 4500 ms (startupWait), anonymous", { status: 0, fault: "hang" }, 1, undefined],
  ["answers 500: 3 attempts 100 ms apart, logged, anonymous", { status: 500, body: "down" }, 3, "credential fetch failed; continuing anonymous"],
  [
    "answers a malformed token (not JSON): 3 attempts, logged, anonymous",
    { status: 200, body: "<html>oops" },
    3,
    "credential fetch failed; continuing anonymous",
  ],
  [
    "answers a malformed token (cbJwtToken not a string): 3 attempts, logged, anonymous",
    { status: 200, body: { cbJwtToken: 42 } },
    3,
    "credential fetch failed; continuing anonymous",
  ],
];
for (const [name, fault, attempts, message] of cases) {
  it(`the credential service ${name}; the record is delivered once, nothing thrown`, async () => {
    h.web.edge.handler = (r) => (r.path.startsWith("/creds/") ? fault : { status: 200, body: { requestId: r.query.requestId, handle: [] } });
    const tab = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab, cookies: STUDENT }), {
      consentGroups: CONSENT.performance,
    });
    await expect.poll(() => records().length, { timeout: 9000 }).toBe(1);
    expect(creds()).toHaveLength(attempts);
    expect((records()[0].json as any).events[0].xdm.web.webInteraction.name).toBe("who:Logged In");
    if (message) expect((await tab.logEntries()).map((e) => e.message)).toContain(message);
    expect(tab.pageErrors).toEqual([]);
  });
}
