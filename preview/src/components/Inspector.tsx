import { useEffect, useMemo, useState, type KeyboardEvent } from "react";
import type { CatalogueBundle } from "../api";
import { pushTemplates } from "../event-docs";
import { groupBeacons } from "../lib/beacons";
import { bundleFileLoads } from "../lib/bundle-files";
import type { PreviewConfig, RuleSpec } from "../lib/bundle-config";
import { allows, consentView } from "../lib/consent";
import { cookieWrites, latestJar } from "../lib/cookies";
import { computedState, pushesOf } from "../lib/data-layer";
import { logRows } from "../lib/log";
import type { Entry, PageSnapshot } from "../lib/protocol";
import { groupRuleFirings } from "../lib/rules";
import { makeSession, parseSession, type Session } from "../lib/session";
import type { PreviewState } from "../lib/state";
import { computeTags, consentOnPage } from "../lib/tags";
import { settleFirings } from "../lib/verdicts";
import { ruleVerdicts } from "../lib/why-not";
import { buildTimeline } from "../lib/timeline";
import { identityView } from "../lib/visitor";
import type { LoadedPage } from "../useSession";
import { BeaconsPanel } from "./panels/Beacons";
import { BundlePanel } from "./panels/Bundle";
import { ConsentPanel } from "./panels/Consent";
import { CookiesPanel } from "./panels/Cookies";
import { DataLayerPanel } from "./panels/DataLayer";
import { EventsPanel } from "./panels/Events";
import { LogPanel } from "./panels/Log";
import { RulesPanel } from "./panels/Rules";
import { SessionPanel } from "./panels/Session";
import { TagsPanel } from "./panels/Tags";
import { TimelinePanel } from "./panels/Timeline";

const KEPT_KEY = "sitetags-preview:kept-sessions";

/** Kept sessions survive a reload (local storage of the preview's origin). */
function loadKept(): Session[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEPT_KEY) ?? "[]") as unknown;
    return Array.isArray(list)
      ? list.flatMap((s) => {
          try {
            return [parseSession(JSON.stringify(s))];
          } catch {
            return [];
          }
        })
      : [];
  } catch {
    return [];
  }
}

/** Stores the kept sessions; when they do not fit, the oldest go first. */
function storeKept(list: Session[]): void {
  for (let from = 0; from <= list.length; from++) {
    try {
      localStorage.setItem(KEPT_KEY, JSON.stringify(list.slice(from)));
      return;
    } catch {
      // Over the quota: drop the oldest and try again.
    }
  }
}

interface Props {
  entries: Entry[];
  config?: PreviewConfig;
  bundle?: CatalogueBundle;
  state: PreviewState;
  update: (patch: Partial<PreviewState>) => void;
  page?: LoadedPage;
  push?: (data: unknown) => Promise<{ ok: boolean; error?: string }>;
  /** Rules of the site's other environments (those missing here are off in this environment). */
  offRules?: RuleSpec[];
}

export function Inspector({ entries, config, bundle, state, update, page, push, offRules }: Props) {
  const [now, setNow] = useState(() => Date.now());
  const [saved, setSavedState] = useState<Session[]>(loadKept);
  const setSaved = (list: Session[]) => {
    setSavedState(list);
    storeKept(list);
  };
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const start = page?.startedAt;
  const lastPage = entries.reduce((n, e) => (e.kind === "page" ? e.page : n), 0);
  const beacons = useMemo(() => groupBeacons(entries), [entries]);
  const firings = useMemo(() => groupRuleFirings(entries, config?.rules), [entries, config]);
  const tags = useMemo(() => computeTags(entries, firings, config), [entries, firings, config]);
  const timeline = useMemo(() => buildTimeline(entries, beacons, firings, page?.startedAt), [entries, beacons, firings, page]);
  const verdicts = useMemo(() => ruleVerdicts(config, firings, entries, offRules), [config, firings, entries, offRules]);
  const settled = useMemo(() => settleFirings(firings, entries, beacons, tags, config), [firings, entries, beacons, tags, config]);
  const pushes = useMemo(() => pushesOf(entries), [entries]);
  const dlState = useMemo(() => computedState(pushesOf(entries, lastPage)), [entries, lastPage]);
  const logs = useMemo(() => logRows(entries), [entries]);
  const templates = useMemo(() => pushTemplates(config), [config]);
  const cookies = useMemo(() => cookieWrites(entries), [entries]);
  const jar = useMemo(() => latestJar(entries), [entries]);
  const snapshot = useMemo(
    () => [...entries].reverse().find((e): e is Extract<Entry, { kind: "snapshot" }> => e.kind === "snapshot")?.snapshot as PageSnapshot | undefined,
    [entries],
  );
  const consentNow = consentOnPage(entries, lastPage);
  const consent = config && lastPage ? consentView(consentNow.groups, consentNow.gpc, config) : undefined;
  const identity = config && snapshot ? identityView(jar, config) : undefined;
  const boot = [...entries].reverse().find((e) => e.kind === "monitor" && e.event.type === "boot");
  const problems = entries.filter((e) => e.kind === "csp" || e.kind === "error");
  const session = useMemo(
    () =>
      page && config
        ? makeSession(
            {
              label: `${bundle?.env}/${bundle?.site} ${new URL(page.src).pathname}`,
              startedAt: new Date(page.startedAt).toISOString(),
              previewUrl: location.href,
              pageUrl: page.src,
              host: page.host,
              bundle,
              userAgent: navigator.userAgent,
            },
            state,
            entries,
            config,
          )
        : undefined,
    [page, config, bundle, state, entries],
  );

  const tabs: Array<[string, string, number | undefined, boolean?]> = [
    ["beacons", "Beacons", beacons.length],
    ["timeline", "Timeline", undefined],
    ["rules", "Rules", firings.length],
    ["tags", "Tags", tags.length, tags.some((t) => t.blocked)],
    ["consent", "Consent & identity", undefined],
    ["cookies", "Cookies", cookies.filter((c) => c.by === "page").length],
    ["datalayer", "Data layer", pushes.length],
    ["log", "Log", logs.length, problems.length > 0 || logs.some((l) => l.level === "error")],
    ["bundle", "Bundle", undefined],
    ["events", "Events", entries.filter((e) => e.kind === "monitor").length],
    ["session", "Session", saved.length || undefined],
  ];
  const tab = tabs.some((t) => t[0] === state.tab) ? state.tab : "beacons";
  // The ARIA tabs pattern: arrows move to the previous or next tab (wrapping), Home and End to the first and last; selection follows focus.
  const onTabKey = (e: KeyboardEvent) => {
    const ids = tabs.map((t) => t[0]);
    const i = ids.indexOf(tab);
    const next =
      e.key === "ArrowRight"
        ? ids[(i + 1) % ids.length]
        : e.key === "ArrowLeft"
          ? ids[(i - 1 + ids.length) % ids.length]
          : e.key === "Home"
            ? ids[0]
            : e.key === "End"
              ? ids[ids.length - 1]
              : undefined;
    if (!next) return;
    e.preventDefault();
    update({ tab: next });
    requestAnimationFrame(() => document.getElementById(`tab-${next}`)?.focus());
  };

  return (
    <div className="inspector-inner">
      <nav className="tabs" role="tablist" aria-label="Inspector" onKeyDown={onTabKey}>
        {tabs.map(([id, label, count, alert]) => (
          <button
            key={id}
            id={`tab-${id}`}
            role="tab"
            aria-selected={tab === id}
            aria-controls="inspector-panel"
            tabIndex={tab === id ? 0 : -1}
            className={`${tab === id ? "active" : ""} ${alert ? "alert" : ""}`}
            onClick={() => update({ tab: id })}
            data-testid={`tab-${id}`}
          >
            {label}
            {count !== undefined && <span className="count">{count}</span>}
          </button>
        ))}
      </nav>
      <div className="panel" role="tabpanel" id="inspector-panel" aria-labelledby={`tab-${tab}`} tabIndex={0} data-testid={`panel-${tab}`}>
        {tab === "beacons" && <BeaconsPanel groups={beacons} start={start} now={now} />}
        {tab === "rules" && (
          <RulesPanel
            firings={settled}
            verdicts={verdicts}
            start={start}
            consentNote={(c) => (c && config && !allows(c, consentNow.groups, config) ? `waiting for ${c} consent` : undefined)}
          />
        )}
        {tab === "tags" && <TagsPanel tags={tags} start={start} />}
        {tab === "timeline" && <TimelinePanel timeline={timeline} />}
        {tab === "consent" && <ConsentPanel consent={consent} identity={identity} entries={entries} start={start} />}
        {tab === "cookies" && <CookiesPanel writes={cookies} jar={jar} start={start} />}
        {tab === "datalayer" && (
          <DataLayerPanel
            pushes={pushes}
            state={dlState}
            templates={templates}
            name={config?.dataLayerName ?? "kiwiDataLayer"}
            start={start}
            onPush={push ?? (async () => ({ ok: false, error: "no page" }))}
          />
        )}
        {tab === "log" && <LogPanel rows={logs} problems={problems} start={start} />}
        {tab === "bundle" && (
          <BundlePanel
            bundle={bundle}
            config={config}
            boot={boot?.kind === "monitor" ? boot.event : undefined}
            snapshot={snapshot}
            loads={bundle ? bundleFileLoads(entries, bundle) : []}
          />
        )}
        {tab === "events" && <EventsPanel entries={entries} start={start} />}
        {tab === "session" && <SessionPanel current={session} saved={saved} setSaved={setSaved} />}
      </div>
    </div>
  );
}
