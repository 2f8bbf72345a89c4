/**
 * The mock edge (shared/edge-protocol.md "Responses"): answers each
 * interact/collect request like the Edge Network, with the requestId, an
 * ECID (`identity:result`) and the cookies the edge would store
 * (`state:store`), or misbehaves on purpose for QA:
 *
 *   ok     200 with handles
 *   slow   the same after 3 s
 *   error  500 with an error body
 *   retry  503 + Retry-After: 1 on an event's first attempt, then ok
 *   down   the connection is dropped (a network failure)
 */
import { randomInt } from "node:crypto";

export const EDGE_MODES = ["ok", "slow", "error", "retry", "down"] as const;
export type EdgeMode = (typeof EDGE_MODES)[number];

export interface EdgeAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string;
  delayMs?: number;
  /** Drop the connection instead of answering. */
  drop?: boolean;
}

/** A 38-digit ECID, fixed per preview run. */
export const RUN_ECID = Array.from({ length: 38 }, (_, i) => (i === 0 ? 1 + randomInt(9) : randomInt(10))).join("");

function base64url(text: string): string {
  return Buffer.from(text, "latin1").toString("base64url");
}

export function edgeAnswer(mode: EdgeMode, request: { query: Record<string, string>; attempt: number }, orgId: string | undefined): EdgeAnswer {
  const requestId = request.query.requestId ?? "";
  const json = { "content-type": "application/json;charset=utf-8" };
  if (mode === "down") return { status: 0, headers: {}, drop: true };
  if (mode === "error")
    return {
      status: 500,
      headers: json,
      body: JSON.stringify({
        type: "https://ns.adobe.com/aep/errors/EXEG-0201-500",
        status: 500,
        title: "Unexpected server error (mock edge, mode error)",
        requestId,
      }),
    };
  if (mode === "retry" && request.attempt === 1)
    return {
      status: 503,
      headers: { ...json, "retry-after": "1" },
      body: JSON.stringify({ status: 503, title: "Service unavailable (mock edge, mode retry: first attempt)", requestId }),
    };
  const org = (orgId ?? "ORG@AdobeOrg").replace("@", "_");
  const body = {
    requestId,
    handle: [
      { payload: [{ id: RUN_ECID, namespace: { code: "ECID" } }], type: "identity:result" },
      {
        payload: [
          { key: `kndctr_${org}_identity`, value: base64url(String.fromCharCode(0x0a, RUN_ECID.length) + RUN_ECID), maxAge: 34128000 },
          { key: `kndctr_${org}_cluster`, value: "va6", maxAge: 1800 },
        ],
        type: "state:store",
      },
    ],
  };
  return { status: 200, headers: json, body: JSON.stringify(body), delayMs: mode === "slow" ? 3000 : undefined };
}
