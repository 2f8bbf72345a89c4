import { useState } from "react";
import { beaconCounts, beaconTitle, eventTypeLabel, settleStatus, type BeaconGroup } from "../../lib/beacons";
import { beaconCurl, beaconJson, matchesBeacon, NO_FILTER, type BeaconFilter } from "../../lib/beacon-tools";
import { Empty, JsonTree, since } from "../JsonTree";

/** Copies a text; the button says it did. */
function CopyButton({ label, text, testId }: { label: string; text: () => string; testId: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      data-testid={testId}
      onClick={(e) => {
        e.preventDefault();
        void navigator.clipboard?.writeText(text()).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1500);
        });
      }}
    >
      {done ? "Copied" : label}
    </button>
  );
}

/** Each edge request decoded, grouped per event (attempts by requestId), with timing and retries; searchable, filterable, copyable. */
export function BeaconsPanel({ groups: all, start, now }: { groups: BeaconGroup[]; start?: number; now: number }) {
  const [filter, setFilter] = useState<BeaconFilter>(NO_FILTER);
  if (!all.length) return <Empty>No beacons yet. Analytics wait for performance consent; with pre-opt-in nothing is sent until the banner allows it.</Empty>;
  const groups = all.filter((g) => matchesBeacon(g, filter));
  const set = (patch: Partial<BeaconFilter>) => setFilter((f) => ({ ...f, ...patch }));
  return (
    <div>
      <div className="filters" role="search">
        <input
          type="search"
          placeholder="search: name, URL, eVar=value, XDM…"
          value={filter.text}
          onChange={(e) => set({ text: e.target.value })}
          aria-label="search beacons"
          data-testid="beacon-search"
        />
        <input
          placeholder="variable (eVar30 or eVar30=SAT)"
          value={filter.variable}
          onChange={(e) => set({ variable: e.target.value })}
          aria-label="filter by variable"
          data-testid="beacon-variable"
        />
        {(filter.text || filter.type || filter.variable) && (
          <button type="button" onClick={() => setFilter(NO_FILTER)} data-testid="beacon-filter-clear">
            clear ({groups.length} of {all.length})
          </button>
        )}
      </div>
      <p className="summary">
        {beaconCounts(all).map((c) => (
          <button
            type="button"
            key={c.eventType}
            className={`pill ${filter.type === c.eventType ? "active" : ""}`}
            aria-pressed={filter.type === c.eventType}
            title="show only this type"
            onClick={() => set({ type: filter.type === c.eventType ? "" : c.eventType })}
            data-testid="beacon-pill"
            data-type={c.eventType}
          >
            {c.eventType} × {c.count}
            {c.failed ? ` (${c.failed} failed)` : ""}
          </button>
        ))}
      </p>
      {!groups.length && <Empty>No beacon matches the filter.</Empty>}
      {groups.map((g) => {
        const status = settleStatus(g, now);
        return (
          <details
            key={g.key}
            className={`card beacon status-${status.replace(/ /g, "-")}`}
            data-testid="beacon-row"
            data-event-type={g.decoded.eventType ?? ""}
            data-page-name={g.decoded.pageName ?? ""}
            data-name={g.decoded.interaction?.name ?? ""}
            data-link-type={g.decoded.interaction?.type ?? ""}
            data-status={status}
            data-page={g.page}
            data-unload={g.unload ? "true" : "false"}
            data-request-id={g.requestId ?? ""}
          >
            <summary>
              <span className="time">{since(g.at, start)}</span>
              <b>{eventTypeLabel(g.decoded.eventType, g.decoded.action)}</b>
              <span className="name">{g.decoded.interaction?.name ?? g.decoded.pageName ?? ""}</span>
              <span className={`pill ${status === "ok" ? "ok" : status === "waiting" ? "" : "bad"}`}>{status}</span>
              {g.retries > 0 && (
                <span className="pill warn">
                  {g.retries} retr{g.retries === 1 ? "y" : "ies"}
                </span>
              )}
              {g.page > 1 && <span className="pill">page {g.page}</span>}
              {g.unload && (
                <span className="pill warn" title="sent while its page unloaded (pagehide)">
                  unload · page {g.page}
                </span>
              )}
            </summary>
            <p className="buttons">
              <CopyButton label="Copy as cURL" text={() => beaconCurl(g)} testId="copy-curl" />
              <CopyButton label="Copy as JSON" text={() => beaconJson(g)} testId="copy-json" />
            </p>
            <table className="kv">
              <tbody>
                <tr>
                  <th>event</th>
                  <td>{beaconTitle(g.decoded)}</td>
                </tr>
                <tr>
                  <th>event type</th>
                  <td>
                    <code>{g.decoded.eventType}</code>
                  </td>
                </tr>
                {g.decoded.pageName && (
                  <tr>
                    <th>page name</th>
                    <td>
                      <code>{g.decoded.pageName}</code>
                    </td>
                  </tr>
                )}
                {g.decoded.interaction && (
                  <tr>
                    <th>interaction</th>
                    <td>
                      {g.decoded.interaction.name} · type {g.decoded.interaction.type ?? "(none)"} · {g.decoded.interaction.url}
                    </td>
                  </tr>
                )}
                <tr>
                  <th>page URL</th>
                  <td className="wrap">{g.decoded.pageUrl}</td>
                </tr>
                <tr>
                  <th>endpoint</th>
                  <td>
                    {g.decoded.action} · configId {g.decoded.configId} · requestId {g.requestId}
                  </td>
                </tr>
                <tr>
                  <th>report suites</th>
                  <td>{g.decoded.reportSuites.join(", ") || "(none)"}</td>
                </tr>
                <tr>
                  <th>seen by</th>
                  <td>
                    {g.seenBy.monitor ? "runtime" : ""}
                    {g.seenBy.monitor && g.seenBy.edge ? " + " : ""}
                    {g.seenBy.edge ? "edge" : ""}
                    {g.latencyMs !== undefined ? ` · reached the edge ${g.latencyMs} ms after the runtime sent it` : ""}
                  </td>
                </tr>
                {g.decoded.problems.length > 0 && (
                  <tr>
                    <th>problems</th>
                    <td className="bad-text">{g.decoded.problems.join("; ")}</td>
                  </tr>
                )}
              </tbody>
            </table>
            <h4>Analytics variables</h4>
            {Object.keys(g.decoded.variables).length ? (
              <table className="kv vars">
                <tbody>
                  {Object.entries(g.decoded.variables).map(([k, v]) => (
                    <tr key={k}>
                      <th>{k}</th>
                      <td>{v}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted small">none</p>
            )}
            <h4>Attempts</h4>
            {g.attempts.length ? (
              <table className="grid">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>at</th>
                    <th>transport</th>
                    <th>action</th>
                    <th>status</th>
                    <th>answered in</th>
                    <th>edge mode</th>
                  </tr>
                </thead>
                <tbody>
                  {g.attempts.map((a, i) => (
                    <tr key={i}>
                      <td>{i + 1}</td>
                      <td>{since(a.at, start)}</td>
                      <td>{a.transport}</td>
                      <td>{a.action}</td>
                      <td>{a.status === 0 ? "dropped" : (a.status ?? "…")}</td>
                      <td>{a.durationMs ?? "…"} ms</td>
                      <td>{a.edgeMode}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted small">The edge has not received it (yet).</p>
            )}
            {g.decoded.consent && (
              <>
                <h4>Consent</h4>
                <JsonTree value={g.decoded.consent} open={3} />
              </>
            )}
            {g.decoded.xdm && (
              <>
                <h4>XDM</h4>
                <JsonTree value={g.decoded.xdm} open={2} />
              </>
            )}
          </details>
        );
      })}
    </div>
  );
}
