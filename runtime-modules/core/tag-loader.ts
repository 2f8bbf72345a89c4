import type { ResolvedTag } from "../../generator/config/bundle-config.js";
import type { ModuleServices } from "./types";
import type { Lifecycle } from "./lifecycle";
import { onDomReady } from "./dom-ready";
import { errorText } from "./log";
import { firePixel } from "./fire-pixel";
import { MODULE_CONFIG_MISSING, SCRIPT_EMBEDDING_FAILED, TAG_EXCLUDED_APP_ID, TAG_LOADED, TAG_SAMPLED_OUT } from "./messages";

/**
 * The generic loaders of the declared tags (`tags:`, docs/tags.md): a script
 * with the page's CSP nonce, a 1x1 image, a hidden iframe, and a vendor's
 * global queue stub; and the hooks through which a family's module (rum,
 * beacon, ad-tracker, …), registered in the injected family registry
 * (`services.tagFamilies`), adds its vendor behaviour to the tags that
 * declare it.
 * Imported by the tag modules only (runtime-modules/modules/tags and the
 * families): a bundle without declared tags carries none of it.
 */
export type TagServices = Pick<ModuleServices<unknown>, "log" | "monitor" | "consent" | "loadScript" | "win" | "bundle" | "page" | "sampling" | "tagFamilies">;

type AnyWindow = Record<string, unknown>;
type QueueStub = { (...args: unknown[]): void; q?: unknown[] };

/** Runs `fn` at a page milestone: at once for page top; at DOM ready; at window load (at once when already past). */
export function atLifecycle(win: Window, lifecycle: Lifecycle, fn: () => void): void {
  const doc = win.document;
  if (lifecycle === "pageTop") fn();
  else if (lifecycle === "domReady") onDomReady(doc, fn);
  else if (doc.readyState === "complete") fn();
  else win.addEventListener("load", fn, { once: true });
}

/**
 * A vendor's global queue stub, for tags that expect a queue before their
 * script arrives: an array, or a function that queues its calls on `.q`. A
 * global the page (or the vendor) already set is left alone.
 */
export function installQueue(win: Window, queue: NonNullable<ResolvedTag["queue"]>): void {
  const w = win as unknown as AnyWindow;
  if (w[queue.global]) return;
  if (queue.kind === "array") {
    w[queue.global] = [];
    return;
  }
  const stub: QueueStub = function () {
    // The vendor's script replays the queued calls' arguments as they were made.
    // eslint-disable-next-line prefer-rest-params
    (stub.q = stub.q || []).push(arguments);
  };
  w[queue.global] = stub;
}

/** The tag's settings on this host: `settings`, with the host's entry of `hostSettings` over them. */
export function settingsFor(tag: Pick<ResolvedTag, "settings" | "hostSettings">, host: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sources = [tag.settings, tag.hostSettings && tag.hostSettings[host]];
  for (const source of sources) if (source) for (const key of Object.keys(source)) out[key] = source[key];
  return out;
}

/** Injects the tag: its script (nonce, data- attributes), image or frame. */
export function injectTag(services: Pick<TagServices, "win" | "loadScript">, tag: ResolvedTag): Promise<void> {
  if (tag.kind === "script") return services.loadScript(tag.src, { id: "sitetags-tag-" + tag.code, attributes: tag.attributes });
  return firePixel(services.win.document, tag.src, tag.kind === "pixel" ? "image" : "iframe");
}

/**
 * Loads one declared tag exactly once per page: not on an excluded
 * application id; then through the consent gate (cb-disable-{code},
 * synthetics, allow-list, stored status, the category's consent, exclusion
 * lists, GPC, user names in the URL), at its lifecycle point. Consent
 * withdrawn between the grant and that point: it waits for consent again.
 * A tag of a family goes through its family's hook: `skip` before the gate,
 * `prepare` just before it loads (false stops it), `loaded` once it has. A
 * sampled tag (`sampled`) runs only when the host's sampling rate takes this
 * visitor (services.sampling, decided once consent allows the tag: its
 * cookie is written only then); the decision, with the rate, goes with the
 * tag's monitor event. Failures are logged, never thrown.
 */
export function loadTag(services: TagServices, tag: ResolvedTag): void {
  const { log, monitor, consent, win } = services;
  const appId = services.bundle.site.appId;
  const hook = tag.family ? services.tagFamilies[tag.family] : undefined;
  if (tag.family && !hook) {
    log.error(MODULE_CONFIG_MISSING, { tag: tag.code, module: tag.family });
    return;
  }
  if (tag.excludeAppIds && tag.excludeAppIds.indexOf(appId) >= 0) {
    log.info(TAG_EXCLUDED_APP_ID, { tag: tag.code, appId });
    monitor.emit("tag", { tag: tag.code, state: "blocked", reason: "exclusion-app-id", consent: tag.category, detail: appId });
    return;
  }
  const why = hook && hook.skip && hook.skip(tag);
  if (why) {
    log.info(why, { tag: tag.code });
    monitor.emit("tag", { tag: tag.code, state: "skipped", reason: why });
    return;
  }
  let done = false;
  const run = () => {
    if (done) return;
    if (!consent.allows(tag.category)) return gate();
    done = true;
    let sampling: { rate: number; sampledIn: boolean } | undefined;
    if (tag.sampled) {
      const s = services.sampling!;
      sampling = { rate: s.rate, sampledIn: s.sampledIn() };
      if (!sampling.sampledIn) {
        log.info(TAG_SAMPLED_OUT, { tag: tag.code, rate: s.rate });
        monitor.emit("tag", { tag: tag.code, state: "skipped", reason: "sampled-out", sampling });
        return;
      }
    }
    if (hook && hook.prepare && !hook.prepare(tag)) return;
    if (tag.settingsGlobal) (win as unknown as AnyWindow)[tag.settingsGlobal] = settingsFor(tag, services.page.host);
    if (tag.queue) installQueue(win, tag.queue);
    monitor.emit("tag", { tag: tag.code, state: "loading", src: tag.src, lifecycle: tag.lifecycle, sampling });
    injectTag(services, tag).then(
      () => {
        log.info(TAG_LOADED, { tag: tag.code, src: tag.src });
        monitor.emit("tag", { tag: tag.code, state: "loaded" });
        if (hook && hook.loaded) hook.loaded(tag);
      },
      (e) => {
        log.error(SCRIPT_EMBEDDING_FAILED, { tag: tag.code, src: tag.src, error: errorText(e) });
        monitor.emit("tag", { tag: tag.code, state: "failed" });
      },
    );
  };
  const gate = () => consent.whenTagAllowed(tag.code, tag.category, () => atLifecycle(win, tag.lifecycle, run));
  gate();
}
