import { isObject } from "../lib/json";

/** A collapsible view of any JSON value; objects and lists open to `open` levels. */
export function JsonTree({ value, open = 1, name }: { value: unknown; open?: number; name?: string }) {
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (Array.isArray(value) || isObject(value)) {
    const items = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    const brackets = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    if (!items.length)
      return (
        <div className="json-line">
          {label}
          {brackets.join("")}
        </div>
      );
    return (
      <details className="json" open={open > 0}>
        <summary>
          {label}
          <span className="muted">
            {brackets[0]}
            {items.length} {Array.isArray(value) ? "items" : "keys"}
            {brackets[1]}
          </span>
        </summary>
        {items.map(([k, v]) => (
          <JsonTree key={k} name={k} value={v} open={open - 1} />
        ))}
      </details>
    );
  }
  return (
    <div className="json-line">
      {label}
      <span className={`json-${value === null ? "null" : typeof value}`}>{typeof value === "string" ? JSON.stringify(value) : String(value)}</span>
    </div>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="empty-note muted">{children}</p>;
}

/** "+123 ms" from the session start. */
export function since(at: number, start: number | undefined): string {
  if (!start) return "";
  const ms = at - start;
  return ms < 10000 ? `+${ms} ms` : `+${(ms / 1000).toFixed(1)} s`;
}
