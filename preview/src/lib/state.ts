/**
 * The preview's whole state, kept in the app's URL so that a link
 * reproduces a case: `https://preview.kiwi.example/?site=satreg&env=uat&page=payment-confirmation&consent=pre`.
 * Only values that differ from the defaults are written.
 */
import { CATEGORIES } from "./consent";
import { PERSONAS, type Persona } from "./visitor";

export type ConsentChoice = "pre" | "all" | "none" | "custom";
export type EdgeMode = "ok" | "slow" | "error" | "retry" | "down";
export type CspMode = "strict" | "nonce-only" | "off";

export interface PreviewState {
  site: string;
  env: string;
  /** Which dist the bundle comes from ("dist", or "compare" with --compare-dist). */
  dist: string;
  /** A page template id (pages.ts). */
  page: string;
  /** A free path; overrides the template's path when set. */
  path: string;
  /** Query switches (cb-disable-chat, flow=idp-discovery, excmpid=…), each `name` or `name=value`. */
  flags: string[];
  /** Free query text appended last ("a=1&b=2"). */
  query: string;
  /** Where the visitor comes from: a page the frame passes through first ("" for a direct visit). */
  referrer: string;
  visitor: Persona;
  visit: "first" | "returning";
  consent: ConsentChoice;
  /** Opted-in categories when consent is "custom". */
  categories: string[];
  gpc: boolean;
  /** Site list filter: internal sites (full consent, no banner) or external ones. */
  internal: "any" | "yes" | "no";
  edge: EdgeMode;
  csp: CspMode;
  /** The documented per-browser debug switch. */
  debug: boolean;
  /** Inspector tab. */
  tab: string;
}

export const DEFAULT_STATE: PreviewState = {
  site: "",
  env: "",
  dist: "dist",
  page: "home",
  path: "",
  flags: [],
  query: "",
  referrer: "",
  visitor: "anonymous",
  visit: "first",
  consent: "all",
  categories: [],
  gpc: false,
  internal: "any",
  edge: "ok",
  csp: "strict",
  debug: false,
  tab: "beacons",
};

const CONSENTS: ConsentChoice[] = ["pre", "all", "none", "custom"];
const EDGES: EdgeMode[] = ["ok", "slow", "error", "retry", "down"];
const CSPS: CspMode[] = ["strict", "nonce-only", "off"];

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** Reads a state from a query string ("?site=…"); unknown or bad values fall back to the defaults. */
export function decodeState(search: string): PreviewState {
  const p = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search);
  const d = DEFAULT_STATE;
  // consent: "pre", "all", "none", or a comma list of categories (custom).
  const rawConsent = p.get("consent");
  let consent = oneOf(rawConsent, CONSENTS, d.consent);
  let categories: string[] = [];
  if (rawConsent && !CONSENTS.includes(rawConsent as ConsentChoice)) {
    categories = rawConsent.split(",").filter((c) => (CATEGORIES as readonly string[]).includes(c));
    consent = "custom";
  }
  return {
    site: p.get("site") ?? d.site,
    env: p.get("env") ?? d.env,
    dist: p.get("dist") ?? d.dist,
    page: p.get("page") ?? d.page,
    path: normalizePath(p.get("path") ?? ""),
    flags: p.getAll("flag").filter(Boolean),
    query: p.get("q") ?? d.query,
    referrer: /^https:\/\//.test(p.get("ref") ?? "") ? (p.get("ref") as string) : d.referrer,
    visitor: oneOf(p.get("visitor"), Object.keys(PERSONAS) as Persona[], d.visitor),
    visit: oneOf(p.get("visit"), ["first", "returning"] as const, d.visit),
    consent,
    categories,
    gpc: p.get("gpc") === "1",
    internal: oneOf(p.get("internal"), ["any", "yes", "no"] as const, d.internal),
    edge: oneOf(p.get("edge"), EDGES, d.edge),
    csp: oneOf(p.get("csp"), CSPS, d.csp),
    debug: p.get("debug") === "1",
    tab: p.get("tab") ?? d.tab,
  };
}

/** Writes a state as a query string (without "?"), defaults left out, in a fixed order. */
export function encodeState(state: PreviewState): string {
  const p = new URLSearchParams();
  const d = DEFAULT_STATE;
  if (state.site) p.set("site", state.site);
  if (state.env) p.set("env", state.env);
  if (state.dist !== d.dist) p.set("dist", state.dist);
  if (state.page !== d.page) p.set("page", state.page);
  if (state.path) p.set("path", state.path);
  for (const f of state.flags) p.append("flag", f);
  if (state.query) p.set("q", state.query);
  if (state.referrer) p.set("ref", state.referrer);
  if (state.visitor !== d.visitor) p.set("visitor", state.visitor);
  if (state.visit !== d.visit) p.set("visit", state.visit);
  if (state.consent === "custom") p.set("consent", state.categories.join(",") || "none");
  else if (state.consent !== d.consent) p.set("consent", state.consent);
  if (state.gpc) p.set("gpc", "1");
  if (state.internal !== d.internal) p.set("internal", state.internal);
  if (state.edge !== d.edge) p.set("edge", state.edge);
  if (state.csp !== d.csp) p.set("csp", state.csp);
  if (state.debug) p.set("debug", "1");
  if (state.tab !== d.tab) p.set("tab", state.tab);
  return p.toString();
}

export function normalizePath(path: string): string {
  const trimmed = path.trim();
  if (!trimmed) return "";
  // A full address stays one (fullAddress() reads it at Load).
  if (/^https?:\/\//i.test(trimmed)) return trimmed;
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

/** A full address typed into Free path: its host and its path with the query; undefined for a path. */
export function fullAddress(path: string): { host: string; path: string } | undefined {
  if (!/^https?:\/\//i.test(path.trim())) return undefined;
  try {
    const u = new URL(path.trim());
    return { host: u.hostname, path: `${u.pathname}${u.search}` };
  } catch {
    return undefined;
  }
}

/** The state's fields that differ between what is on screen (applied at the last Load) and the controls; the tab and the site-list filter are not page state. */
export function unappliedFields(applied: PreviewState | undefined, state: PreviewState): string[] {
  if (!applied) return [];
  const skip = new Set(["tab", "internal"]);
  return (Object.keys(state) as Array<keyof PreviewState>).filter((k) => !skip.has(k) && JSON.stringify(state[k]) !== JSON.stringify(applied[k]));
}

/** The page's query string: the template's, then the switches, then the free text (later wins for equal names). */
export function pageQuery(templateQuery: string | undefined, flags: readonly string[], free: string): string {
  const parts: string[] = [];
  const add = (text: string | undefined) => {
    for (const part of (text ?? "").replace(/^\?/, "").split("&")) if (part) parts.push(part);
  };
  add(templateQuery);
  for (const f of flags) add(f);
  add(free);
  // Later parameters of the same name replace earlier ones; bare switches (cb-disable-chat) stay bare.
  const seen = new Map<string, string>();
  for (const part of parts) seen.set(decodeURIComponent(part.split("=")[0]), part);
  const out = [...seen.values()];
  return out.length ? `?${out.join("&")}` : "";
}

/** The query parameter of the referrer hop: the page at the referrer's address that sends the frame on to the mock page. */
export const HOP_PARAM = "__sitetags_preview_hop";

/**
 * What the frame loads: the page itself for a direct visit, or the referrer's
 * address with the hop parameter, whose stand-in page navigates on to the
 * page so that document.referrer is the referrer (its origin, by the
 * browser's default policy), as after a real click.
 */
export function frameUrl(page: string, referrer: string): string {
  if (!referrer) return page;
  const u = new URL(referrer);
  u.searchParams.set(HOP_PARAM, page);
  return u.href;
}

/** Referrers offered in the controls (fictional hosts; the search engine needs its host mapped too, see docs/preview.md). */
export const REFERRERS: Array<{ url: string; label: string }> = [
  { url: "", label: "none (direct visit)" },
  { url: "https://www.practicepartner.example/sat-prep", label: "partner site (practicepartner.example)" },
  { url: "https://blog.someschool.example/college-planning", label: "another site (someschool.example)" },
  { url: "https://www.kiwi.example/", label: "the organisation's own site (www.kiwi.example)" },
  { url: "https://www.google.com/search?q=sat+registration", label: "search engine (www.google.com)" },
];

/** The mock page's address: the site's host for the environment, the path, the query. Port only when the app itself runs on one (an /etc/hosts setup). */
export function pageUrl(host: string, path: string, query: string, port = ""): string {
  return `https://${host}${port ? `:${port}` : ""}${path || "/"}${query}`;
}
