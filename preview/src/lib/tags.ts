/**
 * Tag decisions: every third-party tag the bundle could load on the page,
 * whether it loaded or was blocked, and why.
 *
 * Three sources, each row saying which one it rests on:
 *  - the runtime's `tag` monitor events: the consent gate's decision for
 *    modules (chat, survey, …) and for rules that load something (the tag
 *    code is the rule id): state (allowed, waiting, blocked, loading,
 *    loaded, failed, skipped), `reason` and whatever other detail it adds,
 *    shown as reported, so a new reason appears without a preview change;
 *  - the requests that reached the tag's host (the server's records): a
 *    pixel or script the gate allowed is "loaded" once its request is
 *    answered;
 *  - for bundles whose runtime does not report rule tags, the rule action's
 *    outcome and the consent category it waits for (the preview's reading);
 *  - third-party requests no tag explains.
 */
import { allows } from "./consent";
import type { PreviewConfig } from "./bundle-config";
import { isObject, str, type Obj } from "./json";
import type { Entry, NetworkRecord } from "./protocol";
import type { RuleFiring } from "./rules";

export interface TagRow {
  key: string;
  tag: string;
  kind: "reported" | "rule action" | "request";
  /** The latest state; "loaded" also when the gate allowed it and its request was answered. */
  state: string;
  /** Not loaded, and not going to without a change (consent, query, config). */
  blocked: boolean;
  /** The reason code as reported (consent-category, gpc, cb-disable, …) or inferred. */
  reason?: string;
  /** The reason in words. */
  reasonText?: string;
  /** Who says so: the runtime's own report, or the preview's reading of the facts. */
  reasonSource?: "runtime" | "preview";
  category?: string;
  src?: string;
  page: number;
  rule?: string;
  /** The latest runtime event's fields beyond tag/state/reason. */
  detail: Obj;
  /** A sampled tag's decision as the runtime reported it: the host's rate and whether this visitor is in (docs/identity.md, "Sampling"). */
  sampling?: { rate: number; sampledIn: boolean };
  history: Array<{ at: number; state: string; reason?: string }>;
  requests: Array<{ url: string; status?: number; at: number }>;
}

const OWN_KEYS = new Set(["type", "t", "tag", "state", "reason"]);
const BLOCKED_STATES = new Set(["waiting", "blocked", "skipped", "failed", "not run", "timed out"]);

/** Words for the gate's reason codes (runtime-modules/consent/tag-gate.ts); unknown codes stay as they are. */
export function reasonText(reason: string | undefined, category?: string, detail?: unknown): string | undefined {
  if (!reason) return undefined;
  const d = typeof detail === "string" && detail ? detail : undefined;
  switch (reason) {
    case "consent-category":
      return `waiting for consent: ${category ?? d ?? "its category"} not granted`;
    case "consent-given":
      return `consent given${category ? ` (${category})` : ""}`;
    case "internal-site":
      return "internal site: every category allowed";
    case "cb-disable":
      return "switched off by cb-disable-{tag} in the query";
    case "synthetics":
      return "synthetic-monitoring user agent";
    case "allow-list":
      return "this host is not on the allow-list";
    case "stored-status":
      return `refused earlier in this session${d ? ` (${d})` : ""}`;
    case "exclusion-app-id":
      return `the site's app id${d ? ` ${d}` : ""} is on the ${category ?? ""} exclusion list`;
    case "exclusion-host":
      return `the host${d ? ` ${d}` : ""} is on the ${category ?? ""} exclusion list`;
    case "gpc":
      return "Global Privacy Control signal (no marketing tags)";
    case "user-name-in-url":
      return `the user's name appears in the ${d ?? "URL"}`;
    case "sampled-out":
      return "this visitor is sampled out at the host's sampling rate";
    default:
      return reason;
  }
}

/** The consent groups in force on a page at the end of the entries (setup first, then banner changes). */
export function consentOnPage(entries: readonly Entry[], page: number): { groups: string | null; gpc: boolean } {
  let groups: string | null = null;
  let gpc = false;
  for (const e of entries) {
    if (e.page !== page) continue;
    if (e.kind === "consent") groups = e.groups;
    if (e.kind === "snapshot") {
      groups = e.snapshot.consentGroups;
      gpc = e.snapshot.gpc;
    }
  }
  return { groups, gpc };
}

/** The prefix of a tag URL template before its first %token% (what every request of the tag starts with). */
export function srcPrefix(src: string): string {
  const i = src.indexOf("%");
  return i < 0 ? src : src.slice(0, i);
}

function requestMatches(r: NetworkRecord, src: string | undefined): boolean {
  if (!src) return false;
  // A path (fpid.js) is on the page's own host.
  const prefix = srcPrefix(src.startsWith("/") ? `https://${r.host}${src}` : src);
  return r.url === src || (prefix.length > 8 && r.url.startsWith(prefix));
}

const ok = (status: number | undefined) => status !== undefined && status >= 200 && status < 400;

export function computeTags(entries: readonly Entry[], firings: readonly RuleFiring[], config: PreviewConfig | undefined): TagRow[] {
  const rows: TagRow[] = [];
  const byKey = new Map<string, TagRow>();
  const thirdParty = entries.filter(
    (e): e is Extract<Entry, { kind: "network" }> => e.kind === "network" && (e.request.kind === "third-party" || e.request.kind === "asset"),
  );
  const claimed = new Set<number>();
  const claim = (row: TagRow, src: string | undefined, after = 0) => {
    for (const n of thirdParty)
      if (n.page === row.page && n.at >= after && !claimed.has(n.request.seq) && requestMatches(n.request, src)) {
        row.requests.push({ url: n.request.url, status: n.request.status, at: n.at });
        claimed.add(n.request.seq);
      }
  };
  /** Sources of a tag code: a module's scriptSrc, the loadScript/pixel actions of the rule of that id, the first-party id script. */
  const sourcesOf = (tag: string): string[] => {
    const mod = config?.modules[tag];
    const rule = config?.rules.find((r) => r.id === tag);
    const identity = isObject(config?.raw.identity) ? config.raw.identity : {};
    const fpid = isObject(identity.fpid) ? str(identity.fpid.src) : undefined;
    return [
      ...(tag === "fpid" ? [fpid ?? "/fpid.js"] : []),
      ...(isObject(mod) && typeof mod.scriptSrc === "string" ? [mod.scriptSrc] : []),
      ...(rule?.actions.filter((a) => a.type === "loadScript" || a.type === "pixel").flatMap((a) => (typeof a.src === "string" ? [a.src] : [])) ?? []),
    ];
  };

  // What the runtime reported.
  for (const e of entries) {
    if (e.kind !== "monitor" || e.event.type !== "tag") continue;
    const ev = e.event;
    const tag = String(ev.tag ?? "?");
    const key = `${e.page}:${tag}`;
    let row = byKey.get(key);
    if (!row) {
      row = { key, tag, kind: "reported", state: "?", blocked: false, page: e.page, detail: {}, history: [], requests: [] };
      if (config?.rules.some((r) => r.id === tag)) row.rule = tag;
      byKey.set(key, row);
      rows.push(row);
    }
    const state = String(ev.state ?? "?");
    row.state = state;
    const category = str(ev.category) ?? str(ev.consent);
    if (category) row.category = category;
    const reason = str(ev.reason) ?? (state === "waiting" && category ? "consent-category" : undefined);
    if (reason && state !== "loading" && state !== "loaded") {
      row.reason = reason;
      row.reasonText = reasonText(reason, category, ev.detail);
      row.reasonSource = "runtime";
    }
    if (typeof ev.src === "string") row.src = ev.src;
    for (const [k, v] of Object.entries(ev)) if (!OWN_KEYS.has(k) && v !== undefined) row.detail[k] = v;
    const sampling = ev.sampling as TagRow["sampling"] | undefined;
    if (sampling && typeof sampling.rate === "number" && typeof sampling.sampledIn === "boolean")
      row.sampling = { rate: sampling.rate, sampledIn: sampling.sampledIn };
    row.history.push({ at: e.at, state, reason });
  }
  for (const row of rows) {
    const sources = row.src ? [row.src] : sourcesOf(row.tag);
    if (!row.src && sources.length) row.src = sources.join(" ");
    for (const src of sources) claim(row, src, row.history[0]?.at ?? 0);
    const answered = row.requests.find((r) => r.status !== undefined);
    if ((row.state === "allowed" || row.state === "loading") && answered) row.state = ok(answered.status) ? "loaded" : "failed";
    row.blocked = BLOCKED_STATES.has(row.state);
  }

  // Rules that load something, where the runtime did not report the tag itself (older bundles).
  for (const f of firings) {
    if (byKey.has(`${f.page}:${f.rule}`)) continue;
    for (const a of f.actions) {
      if (a.type !== "loadScript" && a.type !== "pixel") continue;
      const src = str(a.spec?.src);
      const row: TagRow = {
        key: `${f.id}:${a.index}`,
        tag: str(a.spec?.id) ?? f.rule,
        kind: "rule action",
        state: "pending",
        blocked: false,
        category: a.consent,
        src,
        page: f.page,
        rule: f.rule,
        detail: { rule: f.rule, action: a.index, actionType: a.type, event: f.event },
        history: [{ at: f.at, state: `rule ${f.state}` }],
        requests: [],
      };
      claim(row, src, f.at - 50);
      if (a.at !== undefined) row.history.push({ at: a.at, state: `action ${a.outcome}` });
      const consentNow = consentOnPage(entries, f.page);
      const allowed = !a.consent || !config || allows(a.consent, consentNow.groups, config);
      const answered = row.requests.find((r) => r.status !== undefined);
      const set = (state: string, reason?: string, text?: string, source: TagRow["reasonSource"] = "runtime") => {
        row.state = state;
        if (reason) {
          row.reason = reason;
          row.reasonText = text ?? reasonText(reason, a.consent);
          row.reasonSource = source;
        }
      };
      if (f.state !== "fired")
        set(
          "not run",
          `rule ${f.state}`,
          f.stoppedAt !== undefined ? `rule ${f.state} at condition ${f.stoppedAt}: ${f.conditions[f.stoppedAt]?.summary ?? "?"}` : `rule ${f.state}`,
        );
      else if (a.outcome === "not run") set("not run", "stopped", "an earlier wait-before-next action stopped the rule");
      else if (answered) set(ok(answered.status) ? "loaded" : "failed");
      else if (a.outcome === "done") set("loaded");
      else if (a.outcome === "failed") set("failed", "action failed", "the action failed (see the log)");
      else if (!allowed) set("waiting", "consent-category", undefined, "preview");
      else if (a.outcome === "timed out") set("timed out", "timed out", "the action timed out");
      else set(row.requests.length ? "loading" : "pending");
      row.blocked = BLOCKED_STATES.has(row.state);
      rows.push(row);
    }
  }

  // Requests to third parties nothing above explains (the consent banner the runtime loads is named as such).
  const banner = isObject(config?.raw.consent) && isObject(config.raw.consent.banner) ? str(config.raw.consent.banner.scriptSrc) : undefined;
  for (const n of thirdParty) {
    if (claimed.has(n.request.seq)) continue;
    rows.push({
      key: `request:${n.request.seq}`,
      tag: banner && n.request.url.split("?")[0] === banner.split("?")[0] ? "consent banner" : tagName(n.request.url),
      kind: "request",
      state: n.request.status === undefined ? "requested" : ok(n.request.status) ? "loaded" : "failed",
      blocked: false,
      src: n.request.url,
      page: n.page,
      detail: { dest: n.request.dest },
      history: [{ at: n.at, state: "requested" }],
      requests: [{ url: n.request.url, status: n.request.status, at: n.at }],
    });
  }
  return rows;
}

/** A readable tag name from its URL: host and first path segment. */
export function tagName(src: string): string {
  try {
    const u = new URL(src.replace(/%[^%]*%/g, "x"));
    const first = u.pathname.split("/").filter(Boolean)[0];
    return first ? `${u.hostname}/${first}` : u.hostname;
  } catch {
    return src;
  }
}
