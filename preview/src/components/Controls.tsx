import { useMemo, useState } from "react";
import type { Catalogue, CatalogueBundle } from "../api";
import type { PreviewConfig } from "../lib/bundle-config";
import { CATEGORIES } from "../lib/consent";
import { findTemplate, querySwitches, templateGroups } from "../lib/pages";
import { REFERRERS, type ConsentChoice, type CspMode, type EdgeMode, type PreviewState } from "../lib/state";
import { PERSONAS, type Persona } from "../lib/visitor";

interface Props {
  catalogue: Catalogue;
  state: PreviewState;
  update: (patch: Partial<PreviewState>) => void;
  bundle?: CatalogueBundle;
  config?: PreviewConfig;
  onLoad: () => void;
  ready: boolean;
  stale: boolean;
  /** Fields changed since the last Load (not on screen yet). */
  unapplied: string[];
  /** The link to what is on screen. */
  link: string;
}

const ENV_ORDER = ["dev", "qa", "uat", "perf", "oat", "nonprod", "prev", "prod"];

/** Tag codes the page can switch off with cb-disable-{code}: the modules, and rule actions with an id. */
function tagCodes(config: PreviewConfig | undefined): string[] {
  if (!config) return [];
  const ids = config.rules.flatMap((r) =>
    r.actions.filter((a) => (a.type === "loadScript" || a.type === "pixel") && typeof a.id === "string").map((a) => String(a.id)),
  );
  return [...new Set([...Object.keys(config.modules), ...ids])];
}

export function Controls({ catalogue, state, update, bundle, config, onLoad, ready, stale, unapplied, link }: Props) {
  const [copied, setCopied] = useState(false);
  const inDist = catalogue.bundles.filter((b) => b.dist === state.dist);
  const sites = useMemo(() => {
    const bySite = new Map<string, CatalogueBundle>();
    for (const b of inDist) if (!bySite.has(b.site)) bySite.set(b.site, b);
    return [...bySite.values()]
      .filter((b) => state.internal === "any" || b.internal === (state.internal === "yes"))
      .sort((a, b) => a.site.localeCompare(b.site));
  }, [inDist, state.internal]);
  const envs = inDist.filter((b) => b.site === state.site).sort((a, b) => ENV_ORDER.indexOf(a.env) - ENV_ORDER.indexOf(b.env));
  const template = findTemplate(state.page);
  const switches = querySwitches(tagCodes(config));
  const toggleFlag = (flag: string) => update({ flags: state.flags.includes(flag) ? state.flags.filter((f) => f !== flag) : [...state.flags, flag] });

  return (
    <form
      className="control-form"
      onSubmit={(e) => {
        e.preventDefault();
        onLoad();
      }}
    >
      <fieldset>
        <legend>Bundle</legend>
        {catalogue.dists.length > 1 && (
          <label>
            Dist
            <select value={state.dist} onChange={(e) => update({ dist: e.target.value })} data-testid="dist-select">
              {catalogue.dists.map((d) => (
                <option key={d.label} value={d.label}>
                  {d.label} ({d.dir})
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Site
          <select value={state.site} onChange={(e) => update({ site: e.target.value, env: "" })} data-testid="site-select">
            {!state.site && <option value="">choose a site…</option>}
            {sites.map((b) => (
              <option key={b.site} value={b.site}>
                {b.site}
                {b.name ? ` — ${b.name}` : ""}
                {b.internal ? " (internal)" : ""}
              </option>
            ))}
          </select>
        </label>
        <label>
          Environment
          <select value={state.env} onChange={(e) => update({ env: e.target.value })} data-testid="env-select">
            {envs.map((b) => (
              <option key={b.env} value={b.env}>
                {b.env} — {b.host}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sites shown
          <select value={state.internal} onChange={(e) => update({ internal: e.target.value as PreviewState["internal"] })} data-testid="internal-select">
            <option value="any">all sites</option>
            <option value="yes">internal sites (full consent, no banner)</option>
            <option value="no">external sites</option>
          </select>
        </label>
        {bundle && (
          <p className="muted small">
            {bundle.file} · {bundle.bytes.toLocaleString()} B · modules: {bundle.modules.length ? bundle.modules.join(", ") : "none"}
            {bundle.internal ? " · internal site" : ""}
          </p>
        )}
      </fieldset>

      <fieldset>
        <legend>Page</legend>
        <label>
          Template
          <select value={state.page} onChange={(e) => update({ page: e.target.value, path: "" })} data-testid="page-select">
            {templateGroups().map((g) => (
              <optgroup key={g.group} label={g.group}>
                {g.templates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.label} — {t.path}
                    {t.query ?? ""}
                    {t.sites && !t.sites.includes(state.site) ? ` (on ${t.sites[0]})` : ""}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        {template?.note && <p className="muted small">{template.note}</p>}
        <label>
          Free path
          <input value={state.path} placeholder={template?.path ?? "/"} onChange={(e) => update({ path: e.target.value })} data-testid="path-input" />
        </label>
        <div className="checks">
          {switches.map((s) => (
            <label key={s.flag} className="check">
              <input type="checkbox" checked={state.flags.includes(s.flag)} onChange={() => toggleFlag(s.flag)} /> {s.label}
            </label>
          ))}
        </div>
        <label>
          More query
          <input value={state.query} placeholder="a=1&b=2" onChange={(e) => update({ query: e.target.value })} data-testid="query-input" />
        </label>
      </fieldset>

      <fieldset>
        <legend>Visitor</legend>
        <label>
          Comes from
          <select
            value={REFERRERS.some((r) => r.url === state.referrer) ? state.referrer : "custom"}
            onChange={(e) => update({ referrer: e.target.value === "custom" ? state.referrer || "https://www.example.example/" : e.target.value })}
            data-testid="referrer-select"
          >
            {REFERRERS.map((r) => (
              <option key={r.url} value={r.url}>
                {r.label}
              </option>
            ))}
            <option value="custom">another address…</option>
          </select>
        </label>
        {!REFERRERS.some((r) => r.url === state.referrer) && (
          <input value={state.referrer} onChange={(e) => update({ referrer: e.target.value })} placeholder="https://…" aria-label="referrer address" />
        )}
        <label>
          Who
          <select value={state.visitor} onChange={(e) => update({ visitor: e.target.value as Persona })} data-testid="visitor-select">
            {(Object.keys(PERSONAS) as Persona[]).map((p) => (
              <option key={p} value={p}>
                {PERSONAS[p].label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Visit
          <select value={state.visit} onChange={(e) => update({ visit: e.target.value as PreviewState["visit"] })} data-testid="visit-select">
            <option value="first">first visit (cookies and storage cleared)</option>
            <option value="returning">returning (ECID, login record, banner cookies)</option>
          </select>
        </label>
        <label>
          Consent
          <select value={state.consent} onChange={(e) => update({ consent: e.target.value as ConsentChoice })} data-testid="consent-select">
            <option value="pre">pre-opt-in (banner not answered)</option>
            <option value="all">all categories opted in</option>
            <option value="none">strictly necessary only</option>
            <option value="custom">per category…</option>
          </select>
        </label>
        {state.consent === "custom" && (
          <div className="checks">
            {CATEGORIES.map((c) => (
              <label key={c} className="check">
                <input
                  type="checkbox"
                  data-testid={`category-${c}`}
                  checked={state.categories.includes(c)}
                  onChange={() => update({ categories: state.categories.includes(c) ? state.categories.filter((x) => x !== c) : [...state.categories, c] })}
                />{" "}
                {c} ({config?.consent.groups[c] ?? "?"})
              </label>
            ))}
          </div>
        )}
        <label className="check">
          <input type="checkbox" checked={state.gpc} onChange={(e) => update({ gpc: e.target.checked })} data-testid="gpc-check" /> Global Privacy Control on
        </label>
      </fieldset>

      <fieldset>
        <legend>Page conditions</legend>
        <label>
          Mock edge
          <select value={state.edge} onChange={(e) => update({ edge: e.target.value as EdgeMode })} data-testid="edge-select">
            <option value="ok">answers 200 (identity, state:store)</option>
            <option value="slow">answers after 3 s</option>
            <option value="retry">503 once per event, then 200</option>
            <option value="error">500 every time</option>
            <option value="down">drops the connection</option>
          </select>
        </label>
        <label>
          Content-Security-Policy
          <select value={state.csp} onChange={(e) => update({ csp: e.target.value as CspMode })} data-testid="csp-select">
            <option value="strict">strict: nonce + strict-dynamic, no unsafe-eval</option>
            <option value="nonce-only">nonce + https: (no strict-dynamic)</option>
            <option value="off">none</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={state.debug} onChange={(e) => update({ debug: e.target.checked })} /> debug switch (console logging)
        </label>
      </fieldset>

      <div className="buttons">
        <button type="submit" className="primary" disabled={!ready} data-testid="load-button">
          {stale ? "Load (bundle changed)" : "Load page"}
        </button>
        <button
          type="button"
          data-testid="copy-link"
          data-link={link}
          title="The link to what is on screen (changes not loaded yet are not in it)"
          onClick={() => {
            void navigator.clipboard?.writeText(link).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            });
          }}
        >
          {copied ? "Copied" : "Copy link"}
        </button>
      </div>
      {unapplied.length > 0 && (
        <p className="unapplied small" data-testid="unapplied" role="status">
          Not loaded yet: {unapplied.join(", ")}. The page, the address and Copy link show the last Load; Load to apply.
        </p>
      )}
      {catalogue.problems.length > 0 && (
        <details className="problems">
          <summary>{catalogue.problems.length} problem(s) with the dist</summary>
          <ul>
            {catalogue.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </details>
      )}
    </form>
  );
}
