import type { CatalogueBundle } from "../../api";
import type { PreviewConfig } from "../../lib/bundle-config";
import type { BundleFileLoad } from "../../lib/bundle-files";
import type { MonitorEvent, PageSnapshot } from "../../lib/protocol";
import { JsonTree } from "../JsonTree";

/** The bundle itself: manifest entry, modules, what it detected, its config. */
export function BundlePanel({
  bundle,
  config,
  boot,
  snapshot,
  loads = [],
}: {
  bundle?: CatalogueBundle;
  config?: PreviewConfig;
  boot?: MonitorEvent;
  snapshot?: PageSnapshot;
  /** What the session's pages fetched of the bundle's files (lib/bundle-files.ts). */
  loads?: BundleFileLoad[];
}) {
  if (!bundle) return <p className="muted">No bundle chosen.</p>;
  const detected = boot ? String(boot.env) : snapshot?.sitetags?.env;
  return (
    <div>
      <table className="kv">
        <tbody>
          <tr>
            <th>bundle</th>
            <td data-testid="bundle-id">
              {bundle.env}/{bundle.site} ({bundle.dist})
            </td>
          </tr>
          <tr>
            <th>file</th>
            <td>
              <code>{bundle.file}</code> (alias <code>{bundle.alias}</code>)
            </td>
          </tr>
          <tr>
            <th>size</th>
            <td data-testid="bundle-size">
              {bundle.bytes.toLocaleString()} B · {bundle.gzipBytes.toLocaleString()} B gzip
            </td>
          </tr>
          <tr>
            <th>integrity</th>
            <td className="wrap small">{bundle.integrity}</td>
          </tr>
          {bundle.deferred && (
            <tr>
              <th>deferred file</th>
              <td data-testid="bundle-deferred" className="wrap small">
                <code>{bundle.deferred.file}</code> · {bundle.deferred.bytes.toLocaleString()} B · {bundle.deferred.gzipBytes.toLocaleString()} B gzip, loaded
                after the page view · {bundle.deferred.integrity}
              </td>
            </tr>
          )}
          {loads.map((l) => (
            <tr key={l.role}>
              <th>{l.role === "first" ? "first file fetched" : "deferred file fetched"}</th>
              <td data-testid={`bundle-load-${l.role}`} data-requests={l.requests} data-status={l.status ?? ""} className="small">
                {l.requests
                  ? `${l.requests} request${l.requests === 1 ? "" : "s"} on page ${l.pages.join(", ")}, last answered ${l.status || "(dropped)"}`
                  : l.role === "deferred"
                    ? "not yet: asked for after the first page view (never while consent is pending)"
                    : "not yet"}
              </td>
            </tr>
          ))}
          <tr>
            <th>modules</th>
            <td data-testid="bundle-modules">{bundle.modules.length ? bundle.modules.join(", ") : "(core only)"}</td>
          </tr>
          <tr>
            <th>inputs hash</th>
            <td>{bundle.inputsHash}</td>
          </tr>
          <tr>
            <th>page host</th>
            <td>{bundle.host}</td>
          </tr>
          <tr>
            <th>environment detected</th>
            <td data-testid="env-detected">
              {detected ?? "(the bundle has not started)"}
              {boot && String(boot.env) !== String(boot.bundleEnv) ? (
                <span className="pill warn">built for {String(boot.bundleEnv)}</span>
              ) : boot ? (
                <span className="pill ok">matches the build</span>
              ) : null}
            </td>
          </tr>
          <tr>
            <th>runtime version</th>
            <td>{boot ? String(boot.version) : (snapshot?.sitetags?.version ?? "")}</td>
          </tr>
          <tr>
            <th>started modules</th>
            <td>{snapshot?.sitetags?.modules?.join(", ") ?? ""}</td>
          </tr>
          <tr>
            <th>commands</th>
            <td>
              {snapshot?.sitetags?.commands
                ? Object.entries(snapshot.sitetags.commands)
                    .map(([m, c]) => `${m}: ${c.join(", ")}`)
                    .join(" · ")
                : ""}
            </td>
          </tr>
        </tbody>
      </table>
      {config && (
        <>
          <h3>Configuration in the bundle</h3>
          <table className="kv">
            <tbody>
              <tr>
                <th>site</th>
                <td>
                  {config.site.code} — {config.site.name} · appId {config.site.appId} · {config.site.spa ? "SPA" : "not SPA"} ·{" "}
                  {config.site.internal ? "internal" : "external"}
                </td>
              </tr>
              <tr>
                <th>hosts</th>
                <td>
                  {Object.entries(config.hosts)
                    .map(([env, list]) => `${env}: ${list.join(", ")}`)
                    .join(" · ")}
                </td>
              </tr>
              <tr>
                <th>analytics</th>
                <td>
                  {config.analytics.reportSuite} · datastream {config.analytics.datastreamId} · {config.analytics.edgeDomain}
                </td>
              </tr>
              <tr>
                <th>sampling</th>
                <td>{config.sampling ?? ""}</td>
              </tr>
              <tr>
                <th>data layer</th>
                <td>window.{config.dataLayerName}</td>
              </tr>
              <tr>
                <th>rules</th>
                <td>{config.rules.map((r) => r.id).join(", ")}</td>
              </tr>
              <tr>
                <th>data elements</th>
                <td>{Object.keys(config.dataElements).join(", ")}</td>
              </tr>
            </tbody>
          </table>
          <JsonTree name="full config" value={config.raw} open={0} />
        </>
      )}
    </div>
  );
}
