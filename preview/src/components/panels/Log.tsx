import { useState } from "react";
import type { LogRow } from "../../lib/log";
import type { Entry } from "../../lib/protocol";
import { Empty, JsonTree, since } from "../JsonTree";

/** The runtime's log (the catalogue's messages), page errors and CSP violations. */
export function LogPanel({ rows, problems, start }: { rows: LogRow[]; problems: Entry[]; start?: number }) {
  const [level, setLevel] = useState("all");
  const shown = rows.filter((r) => level === "all" || r.level === level);
  return (
    <div>
      {problems.length > 0 && (
        <div className="card bad" data-testid="page-problems">
          <h4>Page problems</h4>
          <ul className="plain">
            {problems.map((p, i) => (
              <li key={i}>
                {since(p.at, start)} {p.kind === "csp" ? `CSP blocked ${p.blockedURI} (${p.directive})` : p.kind === "error" ? `uncaught: ${p.message}` : ""}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>
        <select value={level} onChange={(e) => setLevel(e.target.value)} aria-label="level">
          {["all", "error", "warn", "info", "debug"].map((l) => (
            <option key={l}>{l}</option>
          ))}
        </select>{" "}
        <span className="muted small">{rows.length} entries; "catalogue" marks the product spec's messages (runtime-modules/core/messages.ts)</span>
      </p>
      {shown.length ? (
        <table className="grid">
          <thead>
            <tr>
              <th>at</th>
              <th>level</th>
              <th>message</th>
              <th>data</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r, i) => (
              <tr key={i} className={`level-${r.level}`} data-testid="log-row" data-level={r.level}>
                <td>{since(r.at, start)}</td>
                <td>{r.level}</td>
                <td>
                  {r.message} {r.code && <code>{r.code}</code>}{" "}
                  {r.catalogued ? <span className="pill">catalogue</span> : <span className="pill warn">not in catalogue</span>}
                </td>
                <td>{r.data !== undefined && <JsonTree value={r.data} open={0} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <Empty>No log entries.</Empty>
      )}
    </div>
  );
}
