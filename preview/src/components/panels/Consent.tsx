import type { ConsentView } from "../../lib/consent";
import type { Entry } from "../../lib/protocol";
import type { IdentityView } from "../../lib/visitor";
import { JsonTree, since } from "../JsonTree";

/** Consent as the page has it now, its changes, and the visitor's identity and login state. */
export function ConsentPanel({ consent, identity, entries, start }: { consent?: ConsentView; identity?: IdentityView; entries: Entry[]; start?: number }) {
  const identityReports = entries.filter((e): e is Extract<Entry, { kind: "monitor" }> => e.kind === "monitor" && /identity|login/i.test(e.event.type));
  const lastReport = identityReports[identityReports.length - 1];
  const changes = entries.filter((e): e is Extract<Entry, { kind: "consent" }> => e.kind === "consent");
  const reported = entries.filter(
    (e): e is Extract<Entry, { kind: "monitor" }> => e.kind === "monitor" && (e.event.type === "consent" || e.event.type === "banner"),
  );
  return (
    <div>
      <h3>Consent</h3>
      {consent ? (
        <>
          <p data-testid="consent-phase">
            <span className="pill">{consent.phase}</span> active groups <code>{consent.activeGroups ?? "(none: the banner has not answered)"}</code>
            {consent.gpc && <span className="pill warn">GPC on</span>}
          </p>
          <table className="grid">
            <thead>
              <tr>
                <th>category</th>
                <th>group</th>
                <th>allowed</th>
              </tr>
            </thead>
            <tbody>
              {consent.rows.map((r) => (
                <tr key={r.category} data-testid="consent-row" data-category={r.category} data-allowed={String(r.allowed)}>
                  <td>{r.category}</td>
                  <td>
                    <code>{r.group}</code>
                  </td>
                  <td>{r.allowed ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            From the active groups by the runtime's rule (runtime-modules/consent/active-groups.ts): the required group ("C…") plus the category's own group; an
            internal site allows everything. The gate's decision per tag (exclusion lists, GPC, user names in the URL, cb-disable…) is on the Tags tab.
          </p>
        </>
      ) : (
        <p className="muted">No page yet.</p>
      )}
      <h4>What the runtime reported</h4>
      {reported.length ? (
        <ul className="plain" data-testid="runtime-consent">
          {reported.map((e, i) => {
            const { type, t: _t, ...rest } = e.event;
            return (
              <li key={i}>
                {since(e.at, start)} <code>{type}</code>{" "}
                {Object.entries(rest)
                  .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
                  .join(" · ")}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted small">No consent or banner events from this bundle.</p>
      )}
      <h4>Banner changes made by the preview</h4>
      <ul className="plain">
        {changes.map((c, i) => (
          <li key={i}>
            {since(c.at, start)} page {c.page}: <code>{c.groups ?? "(none)"}</code> via {c.via}
          </li>
        ))}
      </ul>
      <h3>Identity and login</h3>
      {identity ? (
        <>
          <table className="kv">
            <tbody>
              <tr>
                <th>signed in</th>
                <td data-testid="signed-in">{identity.signedIn ? `yes (${identity.accountType ?? "account type unknown"})` : "no"}</td>
              </tr>
              <tr>
                <th>ECID</th>
                <td>{identity.ecid ?? "(none yet)"}</td>
              </tr>
            </tbody>
          </table>
          <h4>What the runtime reported</h4>
          {lastReport ? (
            <table className="kv" data-testid="identity-report">
              <tbody>
                {Object.entries(lastReport.event)
                  .filter(([k]) => k !== "t")
                  .map(([k, v]) => (
                    <tr key={k}>
                      <th>{k}</th>
                      <td>{typeof v === "string" ? v : JSON.stringify(v)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          ) : (
            <p className="muted small">No identity event from this bundle.</p>
          )}
          {identity.session && <JsonTree name="sign-in session cookie" value={identity.session} open={0} />}
          {identity.token && <JsonTree name="sign-in token payload" value={identity.token} open={0} />}
          <JsonTree name="identity cookies" value={identity.cookies} open={1} />
        </>
      ) : (
        <p className="muted">No page snapshot yet.</p>
      )}
    </div>
  );
}
