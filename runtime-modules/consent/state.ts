import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { GroupIds } from "./active-groups";
import { groupsGrant, hasRequiredGroup, parseActiveGroups } from "./active-groups";

/** Where the banner is: not there yet, loaded (showing or not), closed by the visitor, or failed (timeout, error, config, skipped). */
export type BannerPhase = "waiting" | "loaded" | "closed" | "failed";

/** Why the banner did not deliver: its script failed, the startup wait ran out, a failed config check, or a skip rule. */
export type BannerFailure = "error" | "timeout" | "config" | "skipped";

export interface ConsentState {
  /** Banner group ids per category (config consent.groups). */
  ids: GroupIds;
  /** "full consent on internal sites"; absorbing. */
  internal: boolean;
  banner: BannerPhase;
  failure?: BannerFailure;
  /** The banner's last active groups; null until it reports any. */
  groups: string[] | null;
  /** The visitor closed the banner: their choice is explicit. */
  decided: boolean;
}

export type ConsentEvent =
  | { type: "banner-loaded" }
  | { type: "groups-updated"; groups: unknown }
  | { type: "banner-closed" }
  | { type: "banner-failed"; reason: BannerFailure }
  | { type: "internal-site" };

/** "pre-opt-in (performance, functional, marketing all off), opt-in from the banner, or full consent on internal sites" */
export type ConsentMode = "pre-opt-in" | "opted-in" | "full";

export function initialConsentState(ids: GroupIds): ConsentState {
  return { ids, internal: false, banner: "waiting", groups: null, decided: false };
}

/**
 * The banner consent state machine. Pure: returns a new state (or the same
 * one when nothing changes). An internal site is full consent for good;
 * banner events after it change nothing. A failure never grants anything: it
 * only ends the wait (groups reported before it stay as they were). Groups
 * may arrive after a failure (late banner) and are taken as reported.
 */
export function consentReducer(state: ConsentState, event: ConsentEvent): ConsentState {
  if (state.internal) return state;
  switch (event.type) {
    case "internal-site":
      return { ...state, internal: true, failure: undefined };
    case "banner-loaded":
      return state.banner === "waiting" || state.banner === "failed" ? { ...state, banner: "loaded", failure: undefined } : state;
    case "groups-updated":
      return { ...state, groups: parseActiveGroups(event.groups), banner: state.banner === "closed" ? "closed" : "loaded", failure: undefined };
    case "banner-closed":
      return { ...state, banner: "closed", decided: true, failure: undefined };
    case "banner-failed":
      return state.banner === "closed" ? state : { ...state, banner: "failed", failure: event.reason };
    default:
      return state;
  }
}

/** "a tag runs only if consent for its category is given"; internal sites always allow. */
export function categoryAllowed(state: ConsentState, category: ConsentCategory): boolean {
  return state.internal || (state.groups !== null && groupsGrant(state.groups, state.ids, category));
}

export function consentMode(state: ConsentState): ConsentMode {
  if (state.internal) return "full";
  return state.groups !== null && hasRequiredGroup(state.groups, state.ids) ? "opted-in" : "pre-opt-in";
}

/** "internal sites skip waiting"; elsewhere the startup waits until the banner reports, closes or fails. */
export function isWaitingForBanner(state: ConsentState): boolean {
  return !state.internal && state.groups === null && state.banner !== "failed" && state.banner !== "closed";
}
