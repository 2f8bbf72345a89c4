import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { LoadScriptOptions, ModuleServices } from "./types";
import { atEarliestLifecycle } from "./lifecycle";
import { errorText } from "./log";
import { SCRIPT_EMBEDDING_FAILED, TAG_LOADED } from "./messages";

type TagServices = Pick<ModuleServices<unknown>, "log" | "monitor" | "consent" | "loadScript" | "win">;

/** Reports a tag's progress to the monitor: `{ type: "tag", tag, state, ... }`. */
export function reportTag(services: Pick<ModuleServices<unknown>, "monitor">, tag: string, state: string, detail?: Record<string, unknown>): void {
  services.monitor.emit("tag", { tag, state, ...detail });
}

/** Logs why a tag does not load on this page and reports it as skipped. */
export function skipTag(services: Pick<ModuleServices<unknown>, "log" | "monitor">, tag: string, message: string, data?: Record<string, unknown>): void {
  services.log.info(message, { tag, ...data });
  reportTag(services, tag, "skipped", { reason: message });
}

/**
 * Loads a tag's script once the consent gate allows it (consent category,
 * exclusion lists, GPC, user names in the URL, cb-disable-{tag}), at its
 * lifecycle point: performance tags at page top, every other category at DOM
 * ready. The gate reports each decision to the monitor with its reason.
 * Failures are logged ("script embedding failed"), never thrown.
 */
export function embedTag(services: TagServices, tag: string, category: ConsentCategory, src: string, options: LoadScriptOptions, onLoaded: () => void): void {
  const { log, consent, loadScript } = services;
  consent.whenTagAllowed(tag, category, () => {
    const load = () => {
      reportTag(services, tag, "loading", { src });
      loadScript(src, options).then(
        () => {
          onLoaded();
          log.info(TAG_LOADED, { tag, src });
          reportTag(services, tag, "loaded");
        },
        (e) => {
          log.error(SCRIPT_EMBEDDING_FAILED, { tag, src, error: errorText(e) });
          reportTag(services, tag, "failed");
        },
      );
    };
    atEarliestLifecycle(services.win.document, category, load);
  });
}
