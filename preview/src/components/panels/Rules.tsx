import { firingCounts } from "../../lib/rules";
import type { SettledFiring } from "../../lib/verdicts";
import type { RuleVerdict } from "../../lib/why-not";
import { Empty, since } from "../JsonTree";

/** Which rules fired on which event, each condition's result and each action's outcome. */
/** Every rule of the bundle and why it did or did not fire. */
function EveryRule({ verdicts }: { verdicts: RuleVerdict[] }) {
  if (!verdicts.length) return null;
  const tone = (s: RuleVerdict["state"]) => (s === "fired" ? "ok" : s === "condition failed" ? "bad" : s === "waiting" ? "warn" : "");
  return (
    <>
      <h3>Every rule ({verdicts.length})</h3>
      <table className="grid why-not" data-testid="rule-verdicts">
        <tbody>
          {verdicts.map((v) => (
            <tr key={v.rule} data-testid="rule-verdict" data-rule={v.rule} data-verdict={v.state}>
              <td>
                <b>{v.rule}</b>
                {v.name && <div className="muted small">{v.name}</div>}
              </td>
              <td>
                <span className={`pill ${tone(v.state)}`}>{v.state}</span>
              </td>
              <td className="small" data-testid="rule-verdict-detail">
                {v.detail}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Firings</h3>
    </>
  );
}

export function RulesPanel({
  firings,
  verdicts = [],
  start,
  consentNote,
}: {
  firings: SettledFiring[];
  verdicts?: RuleVerdict[];
  start?: number;
  consentNote: (category: string | undefined) => string | undefined;
}) {
  if (!firings.length)
    return (
      <div>
        <EveryRule verdicts={verdicts} />
        <Empty>No rule has been triggered yet.</Empty>
      </div>
    );
  const counts = firingCounts(firings);
  return (
    <div>
      <EveryRule verdicts={verdicts} />
      <p className="summary">
        {Object.entries(counts)
          .filter(([, n]) => n)
          .map(([k, n]) => (
            <span key={k} className="pill">
              {k} × {n}
            </span>
          ))}
      </p>
      {firings.map((f) => (
        <details
          key={f.id}
          className={`card rule state-${f.state.replace(/ /g, "-")}`}
          data-testid="rule-row"
          data-rule={f.rule}
          data-state={f.state}
          open={f.state === "fired"}
        >
          <summary>
            <span className="time">{since(f.at, start)}</span>
            <b>{f.rule}</b>
            <span className="muted">on {f.event}</span>
            <span className={`pill ${f.state === "fired" ? "ok" : f.state === "skipped" ? "" : "bad"}`}>{f.state}</span>
            {f.page > 1 && <span className="pill">page {f.page}</span>}
          </summary>
          {f.name && <p className="muted small">{f.name}</p>}
          {f.conditions.length > 0 && (
            <>
              <h4>Conditions</h4>
              <ol className="steps">
                {f.conditions.map((c) => (
                  <li key={c.index} className={`result-${c.result.replace(/ /g, "-")}`} data-testid="condition">
                    <span className="pill">{c.result}</span> {c.summary}
                  </li>
                ))}
              </ol>
            </>
          )}
          {f.actions.length > 0 && (
            <>
              <h4>Actions</h4>
              <ol className="steps">
                {f.actions.map((a) => {
                  const waiting = a.outcome === "pending" || a.outcome === "timed out" ? consentNote(a.consent) : undefined;
                  return (
                    <li key={a.index} className={`result-${a.outcome.replace(/ /g, "-")}`} data-testid="action" data-outcome={a.outcome} data-type={a.type}>
                      <span className="pill">{a.outcome}</span> <code>{a.type}</code> {a.summary}
                      {a.at !== undefined && <span className="muted"> · {since(a.at, start)}</span>}
                      {a.evidence && <span className="muted small"> · {a.evidence}</span>}
                      {a.reported && <span className="muted small"> · the runtime reported “{a.reported}”</span>}
                      {waiting && <span className="warn-text"> · {waiting}</span>}
                    </li>
                  );
                })}
              </ol>
            </>
          )}
        </details>
      ))}
    </div>
  );
}
