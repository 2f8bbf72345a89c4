import { useState } from "react";
import type { Push } from "../../lib/data-layer";
import type { PushTemplate } from "../../lib/templates";
import { Empty, JsonTree, since } from "../JsonTree";

/** The pushes the runtime processed, the computed state, and an editor to push any event. */
export function DataLayerPanel({
  pushes,
  state,
  templates,
  name,
  start,
  onPush,
}: {
  pushes: Push[];
  state: Record<string, unknown>;
  templates: PushTemplate[];
  name: string;
  start?: number;
  onPush: (data: unknown) => Promise<{ ok: boolean; error?: string }>;
}) {
  const [text, setText] = useState(() => JSON.stringify(templates[0]?.push ?? { event: "search" }, null, 2));
  const [problem, setProblem] = useState<string | undefined>();
  const [chosen, setChosen] = useState(templates[0]?.id ?? "");
  const current = templates.find((t) => t.id === chosen);
  async function push() {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      setProblem(`not JSON: ${(e as Error).message}`);
      return;
    }
    const r = await onPush(data);
    setProblem(r.ok ? undefined : r.error);
  }
  return (
    <div>
      <h3>Push to window.{name}</h3>
      <div className="editor">
        <select
          value={chosen}
          onChange={(e) => {
            setChosen(e.target.value);
            const t = templates.find((x) => x.id === e.target.value);
            if (t) setText(JSON.stringify(t.push, null, 2));
          }}
          data-testid="push-template"
        >
          {["documented events", "catalogue rules"].map((g) => (
            <optgroup key={g} label={g}>
              {templates
                .filter((t) => t.group === g)
                .map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.label}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
        {current?.when && <p className="muted small">{current.when}</p>}
        <textarea value={text} onChange={(e) => setText(e.target.value)} rows={8} spellCheck={false} data-testid="push-editor" />
        <button className="primary" onClick={() => void push()} data-testid="push-button">
          Push
        </button>
        {problem && <span className="bad-text"> {problem}</span>}
      </div>
      <h3>Computed state</h3>
      <JsonTree value={state} open={2} />
      <h3>Pushes ({pushes.length})</h3>
      {pushes.length ? (
        pushes.map((p, i) => (
          <details key={i} className="card" data-testid="push-row" data-event={p.event ?? ""}>
            <summary>
              <span className="time">{since(p.at, start)}</span> <b>{p.event ?? "(data only)"}</b>
              {p.page > 1 && <span className="pill">page {p.page}</span>}
            </summary>
            <JsonTree value={p.push} open={2} />
          </details>
        ))
      ) : (
        <Empty>No push processed yet.</Empty>
      )}
    </div>
  );
}
