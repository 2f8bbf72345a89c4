import type { FunnelFlow, FunnelRoute } from "../../../generator/config/schemas/feature-modules.js";

/**
 * SAT registration flows and their pages (spec section 2). Page names are
 * site:flow:page. "The photo pages" are the new registration's eight.
 */
export const FUNNEL_FLOWS = {
  newreg: [
    "start",
    "profile-start",
    "profile-personalinfo",
    "profile-demographics",
    "profile-sdq",
    "datetc-start",
    "terms",
    "datetc-chooseregion",
    "datetc-choosetest",
    "datetc-choosedate",
    "datetc-choosecenter",
    "datetc-accept",
    "datetc-complete",
    "photo-start",
    "photo-review",
    "photo-instructions",
    "photo-upload",
    "photo-uploadadjust",
    "photo-checklist",
    "photo-accept",
    "photo-complete",
    "order-crosssell",
    "order-review",
    "order-accept",
    "order-complete",
    "incomplete-dashboard",
  ],
  "satreg-ticket": ["view"],
  changereg: [
    "terms",
    "dashboard",
    "profile-start",
    "profile-personalinfo",
    "datetc-choosecenter",
    "datetc-accept",
    "datetc-seat-unavailable",
    "photo-start",
    "photo-review",
    "photo-instructions",
    "photo-upload",
    "photo-uploadadjust",
    "photo-checklist",
    "photo-accept",
    "photo-complete",
    "order-review",
    "order-accept",
    "order-complete",
  ],
  cancelreg: ["order-review", "order-complete"],
  answersvc: ["order-review", "order-complete"],
  satregconc: [
    "start",
    "confirm-info",
    "datetc-start",
    "terms",
    "datetc-choosedate",
    "photo-start",
    "photo-review",
    "photo-instructions",
    "photo-upload",
    "photo-uploadadjust",
    "photo-checklist",
    "photo-accept",
    "photo-complete",
    "order-review",
    "order-complete",
  ],
} as const;

export type { FunnelFlow };

export interface FunnelPage {
  flow: FunnelFlow;
  page: string;
}

/** Whether the flow exists and lists the page. */
export function isFunnelPage(flow: string, page: string): flow is FunnelFlow {
  return Object.prototype.hasOwnProperty.call(FUNNEL_FLOWS, flow) && (FUNNEL_FLOWS[flow as FunnelFlow] as readonly string[]).indexOf(page) >= 0;
}

/** site:flow:page, e.g. "satreg:newreg:start", "satreg:satreg-ticket:view"; null when the flow does not have that page. */
export function funnelPageName(site: string, flow: string, page: string): string | null {
  return isFunnelPage(flow, page) ? site + ":" + flow + ":" + page : null;
}

/**
 * The flow and page of a path, by the site's route table (tried in order; a
 * route's path matches itself and everything below it, case-insensitively).
 * A route without a fixed page takes the rest of the path, segments joined
 * by "-" (/register/datetc/choosecenter → datetc-choosecenter; nothing left →
 * start). Null when no route matches or the flow has no such page.
 */
export function funnelPageFromPath(path: string, routes: readonly FunnelRoute[]): FunnelPage | null {
  const p = (path || "").toLowerCase().replace(/\/+$/, "");
  for (const route of routes) {
    const base = route.path.toLowerCase().replace(/\/+$/, "");
    if (p === base || p.indexOf(base + "/") === 0) {
      const page =
        route.page ||
        p
          .slice(base.length + 1)
          .split("/")
          .filter(Boolean)
          .join("-") ||
        "start";
      return isFunnelPage(route.flow, page) ? { flow: route.flow, page } : null;
    }
  }
  return null;
}
