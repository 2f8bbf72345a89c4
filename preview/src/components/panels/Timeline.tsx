import { LANES, position, type Timeline } from "../../lib/timeline";
import { Empty, since } from "../JsonTree";

/** Beacons, rules, tags, consent and data-layer pushes on one time axis, page loads marked; the list below in order. */
export function TimelinePanel({ timeline }: { timeline: Timeline }) {
  if (!timeline.items.length) return <Empty>Nothing happened yet.</Empty>;
  return (
    <div>
      <div className="timeline" data-testid="timeline" role="img" aria-label="timeline of the session">
        {LANES.map((lane) => (
          <div key={lane} className="lane" data-lane={lane}>
            <span className="lane-name">{lane}</span>
            <div className="track">
              {timeline.pages.map((p) => (
                <span
                  key={p.page}
                  className="page-mark"
                  style={{ left: `${position(timeline, p.at)}%` }}
                  data-testid="timeline-page"
                  title={`page ${p.page}: ${p.href}`}
                />
              ))}
              {timeline.items
                .filter((i) => i.lane === lane)
                .map((i, n) => (
                  <span
                    key={n}
                    className={`mark ${i.tone}`}
                    style={{ left: `${position(timeline, i.at)}%` }}
                    title={`${since(i.at, timeline.start)} ${i.label}`}
                  />
                ))}
            </div>
          </div>
        ))}
        <div className="axis small muted">
          <span>0</span>
          <span>{((timeline.end - timeline.start) / 1000).toFixed(1)} s</span>
        </div>
      </div>
      <table className="grid">
        <tbody>
          {timeline.pages.map((p) => (
            <tr key={`p${p.page}`} className="page-row" data-testid="timeline-page-row">
              <td className="time">+{p.at - timeline.start} ms</td>
              <td>
                <b>page {p.page}</b>
              </td>
              <td className="wrap">{p.href}</td>
            </tr>
          ))}
          {timeline.items.map((i, n) => (
            <tr key={n} data-testid="timeline-item" data-lane={i.lane}>
              <td className="time">+{i.at - timeline.start} ms</td>
              <td>{i.lane}</td>
              <td className="wrap">
                {i.page > 1 && <span className="pill">page {i.page}</span>} {i.label}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
