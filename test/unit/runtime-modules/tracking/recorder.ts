/** An Analytics stand-in that records every call as made (what the Edge client would receive). */
import type { Analytics } from "../../../../runtime-modules/core/types";

export interface Call {
  kind: "pageView" | "event" | "setVariables";
  args: Record<string, any>;
}

/** `status`: what a page view resolves to (the Edge client's: the edge's HTTP status once sent, undefined when not sent; a promise while it waits). */
export function recorder(status: () => unknown = () => 200) {
  const calls: Call[] = [];
  const analytics: Analytics = {
    pageView: (e) => (calls.push({ kind: "pageView", args: e }), Promise.resolve(status())),
    event: (e) => (calls.push({ kind: "event", args: e }), Promise.resolve()),
    setVariables: (v) => void calls.push({ kind: "setVariables", args: v }),
  };
  return { analytics, calls, of: (kind: Call["kind"]) => calls.filter((c) => c.kind === kind).map((c) => c.args) };
}

/** Cookies in memory, with what was written and how. */
export function memoryCookies(initial: Record<string, string> = {}) {
  const jar: Record<string, string> = { ...initial };
  const writes: Array<{ name: string; value: string; options?: { maxAgeSeconds?: number } }> = [];
  return {
    jar,
    writes,
    cookies: {
      get: (name: string) => jar[name],
      set(name: string, value: string, options?: { maxAgeSeconds?: number }) {
        writes.push({ name, value, options });
        jar[name] = value;
      },
      remove(name: string) {
        delete jar[name];
      },
    },
  };
}
