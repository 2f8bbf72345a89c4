import { useCallback, useEffect, useMemo, useState } from "react";
import { api, type Catalogue, type CatalogueBundle } from "./api";
import { Actions } from "./components/Actions";
import { Controls } from "./components/Controls";
import { Inspector } from "./components/Inspector";
import { normalizeConfig, type PreviewConfig } from "./lib/bundle-config";
import { decodeState, encodeState, type PreviewState } from "./lib/state";
import { useSession } from "./useSession";

/** Picks a bundle for the state: the chosen site and environment, else the first bundle there is. */
function chooseBundle(catalogue: Catalogue, state: PreviewState): CatalogueBundle | undefined {
  const list = catalogue.bundles.filter((b) => b.dist === state.dist);
  return list.find((b) => b.site === state.site && b.env === state.env) ?? list.find((b) => b.site === state.site) ?? list[0];
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

  // The URL holds the whole state (replace: typing in a field is not a history step).
  useEffect(() => {
    const query = encodeState(state);
    const url = `${location.pathname}${query ? `?${query}` : ""}`;
    if (url !== `${location.pathname}${location.search}`) history.replaceState(null, "", url);
  }, [state]);

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

  const ready = !!bundle && !!config && configKey === bundle.key;
  const load = useCallback(() => {
    if (!bundle || !config) return;
    session.load(state, bundle, config).catch((e: Error) => setError(e.message));
  }, [bundle, config, state, session]);

  // Load once when the app opens with a bundle chosen (a shared link reproduces the case at once).
  const [autoLoaded, setAutoLoaded] = useState(false);
  useEffect(() => {
    if (ready && !autoLoaded) {
      setAutoLoaded(true);
      load();
    }
  }, [ready, autoLoaded, load]);

  const update = useCallback((patch: Partial<PreviewState>) => setState((s) => ({ ...s, ...patch })), []);
  const stale = useMemo(() => !!session.page && (session.page.bundleKey !== bundle?.key), [session.page, bundle]);

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
          <Controls catalogue={catalogue} state={state} update={update} bundle={bundle} config={config} onLoad={load} ready={ready} stale={stale} />
        ) : (
          <p className="muted">{error ? "The catalogue did not load." : "Loading the catalogue…"}</p>
        )}
      </aside>
      <section className="stage">
        <Actions session={session} config={config} state={state} />
        <div className="addressbar" data-testid="page-url">
          {session.page ? session.page.src : "No page loaded yet"}
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
          <div className="page empty">Choose a site and environment, then Load.</div>
        )}
      </section>
      <section className="inspector">
        <Inspector entries={session.entries} config={config} bundle={bundle} state={state} update={update} page={session.page} push={(data) => session.send({ kind: "push", data }, "push to the data layer")} />
      </section>
    </div>
  );
}
