import { useEffect, useState } from "react";
import type { PreviewConfig } from "../lib/bundle-config";
import { CATEGORIES, groupsFor } from "../lib/consent";
import type { PreviewState } from "../lib/state";
import type { useSession } from "../useSession";

type Session = ReturnType<typeof useSession>;

const LINKS: Array<[string, string]> = [
  ["link-internal", "internal"],
  ["link-external", "external"],
  ["link-download", "download"],
  ["link-mailto", "mailto"],
  ["link-tel", "tel"],
  ["link-promo", "promo"],
  ["link-share", "share"],
  ["link-nav", "nav"],
  ["feature-button", "feature"],
];

export function Actions({ session, config, state }: { session: Session; config?: PreviewConfig; state: PreviewState }) {
  const [status, setStatus] = useState<string>("");
  const [term, setTerm] = useState("sat dates");
  const [via, setVia] = useState<"event" | "OptanonWrapper">("event");
  const [trackName, setTrackName] = useState("");
  const disabled = !session.page;
  // A status belongs to the page it acted on: a new Load clears it.
  const frame = session.page?.frame;
  useEffect(() => setStatus(""), [frame]);

  async function run(label: string, msg: Parameters<Session["send"]>[0]) {
    setStatus(`${label}…`);
    const r = await session.send(msg, label);
    setStatus(r.ok ? `${label}: done` : `${label}: ${r.error}`);
  }
  const action = (name: string, label: string, value?: string) => run(label, { kind: "action", action: name, value });
  const consent = (label: string, categories: string[] | null) =>
    run(label, { kind: "consent", groups: categories === null ? null : groupsFor(categories, config?.consent.groups ?? {}), via });

  return (
    <div className="actions" data-testid="actions">
      <div className="row">
        <span className="label">Click</span>
        {LINKS.map(([name, label]) => (
          <button key={name} disabled={disabled} onClick={() => void action(name, `click ${label} link`)} data-testid={`action-${name}`}>
            {label}
          </button>
        ))}
        <button
          disabled={disabled}
          onClick={() => void action("link-search-result", "click search result")}
          data-testid="action-link-search-result"
          title="Run a search first"
        >
          search result
        </button>
      </div>
      <div className="row">
        <span className="label">Page</span>
        <button disabled={disabled} onClick={() => void action("modal-open", "open modal")} data-testid="action-modal-open">
          open modal
        </button>
        <button disabled={disabled} onClick={() => void action("modal-close", "close modal")} data-testid="action-modal-close">
          close modal
        </button>
        <button disabled={disabled} onClick={() => void action("form-submit", "submit form")} data-testid="action-form-submit">
          submit form
        </button>
        <input className="short" value={term} onChange={(e) => setTerm(e.target.value)} aria-label="search term" />
        <button disabled={disabled} onClick={() => void action("search", `search "${term}"`, term)} data-testid="action-search">
          search
        </button>
        <button disabled={disabled} onClick={() => void action("video-play", "play/pause video")} data-testid="action-video-play">
          play video
        </button>
        <button disabled={disabled} onClick={() => void action("chat-launcher", "click chat launcher")}>
          chat launcher
        </button>
      </div>
      <div className="row">
        <span className="label">Banner</span>
        <button disabled={disabled} onClick={() => void consent("banner: accept all", [...CATEGORIES])} data-testid="banner-accept-all">
          accept all
        </button>
        <button disabled={disabled} onClick={() => void consent("banner: necessary only", [])} data-testid="banner-necessary">
          necessary only
        </button>
        {state.consent === "custom" && (
          <button disabled={disabled} onClick={() => void consent(`banner: ${state.categories.join(", ") || "none"}`, state.categories)}>
            as chosen ({state.categories.join(", ") || "none"})
          </button>
        )}
        <select value={via} onChange={(e) => setVia(e.target.value as typeof via)} aria-label="how the banner signals">
          <option value="event">via consent.onetrust event</option>
          <option value="OptanonWrapper">via OptanonWrapper()</option>
        </select>
        <input className="short" value={trackName} placeholder="directCall name" onChange={(e) => setTrackName(e.target.value)} aria-label="direct call name" />
        <button disabled={disabled || !trackName} onClick={() => void run(`sitetags.track("${trackName}")`, { kind: "track", name: trackName })}>
          track
        </button>
      </div>
      <div className="status muted" data-testid="action-status">
        {status}
      </div>
    </div>
  );
}
