import type { BundleConfig, ConsentCategory } from "../../generator/config/bundle-config.js";
import type { SitetagsWindow } from "./globals";
import type { ConsentGate, Logger } from "./types";
import { activeGroupsAllow } from "./consent-rule";
import { errorText } from "./log";
import { CONSENT_HOOK_FAILED, MODULE_FAILED } from "./messages";

/** The window event the consent banner fires when the visitor's choice changes. */
export const CONSENT_EVENT = "consent.onetrust";

type ConsentWindow = Pick<SitetagsWindow, "OnetrustActiveGroups" | "OptanonWrapper" | "addEventListener">;

/**
 * A simple consent gate over the OneTrust-style banner globals. Waiting
 * callbacks are re-checked on the banner's `consent.onetrust` window event
 * and from `OptanonWrapper`, which is chained: a wrapper the page set before
 * keeps being called first. Nothing is hooked until something has to wait.
 */
export function createConsentGate(config: Pick<BundleConfig, "consent" | "site">, win: ConsentWindow, log: Logger): ConsentGate {
  const waiting: Array<{ category: ConsentCategory; callback: () => void }> = [];
  let hooked = false;

  function allows(category: ConsentCategory): boolean {
    let groups: string | undefined;
    try {
      groups = win.OnetrustActiveGroups;
    } catch (e) {
      // A hostile or broken banner global counts as no consent given yet.
      log.warn(CONSENT_HOOK_FAILED, errorText(e));
    }
    return activeGroupsAllow(category, groups, config.consent.groups, config.site.internal);
  }

  function run(callback: () => void): void {
    try {
      callback();
    } catch (e) {
      log.error(MODULE_FAILED, errorText(e));
    }
  }

  function recheck(): void {
    for (const item of waiting.slice()) {
      if (allows(item.category)) {
        waiting.splice(waiting.indexOf(item), 1);
        run(item.callback);
      }
    }
  }

  function hook(): void {
    hooked = true;
    try {
      win.addEventListener(CONSENT_EVENT, recheck);
      const previous = win.OptanonWrapper;
      win.OptanonWrapper = function (this: unknown) {
        try {
          if (typeof previous === "function") return previous.apply(this, arguments as unknown as unknown[]);
        } finally {
          recheck();
        }
      };
    } catch (e) {
      log.error(CONSENT_HOOK_FAILED, errorText(e));
    }
  }

  return {
    allows,
    whenAllowed(category, callback) {
      if (allows(category)) return run(callback);
      waiting.push({ category, callback });
      if (!hooked) hook();
    },
  };
}
