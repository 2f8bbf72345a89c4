import { beaconCounts, beaconTitle, eventTypeLabel, settleStatus, type BeaconGroup } from "../../lib/beacons";
import { Empty, JsonTree, since } from "../JsonTree";

/** Each edge request decoded, grouped per event (attempts by requestId), with timing and retries. */
export function BeaconsPanel({ groups, start, now }: { groups: BeaconGroup[]; start?: number; now: number }) {
  if (!groups.length) return <Empty>No beacons yet. Analytics wait for performance consent; with pre-opt-in nothing is sent until the banner allows it.</Empty>;
  return (
    <div>
      <p className="summary">
        {beaconCounts(groups).map((c) => (
          <span key={c.eventType} className="pill">
            {c.eventType} × {c.count}
            {c.failed ? ` (${c.failed} failed)` : ""}
          </span>
        ))}
      </p>
      {groups.map((g) => {
        const status = settleStatus(g, now);
        return (
          <details key={g.key} className={`card beacon status-${status.replace(/ /g, "-")}`} data-testid="beacon-row" data-event-type={g.decoded.eventType ?? ""} data-page-name={g.decoded.pageName ?? ""} data-name={g.decoded.interaction?.name ?? ""} data-link-type={g.decoded.interaction?.type ?? ""} data-status={status} data-page={g.page} data-unload={g.unload ? "true" : "false"} data-request-id={g.requestId ?? ""}>
            <summary>
              <span className="time">{since(g.at, start)}</span>
              <b>{eventTypeLabel(g.decoded.eventType, g.decoded.action)}</b>
              <span className="name">{g.decoded.interaction?.name ?? g.decoded.pageName ?? ""}</span>
              <span className={`pill ${status === "ok" ? "ok" : status === "waiting" ? "" : "bad"}`}>{status}</span>
              {g.retries > 0 && <span className="pill warn">{g.retries} retr{g.retries === 1 ? "y" : "ies"}</span>}
              {g.page > 1 && <span className="pill">page {g.page}</span>}
              {g.unload && <span className="pill warn" title="sent while its page unloaded (pagehide)">unload · page {g.page}</span>}
            </summary>
            <table className="kv">
              <tbody>
                <tr><th>event</th><td>{beaconTitle(g.decoded)}</td></tr>
                <tr><th>event type</th><td><code>{g.decoded.eventType}</code></td></tr>
                {g.decoded.pageName && <tr><th>page name</th><td><code>{g.decoded.pageName}</code></td></tr>}
                {g.decoded.interaction && (
                  <tr><th>interaction</th><td>{g.decoded.interaction.name} · type {g.decoded.interaction.type ?? "(none)"} · {g.decoded.interaction.url}</td></tr>
                )}
                <tr><th>page URL</th><td className="wrap">{g.decoded.pageUrl}</td></tr>
                <tr><th>endpoint</th><td>{g.decoded.action} · configId {g.decoded.configId} · requestId {g.requestId}</td></tr>
                <tr><th>report suites</th><td>{g.decoded.reportSuites.join(", ") || "(none)"}</td></tr>
                <tr><th>seen by</th><td>{g.seenBy.monitor ? "runtime" : ""}{g.seenBy.monitor && g.seenBy.edge ? " + " : ""}{g.seenBy.edge ? "edge" : ""}{g.latencyMs !== undefined ? ` · reached the edge ${g.latencyMs} ms after the runtime sent it` : ""}</td></tr>
                {g.decoded.problems.length > 0 && <tr><th>problems</th><td className="bad-text">{g.decoded.problems.join("; ")}</td></tr>}
              </tbody>
            </table>
            <h4>Analytics variables</h4>
            {Object.keys(g.decoded.variables).length ? (
              <table className="kv vars">
                <tbody>
                  {Object.entries(g.decoded.variables).map(([k, v]) => (
                    <tr key={k}><th>{k}</th><td>{v}</td></tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted small">none</p>
            )}
            <h4>Attempts</h4>
            {g.attempts.length ? (
              <table className="grid">
                <thead><tr><th>#</th><th>at</th><th>transport</th><th>action</th><th>status</th><th>answered in</th><th>edge mode</th></tr></thead>
                <tbody>
                  {g.attempts.map((a, i) => (
                    <tr key={i}>
                      <td>{i + 1}</td><td>{since(a.at, start)}</td><td>{a.transport}</td><td>{a.action}</td><td>{a.status === 0 ? "dropped" : a.status ?? "…"}</td><td>{a.durationMs ?? "…"} ms</td><td>{a.edgeMode}</td>
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
