/** How a test names the requests it waits for or looks up (web.find, web.waitForRequest). */
import type { RecordedRequest, RequestMatch } from "./web-types.js";

export function toPredicate(match: RequestMatch): (r: RecordedRequest) => boolean {
  if (typeof match === "function") return match;
  return (r) =>
    (match.host === undefined || r.host === match.host) &&
    (match.method === undefined || r.method === match.method.toUpperCase()) &&
    (match.kind === undefined || r.kind === match.kind) &&
    (match.path === undefined || (typeof match.path === "string" ? r.path === match.path : match.path.test(r.path)));
}

export function describeMatch(match: RequestMatch): string {
  if (typeof match === "function") return match.name || "the predicate";
  return JSON.stringify(match, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v));
}
