/**
 * What a bundle's inlined config leaves out (issue #21, "trim the config
 * inlined in production bundles"): data the bundle can never read.
 *
 * - Another environment's host is kept only when it could match a host that
 *   this environment's own entries authorize: boot detects the environment
 *   (core/environment.ts) only after the page's host passed the
 *   authorization check (core/authorize.ts), so any other entry can never win
 *   and is dead weight. Neutral in every environment.
 * - The host-pattern fallback (`envFallback`) is reached only when no host
 *   entry matches the page, which an authorized host always does, except in
 *   a dev bundle on localhost: kept in dev bundles only, and so is the global
 *   flag (`envGlobal`), the step after it. Neutral too.
 * - In production bundles, rule names: the runtime reads a rule's name only
 *   for the monitor's `rule` event, which then carries the rule's id alone
 *   (the preview shows the id where a name is missing).
 * - The timing values only a capability the bundle may not carry reads
 *   (issue #19, docs/runtime.md "Timing values"): failover, failoverTrack,
 *   trackStage and loading unless a noPush rule event waits by it;
 *   widgetLink without the chat module; retryAttempts without the chat-flow
 *   popup; retryInterval without either.
 */
import type { BundleConfig } from "../config/bundle-config.js";
import { hostMatches } from "../../runtime-modules/core/host-match.js";

/** Whether two host entries (exact or `*.suffix`) can match a common host name. */
export function entriesOverlap(a: string, b: string): boolean {
  const wildA = a.indexOf("*.") === 0;
  const wildB = b.indexOf("*.") === 0;
  if (!wildA && !wildB) return a === b;
  if (!wildA) return hostMatches(a, b);
  if (!wildB) return hostMatches(b, a);
  const sa = a.slice(1);
  const sb = b.slice(1);
  return sa.endsWith(sb) || sb.endsWith(sa);
}

/** The timing values the bundle can read (see above). */
export function trimTiming(config: Pick<BundleConfig, "timing" | "rules" | "modules">): BundleConfig["timing"] {
  const timing: Partial<BundleConfig["timing"]> = { ...config.timing };
  const waits = config.rules.flatMap((rule) => rule.events.map((event) => (event.type === "noPush" ? event.wait : "")));
  for (const wait of ["failover", "failoverTrack", "trackStage", "loading"] as const) if (!waits.includes(wait)) delete timing[wait];
  const chat = !!config.modules.chat;
  const chatFlow = !!config.modules.chatFlow;
  if (!chat) delete timing.widgetLink;
  if (!chatFlow) delete timing.retryAttempts;
  if (!chat && !chatFlow) delete timing.retryInterval;
  return timing as BundleConfig["timing"];
}

/** The config as the bundle inlines it (see above); the input is left unchanged. */
export function trimConfig(config: BundleConfig): BundleConfig {
  const own = config.hosts[config.env] || [];
  const hosts: BundleConfig["hosts"] = {};
  for (const env of Object.keys(config.hosts) as Array<keyof BundleConfig["hosts"]>) {
    const entries = config.hosts[env] || [];
    const kept = env === config.env ? entries : entries.filter((entry) => own.some((mine) => entriesOverlap(entry, mine)));
    if (kept.length) hosts[env] = kept;
  }
  const rules = config.env === "prod" ? config.rules.map(({ name: _name, ...rule }) => rule as BundleConfig["rules"][number]) : config.rules;
  const dev = config.env === "dev";
  return { ...config, hosts, envFallback: dev ? config.envFallback : [], envGlobal: dev ? config.envGlobal : undefined, rules, timing: trimTiming(config) };
}
