/**
 * What the edge and edge-profile cases of npm run bench share, so that the
 * timed loads and the profiled ones are the same page, visitor and edge:
 * Chromium's flags, the returning visitor's cookies, the first visit's page
 * and the mock edge's answer.
 */

/** The developers' guide's Chromium flags, which every bench browser starts with. */
export const GUIDE_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

/** The guide's flags, the bench's certificate accepted, every fictional host mapped to the bench's server. */
export const benchChromiumArgs = (port) => [...GUIDE_FLAGS, "--ignore-certificate-errors", `--host-resolver-rules=MAP *.example 127.0.0.1:${port}`];

/** A returning visitor who consented: identity and consent cookies, so no set-consent and no identity wait. */
export const visitorCookies = (orgId) => {
  const org = orgId.replace("@", "_");
  return [
    {
      name: `kndctr_${org}_identity`,
      value: "CiYxMjM0NTY3ODkwMTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3OA",
      domain: ".kiwi.example",
      path: "/",
      secure: true,
      sameSite: "None",
    },
    { name: `kndctr_${org}_consent`, value: "general=in", domain: ".kiwi.example", path: "/", secure: true, sameSite: "None" },
  ];
};

/** A first visit with consent given: the banner's active groups on the page (as its stub sets them), no cookies. */
export const FIRST_VISIT_PAGE =
  '<!doctype html><title>bench</title><script>window.OnetrustActiveGroups=",C0001,C0002,C0003,C0004,";</script><script src="/ours.js"></script>';

/**
 * Answers a request to the mock edge: a set-consent answer stores the consent cookie, as the edge does (state:store; alloy
 * waits for that cookie before its queued page view), anything else an empty handle.
 */
export function answerEdge(req, res, path, orgId) {
  const cors = { "access-control-allow-origin": req.headers.origin || "*", "access-control-allow-credentials": "true" };
  if (req.method === "OPTIONS") return res.writeHead(204, { ...cors, "access-control-allow-headers": "content-type" }).end();
  const answer = path.includes("/privacy/set-consent")
    ? JSON.stringify({
        handle: [{ type: "state:store", payload: [{ key: `kndctr_${orgId.replace("@", "_")}_consent`, value: "general=in", maxAge: 15552000 }] }],
      })
    : '{"handle":[]}';
  return req.on("data", () => {}).on("end", () => res.writeHead(200, { ...cors, "content-type": "application/json" }).end(answer));
}
