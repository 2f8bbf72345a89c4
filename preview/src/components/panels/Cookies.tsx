import type { CookieWrite } from "../../lib/cookies";
import { Empty, since } from "../JsonTree";

/** Every cookie write the page made (and the preview's setup), with attributes, and the jar now. */
export function CookiesPanel({ writes, jar, start }: { writes: CookieWrite[]; jar: Record<string, string>; start?: number }) {
  return (
    <div>
      <h3>Written</h3>
      {writes.length ? (
        <table className="grid">
          <thead>
            <tr>
              <th>at</th>
              <th>by</th>
              <th>name</th>
              <th>value</th>
              <th>attributes</th>
            </tr>
          </thead>
          <tbody>
            {writes.map((c, i) => (
              <tr key={i} className={c.by === "setup" ? "muted" : ""} data-testid="cookie-row" data-name={c.name} data-by={c.by}>
                <td>{since(c.at, start)}</td>
                <td>{c.by === "setup" ? "preview setup" : "page / bundle"}</td>
                <td>
                  <code>{c.name}</code>
                  {c.deletion ? " (deleted)" : ""}
                </td>
                <td className="wrap">{c.value.length > 80 ? `${c.value.slice(0, 79)}…` : c.value}</td>
                <td className="small">
                  {Object.entries(c.attributes)
                    .map(([k, v]) => (v ? `${k}=${v}` : k))
                    .join("; ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <Empty>No cookie written yet.</Empty>
      )}
      <h3>The page's jar now</h3>
      <table className="kv">
        <tbody>
          {Object.entries(jar).map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td className="wrap">{v.length > 120 ? `${v.slice(0, 119)}…` : v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
