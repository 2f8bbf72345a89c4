import { useState } from "react";
import { detailOf, eventSummary, KNOWN_TYPES } from "../../lib/events";
import type { Entry } from "../../lib/protocol";
import { JsonTree, since } from "../JsonTree";

/** Every monitor event, whatever its type: known types summarised, any other shown as JSON. */
export function EventsPanel({ entries, start }: { entries: Entry[]; start?: number }) {
  const [type, setType] = useState("all");
  const events = entries.filter((e): e is Extract<Entry, { kind: "monitor" }> => e.kind === "monitor");
  const types = [...new Set(events.map((e) => e.event.type))];
  const shown = events.filter((e) => type === "all" || e.event.type === type);
  return (
    <div>
      <p>
        <select value={type} onChange={(e) => setType(e.target.value)} aria-label="event type">
          <option value="all">all types ({events.length})</option>
          {types.map((t) => (
            <option key={t} value={t}>
              {t} ({events.filter((e) => e.event.type === t).length}){(KNOWN_TYPES as readonly string[]).includes(t) ? "" : " — new type"}
            </option>
          ))}
        </select>
      </p>
      <table className="grid events">
        <tbody>
          {shown.map((e, i) => (
            <tr key={i} data-testid="event-row" data-type={e.event.type}>
              <td className="time">{since(e.at, start)}</td>
              <td className="small muted">t={e.event.t}</td>
              <td>
                <code>{e.event.type}</code>
              </td>
              <td>
                {(KNOWN_TYPES as readonly string[]).includes(e.event.type) ? (
                  <details>
                    <summary>{eventSummary(e.event)}</summary>
                    <JsonTree value={detailOf(e.event)} open={1} />
                  </details>
                ) : (
                  <JsonTree value={detailOf(e.event)} open={1} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
