import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { LoadScriptOptions, ModuleServices } from "./types";
import { onDomReady } from "./dom-ready";
import { errorText } from "./log";
import { SCRIPT_EMBEDDING_FAILED, TAG_LOADED, TAGS_EMBED_SKIPPED_NO_CONSENT } from "./messages";

type TagServices = Pick<ModuleServices<unknown>, "log" | "monitor" | "consent" | "loadScript">;

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
 * Loads a tag's script once its consent category is allowed and the DOM is
 * ready: "tags embed skipped when consent not given" until then. Failures
 * are logged ("script embedding failed"), never thrown.
 */
export function embedTag(
  services: TagServices,
  tag: string,
  category: ConsentCategory,
  src: string,
  options: LoadScriptOptions,
  onLoaded: () => void,
): void {
  const { log, consent, loadScript } = services;
  if (!consent.allows(category)) {
    log.info(TAGS_EMBED_SKIPPED_NO_CONSENT, { tag, consent: category });
    reportTag(services, tag, "waiting", { consent: category });
  }
  consent.whenAllowed(category, () =>
    onDomReady(document, () => {
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
    }),
  );
}
