/**
 * Sessions: everything the preview saw from loading a page until the next
 * load, exportable as one JSON file for a bug report, and comparable: the
 * diff of two sessions (the same page with two bundles, or in two
 * environments) lists what differs in beacons, rules, tags, log, cookies
 * and the data layer, leaving out what always differs (times, request ids,
 * host names in URLs).
 */
import { beaconTitle, eventTypeLabel, groupBeacons } from "./beacons";
import { normalizeConfig, type PreviewConfig } from "./bundle-config";
import { cookieWrites } from "./cookies";
import { computedState, pushesOf } from "./data-layer";
import { isObject, jsonDiff, stableStringify, type Obj } from "./json";
import type { Entry } from "./protocol";
import { groupRuleFirings } from "./rules";
import type { PreviewState } from "./state";
import { computeTags } from "./tags";
import { settleFirings } from "./verdicts";
import type { ManifestEntry } from "../../../generator/index.js";

export const SESSION_FORMAT = "sitetags-preview-session/1";

/** The manifest entry of the bundle under preview (dist/manifest.json), and which dist it came from. */
export interface BundleInfo extends ManifestEntry {
  key: string;
  dist: string;
}

export interface SessionMeta {
  label: string;
  startedAt: string;
  exportedAt?: string;
  /** The preview link that reproduces the case. */
  previewUrl: string;
  pageUrl: string;
  host: string;
  bundle?: BundleInfo;
  userAgent?: string;
}

export interface Session {
  format: typeof SESSION_FORMAT;
  meta: SessionMeta;
  state: PreviewState;
  /** The bundle's inlined config (rules, hosts, consent groups), so a session file explains itself. */
  config?: Obj;
  entries: Entry[];
  /** For people reading the file; recomputed from entries on import. */
  summary?: SessionSummary;
}

export function makeSession(meta: SessionMeta, state: PreviewState, entries: readonly Entry[], config?: PreviewConfig): Session {
  const session: Session = { format: SESSION_FORMAT, meta, state, config: config?.raw, entries: [...entries] };
  return session;
}

export function exportSession(session: Session, now = new Date()): string {
  const out: Session = { ...session, meta: { ...session.meta, exportedAt: now.toISOString() }, summary: summarize(session) };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Reads an exported session; throws a readable error for anything else. */
export function parseSession(text: string): Session {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON: ${(e as Error).message}`, { cause: e });
  }
  if (!isObject(value) || value.format !== SESSION_FORMAT) throw new Error(`not a preview session (expected "format": "${SESSION_FORMAT}")`);
  if (!Array.isArray(value.entries) || !isObject(value.meta) || !isObject(value.state)) throw new Error("a session needs meta, state and entries");
  return value as unknown as Session;
}

export interface SessionSummary {
  bundle?: { site: string; env: string; file: string; bytes: number; gzipBytes: number; modules: string[] };
  boot?: { version?: string; env?: string; bundleEnv?: string };
  pages: string[];
  beacons: Array<{
    key: string;
    page: number;
    unload: boolean;
    title: string;
    eventType: string;
    name?: string;
    linkType?: string;
    variables: Record<string, string>;
    reportSuites: string[];
    configId?: string;
    status: string;
    attempts: number;
  }>;
  rules: Array<{ key: string; rule: string; event: string; state: string; conditions: string[]; actions: string[] }>;
  tags: Array<{ key: string; tag: string; kind: string; state: string; reason?: string }>;
  log: Array<{ level: string; message: string; code?: string }>;
  cookies: Array<{ name: string; by: string; attributes: string; deletion: boolean }>;
  dataLayer: Obj;
  errors: string[];
  csp: string[];
}

/** Numbers repeated keys (#2, #3…) so that lists of similar things line up between sessions. */
function numbered<T>(items: T[], key: (item: T) => string): Array<T & { key: string }> {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const base = key(item);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { ...item, key: n > 1 ? `${base} #${n}` : base };
  });
}

export function summarize(session: Session): SessionSummary {
  const config = session.config ? normalizeConfig(session.config) : undefined;
  const entries = session.entries;
  const raw = groupRuleFirings(entries, config?.rules);
  const beaconGroups = groupBeacons(entries);
  const tagRows = computeTags(entries, raw, config);
  const firings = settleFirings(raw, entries, beaconGroups, tagRows, config);
  const boot = entries.find((e) => e.kind === "monitor" && e.event.type === "boot");
  const b = session.meta.bundle;
  return {
    bundle: b && { site: b.site, env: b.env, file: b.file, bytes: b.bytes, gzipBytes: b.gzipBytes, modules: b.modules },
    boot:
      boot && boot.kind === "monitor"
        ? { version: String(boot.event.version ?? ""), env: String(boot.event.env ?? ""), bundleEnv: String(boot.event.bundleEnv ?? "") }
        : undefined,
    pages: entries.filter((e) => e.kind === "page").map((e) => (e.kind === "page" ? pathOf(e.href) : "")),
    beacons: numbered(
      beaconGroups.map((g) => ({
        page: g.page,
        unload: g.unload,
        title: beaconTitle(g.decoded),
        eventType: eventTypeLabel(g.decoded.eventType, g.decoded.action),
        name: g.decoded.interaction?.name ?? g.decoded.pageName,
        linkType: g.decoded.interaction?.type,
        variables: g.decoded.variables,
        reportSuites: g.decoded.reportSuites,
        configId: g.decoded.configId,
        status: g.status,
        attempts: g.attempts.length,
      })),
      (x) => x.title,
    ),
    rules: numbered(
      firings.map((f) => ({
        rule: f.rule,
        event: f.event,
        state: f.state,
        conditions: f.conditions.map((c) => `${c.summary}: ${c.result}`),
        actions: f.actions.map((a) => `${a.type}: ${a.outcome}`),
      })),
      (x) => `${x.rule} on ${x.event}`,
    ),
    tags: numbered(
      tagRows.map((t) => ({ tag: t.tag, kind: t.kind, state: t.state, reason: t.reason })),
      (x) => `${x.kind} ${x.tag}`,
    ),
    log: entries.flatMap((e) =>
      e.kind === "monitor" && e.event.type === "log"
        ? [{ level: String(e.event.level), message: String(e.event.message), code: typeof e.event.code === "string" ? e.event.code : undefined }]
        : [],
    ),
    cookies: cookieWrites(entries)
      .filter((c) => c.by === "page")
      .map((c) => ({
        name: c.name,
        by: c.by,
        attributes: Object.entries(c.attributes)
          .filter(([k]) => k !== "expires")
          .map(([k, v]) => (v ? `${k}=${v}` : k))
          .sort()
          .join("; "),
        deletion: c.deletion,
      })),
    dataLayer: computedState(pushesOf(entries)),
    errors: entries.flatMap((e) => (e.kind === "error" ? [e.message] : [])),
    csp: entries.flatMap((e) => (e.kind === "csp" ? [`${e.directive} ${e.blockedURI}`] : [])),
  };
}

function pathOf(href: string): string {
  try {
    const u = new URL(href);
    return u.pathname + u.search;
  } catch {
    return href;
  }
}

export interface DiffRow {
  section: "setup" | "bundle" | "boot" | "pages" | "beacons" | "rules" | "tags" | "log" | "cookies" | "data layer" | "errors" | "csp";
  key: string;
  change: "only in A" | "only in B" | "changed";
  /** For "changed": the field that differs. */
  field?: string;
  a?: string;
  b?: string;
}

const text = (v: unknown) => (v === undefined ? undefined : typeof v === "string" ? v : stableStringify(v));

function diffKeyed<T extends { key: string }>(section: DiffRow["section"], a: T[], b: T[], omit: string[] = []): DiffRow[] {
  const rows: DiffRow[] = [];
  const strip = (x: T) => Object.fromEntries(Object.entries(x).filter(([k]) => k !== "key" && !omit.includes(k)));
  const mapB = new Map(b.map((x) => [x.key, x]));
  const mapA = new Map(a.map((x) => [x.key, x]));
  for (const x of a) {
    const y = mapB.get(x.key);
    if (!y) rows.push({ section, key: x.key, change: "only in A", a: text(strip(x)) });
    else for (const d of jsonDiff(strip(x), strip(y))) rows.push({ section, key: x.key, change: "changed", field: d.path, a: text(d.a), b: text(d.b) });
  }
  for (const y of b) if (!mapA.has(y.key)) rows.push({ section, key: y.key, change: "only in B", b: text(strip(y)) });
  return rows;
}

/** Counts each distinct line, then compares counts. */
function diffMultiset(section: DiffRow["section"], a: string[], b: string[]): DiffRow[] {
  const count = (list: string[]) => list.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
  const ca = count(a);
  const cb = count(b);
  const rows: DiffRow[] = [];
  for (const key of [...new Set([...ca.keys(), ...cb.keys()])]) {
    const na = ca.get(key) ?? 0;
    const nb = cb.get(key) ?? 0;
    if (na === nb) continue;
    rows.push({
      section,
      key,
      change: na === 0 ? "only in B" : nb === 0 ? "only in A" : "changed",
      field: na && nb ? "count" : undefined,
      a: na ? String(na) : undefined,
      b: nb ? String(nb) : undefined,
    });
  }
  return rows;
}

/** The page's setup as QA chose it (site, env, consent, visitor, edge…; not the open tab) and the bundle's sampling. */
export function setupOf(session: Session): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(session.state)) {
    if (k === "tab" || k === "internal") continue;
    out[k] = Array.isArray(v) ? v.join(", ") : String(v);
  }
  const sampling = session.config?.sampling;
  if (sampling !== undefined) out.sampling = typeof sampling === "number" ? `${sampling}%` : stableStringify(sampling);
  return out;
}

function diffSetup(a: Session, b: Session): DiffRow[] {
  const sa = setupOf(a);
  const sb = setupOf(b);
  const rows: DiffRow[] = [];
  for (const key of [...new Set([...Object.keys(sa), ...Object.keys(sb)])])
    if (sa[key] !== sb[key])
      rows.push({
        section: "setup",
        key,
        change: sa[key] === undefined ? "only in B" : sb[key] === undefined ? "only in A" : "changed",
        a: sa[key],
        b: sb[key],
      });
  return rows;
}

/** What differs between two sessions, section by section. */
export function diffSessions(a: Session, b: Session): DiffRow[] {
  const sa = summarize(a);
  const sb = summarize(b);
  const rows: DiffRow[] = [...diffSetup(a, b)];
  for (const d of jsonDiff(sa.bundle ?? {}, sb.bundle ?? {})) rows.push({ section: "bundle", key: d.path, change: "changed", a: text(d.a), b: text(d.b) });
  for (const d of jsonDiff(sa.boot ?? {}, sb.boot ?? {})) rows.push({ section: "boot", key: d.path, change: "changed", a: text(d.a), b: text(d.b) });
  rows.push(...diffMultiset("pages", sa.pages, sb.pages));
  rows.push(...diffKeyed("beacons", sa.beacons, sb.beacons, ["title"]));
  rows.push(...diffKeyed("rules", sa.rules, sb.rules));
  rows.push(...diffKeyed("tags", sa.tags, sb.tags));
  rows.push(
    ...diffMultiset(
      "log",
      sa.log.map((l) => `${l.level}: ${l.message}${l.code ? ` (${l.code})` : ""}`),
      sb.log.map((l) => `${l.level}: ${l.message}${l.code ? ` (${l.code})` : ""}`),
    ),
  );
  rows.push(
    ...diffMultiset(
      "cookies",
      sa.cookies.map((c) => `${c.name}${c.deletion ? " (deleted)" : ""}; ${c.attributes}`),
      sb.cookies.map((c) => `${c.name}${c.deletion ? " (deleted)" : ""}; ${c.attributes}`),
    ),
  );
  for (const d of jsonDiff(sa.dataLayer, sb.dataLayer))
    rows.push({
      section: "data layer",
      key: d.path,
      change: d.a === undefined ? "only in B" : d.b === undefined ? "only in A" : "changed",
      a: text(d.a),
      b: text(d.b),
    });
  rows.push(...diffMultiset("errors", sa.errors, sb.errors));
  rows.push(...diffMultiset("csp", sa.csp, sb.csp));
  return rows;
}
