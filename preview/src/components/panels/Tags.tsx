import type { TagRow } from "../../lib/tags";
import { Empty, JsonTree, since } from "../JsonTree";

/** Loaded or blocked, with the reason, and who says so. */
export function TagsPanel({ tags, start }: { tags: TagRow[]; start?: number }) {
  if (!tags.length) return <Empty>No tag on this page: no module tag reported, no rule loaded a script or pixel, no third-party request.</Empty>;
  return (
    <table className="grid tags">
      <thead>
        <tr>
          <th>tag</th>
          <th>state</th>
          <th>reason</th>
          <th>consent</th>
          <th>source</th>
        </tr>
      </thead>
      <tbody>
        {tags.map((t) => (
          <tr
            key={t.key}
            className={t.blocked ? "blocked" : t.state === "loaded" ? "loaded" : ""}
            data-testid="tag-row"
            data-tag={t.tag}
            data-state={t.state}
            data-kind={t.kind}
          >
            <td>
              <b>{t.tag}</b>
              <div className="muted small">
                {t.kind === "reported" ? "gate decision" : t.kind}
                {t.rule ? ` · rule ${t.rule}` : ""}
                {t.page > 1 ? ` · page ${t.page}` : ""}
              </div>
              {t.src && <div className="muted small wrap">{t.src}</div>}
            </td>
            <td>
              <span className={`pill ${t.blocked ? "bad" : t.state === "loaded" ? "ok" : ""}`}>{t.state}</span>
              {t.sampling && (
                <div className="muted small" data-testid="tag-sampling" data-sampled-in={String(t.sampling.sampledIn)} data-rate={t.sampling.rate}>
                  sampled {t.sampling.sampledIn ? "in" : "out"} at {t.sampling.rate}%
                </div>
              )}
              {t.history.length > 1 && (
                <div className="muted small" data-testid="tag-history">
                  {t.history.map((h) => h.state).join(" → ")}
                </div>
              )}
              {t.requests.map((r, i) => (
                <div key={i} className="muted small">
                  {r.status ?? "…"} {since(r.at, start)}
                </div>
              ))}
            </td>
            <td data-testid="tag-reason" data-reason={t.reason ?? ""}>
              {t.reasonText ?? ""} {t.reason && t.reason !== t.reasonText && <code>{t.reason}</code>}
            </td>
            <td>{t.category ?? ""}</td>
            <td>
              {t.reasonSource ?? ""}
              {Object.keys(t.detail).length > 0 && (
                <details>
                  <summary className="muted small">detail</summary>
                  <JsonTree value={{ ...t.detail, history: t.history }} open={1} />
                </details>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
