import { useState } from "react";
import { diffSessions, exportSession, parseSession, type Session } from "../../lib/session";

/** Export the session as JSON; keep sessions; diff two of them. */
export function SessionPanel({ current, saved, setSaved }: { current?: Session; saved: Session[]; setSaved: (list: Session[]) => void }) {
  const [a, setA] = useState(0);
  const [b, setB] = useState(1);
  const [problem, setProblem] = useState<string | undefined>();
  function download() {
    if (!current) return;
    const blob = new Blob([exportSession(current)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `sitetags-session-${current.meta.bundle?.site ?? "page"}-${current.meta.bundle?.env ?? ""}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
  async function importFile(file: File) {
    try {
      const s = parseSession(await file.text());
      setSaved([...saved, { ...s, meta: { ...s.meta, label: `${s.meta.label} (file)` } }]);
      setProblem(undefined);
    } catch (e) {
      setProblem((e as Error).message);
    }
  }
  const rows = saved[a] && saved[b] && a !== b ? diffSessions(saved[a], saved[b]) : [];
  return (
    <div>
      <p className="buttons">
        <button className="primary" disabled={!current} onClick={download} data-testid="export-session">
          Export session (JSON)
        </button>
        <button
          disabled={!current}
          onClick={() => current && setSaved([...saved, { ...current, meta: { ...current.meta, label: `${current.meta.label} #${saved.length + 1}` } }])}
          data-testid="keep-session"
        >
          Keep for diff
        </button>
        <label className="file">
          Import… <input type="file" accept="application/json,.json" onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} />
        </label>
        {problem && <span className="bad-text">{problem}</span>}
      </p>
      {current && (
        <p className="muted small">
          This session: {current.entries.length} entries since {current.meta.startedAt} · {current.meta.pageUrl}
        </p>
      )}
      <h3>Kept sessions</h3>
      {saved.length ? (
        <ol className="plain" data-testid="kept-sessions">
          {saved.map((s, i) => (
            <li key={i}>
              {i}: {s.meta.label} — {s.meta.pageUrl} ({s.entries.length} entries){" "}
              <button onClick={() => setSaved(saved.filter((_, j) => j !== i))}>remove</button>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Keep a session, change the environment or the bundle, load the same page, keep again: then compare.</p>
      )}
      {saved.length >= 2 && (
        <>
          <h3>Diff</h3>
          <p>
            A{" "}
            <select value={a} onChange={(e) => setA(Number(e.target.value))}>
              {saved.map((s, i) => (
                <option key={i} value={i}>
                  {i}: {s.meta.label}
                </option>
              ))}
            </select>{" "}
            B{" "}
            <select value={b} onChange={(e) => setB(Number(e.target.value))}>
              {saved.map((s, i) => (
                <option key={i} value={i}>
                  {i}: {s.meta.label}
                </option>
              ))}
            </select>
          </p>
          {a === b ? (
            <p className="muted">Pick two different sessions.</p>
          ) : rows.length ? (
            <table className="grid diff" data-testid="diff-table">
              <colgroup>
                <col className="c-section" />
                <col className="c-what" />
                <col className="c-change" />
                <col className="c-side" />
                <col className="c-side" />
              </colgroup>
              <thead>
                <tr>
                  <th>section</th>
                  <th>what</th>
                  <th>change</th>
                  <th>A</th>
                  <th>B</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={i} className={r.change.replace(/ /g, "-")} data-section={r.section} data-key={r.key}>
                    <td>{r.section}</td>
                    <td>
                      {r.key}
                      {r.field ? <span className="muted"> · {r.field}</span> : null}
                    </td>
                    <td>{r.change}</td>
                    <td className="wrap small">{r.a}</td>
                    <td className="wrap small">{r.b}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>No differences.</p>
          )}
        </>
      )}
    </div>
  );
}
