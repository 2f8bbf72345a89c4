import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { ExclusionSettings } from "./exclusions";
import type { ConsentState } from "./state";
import type { TagStatus } from "./tag-status";
import { tagDisabled } from "../core/query-flags";
import { regexMatches } from "../core/match-page";
import { isProgramCategory, normalizeCategory } from "./categories";
import { appIdExcluded, hostAllowListed, hostExcluded } from "./exclusions";
import { categoryAllowed } from "./state";
import { disabled, enabled } from "./tag-status";
import { containsUserName } from "./user-name";

/** Why a tag may or may not run, for the QA preview. */
export type GateReason =
  | "cb-disable"
  | "synthetics"
  | "allow-list"
  | "stored-status"
  | "internal-site"
  | "consent-category"
  | "exclusion-app-id"
  | "exclusion-host"
  | "gpc"
  | "user-name-in-url"
  | "consent-given";

export interface TagGateInput {
  /** The tag code of cb-disable-{tagcode}. */
  tagCode: string;
  /** The tag's category (config key or spec label); missing or unknown: settings.defaultCategory. */
  category?: unknown;
  consent: ConsentState;
  site: { internal: boolean; appId: string };
  page: { host: string; /** location.search */ query: string; referrer: string };
  userAgent: string;
  /** navigator.globalPrivacyControl === true */
  gpc: boolean;
  /** The signed-in visitor's user name and id, when known. */
  userIds?: readonly string[];
  settings: { defaultCategory: ConsentCategory; exclusions: ExclusionSettings; syntheticsUserAgent: string };
  /** The status stored for this tag on this page (an earlier evaluation or a tag-settings push). */
  stored?: TagStatus;
  /** Evaluate afresh, ignoring the stored status. */
  force?: boolean;
}

export interface TagDecision {
  allowed: boolean;
  reason: GateReason;
  category: ConsentCategory;
  /** The page-level tag status: consent-category is still enabled (the tag waits for consent). */
  status: TagStatus;
  /** The app id, host, category or URL part behind the reason. */
  detail?: string;
}

/**
 * The page-level status checks, fresh: cb-disable-{tagcode} in the query
 * (query-parameter), a synthetic-monitoring user agent (synthetics), a host
 * outside a configured allow-list (configuration). What the wiring stores
 * per tag and page.
 */
export function pageTagStatus(input: Pick<TagGateInput, "tagCode" | "page" | "userAgent" | "settings">): { status: TagStatus; reason?: GateReason } {
  if (tagDisabled(new URLSearchParams(input.page.query), input.tagCode)) return { status: disabled("query-parameter"), reason: "cb-disable" };
  if (input.settings.syntheticsUserAgent && regexMatches(input.settings.syntheticsUserAgent, input.userAgent || ""))
    return { status: disabled("synthetics"), reason: "synthetics" };
  if (!hostAllowListed(input.settings.exclusions, input.page.host)) return { status: disabled("configuration"), reason: "allow-list" };
  return { status: enabled() };
}

/**
 * The gate every tag passes. Checks, in this order; the first that decides wins:
 *  1. cb-disable-{tagcode} in the query            → blocked "cb-disable"       (status query-parameter)
 *  2. synthetics user agent                        → blocked "synthetics"       (status synthetics)
 *  3. allow-list configured, host not on it        → blocked "allow-list"       (status configuration)
 *  4. stored disabled status, not forced           → blocked "stored-status"    (the stored status)
 *  5. internal site ("full consent on internal sites") skips step 6
 *  6. banner consent for the category              → blocked "consent-category" (status enabled: waits)
 *     program categories stop here                 → allowed "consent-given" ("internal-site")
 *  7. app id on the category's exclusion list      → blocked "exclusion-app-id" (status legal)
 *  8. host on the category's exclusion list        → blocked "exclusion-host"   (status legal)
 *  9. marketing and a global privacy signal        → blocked "gpc"              (status legal)
 * 10. marketing and a user name in query/referrer  → blocked "user-name-in-url" (status legal)
 * 11. otherwise                                    → allowed "consent-given" ("internal-site")
 * Steps 1-4 hold on every site (they only ever block); a stored status
 * never unblocks what a fresh check blocks. An internal site has the
 * visitor's consent, not a legal waiver: the exclusion lists, the privacy
 * signal and the user-name check (7-10) hold there too (testday, app id 292,
 * is internal and on the marketing exclusion list).
 */
export function decideTag(input: TagGateInput): TagDecision {
  const category = normalizeCategory(input.category, normalizeCategory(input.settings.defaultCategory));
  const block = (reason: GateReason, status: TagStatus, detail?: string): TagDecision => ({ allowed: false, reason, category, status, detail });
  const allow = (reason: GateReason): TagDecision => ({ allowed: true, reason, category, status: enabled() });

  const page = pageTagStatus(input);
  if (page.reason) return block(page.reason, page.status);
  if (input.stored && input.stored.status === "disabled" && !input.force) return block("stored-status", input.stored, input.stored.reason);
  const given = input.site.internal ? "internal-site" : "consent-given";
  if (!input.site.internal && !categoryAllowed(input.consent, category)) return block("consent-category", enabled(), category);
  if (isProgramCategory(category)) return allow(given);
  const { exclusions } = input.settings;
  if (appIdExcluded(exclusions, category, input.site.appId)) return block("exclusion-app-id", disabled("legal"), input.site.appId);
  if (hostExcluded(exclusions, category, input.page.host)) return block("exclusion-host", disabled("legal"), input.page.host);
  if (category === "marketing") {
    if (input.gpc) return block("gpc", disabled("legal"));
    if (containsUserName(input.page.query, input.userIds)) return block("user-name-in-url", disabled("legal"), "query");
    if (containsUserName(input.page.referrer, input.userIds)) return block("user-name-in-url", disabled("legal"), "referrer");
  }
  return allow(given);
}
