import type { ResolvedTag } from "../../../generator/config/bundle-config.js";

/** A chat-flow popup's settings, as the bundle carries them (generator/config/schemas/tags.ts, ChatFlowSettingsSchema). */
export type ChatFlowSettings = NonNullable<ResolvedTag["chatFlow"]>;

/**
 * Section 5: "flow id required; route pattern a regex or false; cookie
 * lifetime and delay not negative". The problems of a popup's options (the
 * page's, given to the command `chatFlowPopup`, over the tag's settings),
 * empty when they are valid; the build checks the tag's own settings.
 */
export function chatFlowProblems(o: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof o.flowId !== "string" || !o.flowId) out.push("flowId is required");
  if (o.routePattern !== false) {
    try {
      if (typeof o.routePattern !== "string") throw 0;
      new RegExp(o.routePattern);
    } catch (e) {
      out.push("routePattern must be a regex or false");
    }
  }
  if (!((o.cookieDays as number) >= 0)) out.push("cookieDays must not be negative");
  if (!((o.delay as number) >= 0)) out.push("delay must not be negative");
  return out;
}

/** "Exit intent: mouse within 5 px of the top moving upward": y within the threshold and above the previous position. */
export function isExitIntent(y: number, previousY: number | undefined, threshold: number): boolean {
  return previousY !== undefined && y < previousY && y <= threshold;
}
