import { useCallback, useEffect, useMemo, useState } from "react";
import { api, type Catalogue, type CatalogueBundle } from "./api";
import { Actions } from "./components/Actions";
import { Controls } from "./components/Controls";
import { Inspector } from "./components/Inspector";
import { normalizeConfig, type PreviewConfig, type RuleSpec } from "./lib/bundle-config";
import type { Entry } from "./lib/protocol";
import { decodeState, encodeState, fullAddress, unappliedFields, type PreviewState } from "./lib/state";
import { useSession } from "./useSession";

/** Picks a bundle for the state: the chosen site and environment, else the first bundle there is. */
function chooseBundle(catalogue: Catalogue, state: PreviewState): CatalogueBundle | undefined {
  // Nothing is chosen (or loaded) until QA picks a site or the URL names one.
  if (!state.site) return undefined;
  const list = catalogue.bundles.filter((b) => b.dist === state.dist);
  return list.find((b) => b.site === state.site && b.env === state.env) ?? list.find((b) => b.site === state.site);
}

/** The document the frame shows now (navigation inside the page included). */
function lastPage(entries: readonly Entry[]): Extract<Entry, { kind: "page" }> | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.kind === "page") return e;
  }
  return undefined;
}

/** What to do, before anything is loaded. */
function FirstScreen({ chosen }: { chosen: boolean }) {
  return (
    <div className="page empty first-screen" data-testid="first-screen">
      <div>
        <h2>Check what a bundle does on a page</h2>
        <ol>
          <li className={chosen ? "done" : ""}>
            Choose a <b>site</b> and an <b>environment</b> (left): any bundle of the manifest.
          </li>
          <li>
            Choose the <b>page</b>, the <b>visitor</b> and their <b>consent</b>.
          </li>
          <li>
            Press <b>Load page</b>: the page opens here, on the site's own host, with that bundle.
          </li>
          <li>
            Act on the page (the bar above) and read the <b>inspector</b>: beacons, rules, tags, consent, the timeline.
          </li>
        </ol>
        <p>
          <a href="/docs/preview.md" target="_blank" rel="noreferrer" data-testid="docs-link">
            How the preview works (docs/preview.md)
          </a>
        </p>
      </div>
    </div>
  );
}

export function App() {
  const [state, setState] = useState<PreviewState>(() => decodeState(location.search));
  const [catalogue, setCatalogue] = useState<Catalogue | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [config, setConfig] = useState<PreviewConfig | undefined>();
  const [configKey, setConfigKey] = useState<string | undefined>();
  const session = useSession();

  useEffect(() => {
    api.catalogue().then(setCatalogue, (e: Error) => setError(e.message));
  }, []);

  const bundle = catalogue ? chooseBundle(catalogue, state) : undefined;

  // The state names the bundle it runs: fill in site and env once the catalogue is known.
  useEffect(() => {
    if (bundle && (bundle.site !== state.site || bundle.env !== state.env)) setState((s) => ({ ...s, site: bundle.site, env: bundle.env }));
  }, [bundle, state.site, state.env]);

  // What is on screen: the state of the last Load. The URL holds it (and the open tab), not the controls'
  // unapplied changes, so a copied link reproduces what QA sees (replace: not a history step).
  const [applied, setApplied] = useState<PreviewState | undefined>();
  const shown = applied ? { ...applied, tab: state.tab } : state;
  const shownQuery = encodeState(shown);
  const shownUrl = `${location.origin}${location.pathname}${shownQuery ? `?${shownQuery}` : ""}`;
  useEffect(() => {
    const url = `${location.pathname}${shownQuery ? `?${shownQuery}` : ""}`;
    if (url !== `${location.pathname}${location.search}`) history.replaceState(null, "", url);
  }, [shownQuery]);
  const unapplied = unappliedFields(applied, state);

  useEffect(() => {
    if (!bundle || bundle.key === configKey) return;
    let live = true;
    api.bundle(bundle.key).then(
      (r) => {
        if (!live) return;
        setConfigKey(bundle.key);
        setConfig(r.config ? normalizeConfig(r.config) : undefined);
        if (!r.config) setError(`${bundle.key}: ${r.problem ?? "no config in the bundle"}`);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [bundle, configKey]);

  // The site's other environments' rules: a rule they carry and this bundle does not is off here (Rules tab).
  const [offRules, setOffRules] = useState<RuleSpec[]>([]);
  useEffect(() => {
    if (!catalogue || !bundle) return;
    let live = true;
    const others = catalogue.bundles.filter((b) => b.dist === bundle.dist && b.site === bundle.site && b.key !== bundle.key);
    Promise.all(
      others.map((b) =>
        api.bundle(b.key).then(
          (r) => (r.config ? normalizeConfig(r.config).rules : []),
          () => [] as RuleSpec[],
        ),
      ),
    ).then((lists) => live && setOffRules(lists.flat()));
    return () => {
      live = false;
    };
  }, [catalogue, bundle]);

  const ready = !!bundle && !!config && configKey === bundle.key;
  const load = useCallback(() => {
    if (!bundle || !config || !catalogue) return;
    void (async () => {
      // A full address in Free path opens that address: the bundle of its host when the catalogue has one.
      const full = fullAddress(state.path);
      const target = full ? catalogue.bundles.find((b) => b.dist === state.dist && b.host === full.host) : undefined;
      if (full && target && target.key !== bundle.key) {
        const r = await api.bundle(target.key);
        if (!r.config) throw new Error(`${target.key}: ${r.problem ?? "no config in the bundle"}`);
        const next = { ...state, site: target.site, env: target.env, path: full.path };
        setState(next);
        setApplied(next);
        await session.load(next, target, normalizeConfig(r.config));
        return;
      }
      const next = full && target ? { ...state, path: full.path } : state;
      if (next !== state) setState(next);
      setApplied(next);
      await session.load(next, full && !target ? { key: bundle.key, host: full.host } : bundle, config);
    })().catch((e: Error) => setError(e.message));
  }, [bundle, config, catalogue, state, session]);

  // Load once when the app opens with a bundle chosen (a shared link reproduces the case at once).
  // Only when the URL named the site: a site chosen on the first screen waits for Load.
  const [autoLoaded, setAutoLoaded] = useState(() => !new URLSearchParams(location.search).get("site"));
  useEffect(() => {
    if (ready && !autoLoaded) {
      setAutoLoaded(true);
      load();
    }
  }, [ready, autoLoaded, load]);

  const update = useCallback((patch: Partial<PreviewState>) => setState((s) => ({ ...s, ...patch })), []);
  const stale = useMemo(() => !!session.page && session.page.bundleKey !== bundle?.key, [session.page, bundle]);

  return (
    <div className="app">
      <header className="topbar">
        <strong>sitetags preview</strong>
        {bundle && (
          <span className="muted">
            {bundle.env}/{bundle.site} · {bundle.host} · {bundle.gzipBytes.toLocaleString()} B gzip
          </span>
        )}
        <span className={`pill ${session.connected ? "ok" : "bad"}`} title="Server-Sent Events from the preview server (edge requests)">
          {session.connected ? "server connected" : "server not connected"}
        </span>
        {error && (
          <span className="error" role="alert">
            {error} <button onClick={() => setError(undefined)}>×</button>
          </span>
        )}
      </header>
      <aside className="controls">
        {catalogue ? (
          <Controls
            catalogue={catalogue}
            state={state}
            update={update}
            bundle={bundle}
            config={config}
            onLoad={load}
            ready={ready}
            stale={stale}
            unapplied={unapplied}
            link={shownUrl}
          />
        ) : (
          <p className="muted">{error ? "The catalogue did not load." : "Loading the catalogue…"}</p>
        )}
      </aside>
      <section className="stage">
        <Actions session={session} config={config} state={state} />
        <div className="addressbar" data-testid="page-url">
          {session.page ? (lastPage(session.entries)?.href ?? session.page.src) : "No page loaded yet"}
        </div>
        {session.page ? (
          <iframe
            key={session.page.frame}
            ref={session.iframeRef}
            className="page"
            data-testid="page-frame"
            title="mock page"
            name={session.page.name}
            src={session.page.frameSrc}
            referrerPolicy="no-referrer"
          />
        ) : (
          <FirstScreen chosen={!!bundle} />
        )}
      </section>
      <section className="inspector">
        <Inspector
          offRules={offRules}
          entries={session.entries}
          config={config}
          bundle={bundle}
          state={state}
          update={update}
          page={session.page}
          push={(data) => session.send({ kind: "push", data }, "push to the data layer")}
        />
      </section>
    </div>
  );
}
