import type { ResolvedTag, TagFamilyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { installQueue, settingsFor } from "../../core/tag-loader";
import { errorText } from "../../core/log";
import { COMMAND_FAILED } from "../../core/messages";

/** The command listing the calls made, per tag; also the module's marker (module.ts). */
const COMMAND = "pushNotificationsCalls";

/**
 * Push notifications (family `pushNotifications` of the declared tags,
 * docs/tags.md): once the gate allows a push tag (marketing consent, DOM
 * ready), the vendor's window queue is installed (an array its script
 * replays) and given the init call, [initCommand, { appId, ...the tag's
 * settings on this host }], then the page-view call, [pageViewCommand,
 * { path }]; each later data-layer page-view (a single-page application's
 * view) is one more page-view call while consent allows. Command:
 * `pushNotificationsCalls()`: tag code → the calls made.
 *
 * A data-layer page-view pushed before the tag has loaded (the visitor has
 * not granted its consent yet, or its DOM-ready point has not come) waits,
 * with its path, and is called right after the load's page view (at most 50
 * wait); once the category has been granted and is withdrawn, what waits is
 * dropped and nothing more waits, so a refused or withdrawn consent never
 * delivers it.
 */
export function createPushNotifications(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { win, consent, dataLayer, log, page, bundle } = services;
  const calls: Record<string, unknown[][]> = {};
  const tags = ((bundle.modules.tags && bundle.modules.tags.tags) || []).filter((t) => t.pushNotifications);
  /** Per tag: the paths of the page views waiting for it to load; granted: its category has been granted on this page. */
  const waiting: Record<string, string[]> = {};
  const granted: Record<string, boolean> = {};
  /** True when the tag's category was granted and is withdrawn now: what waits for it is dropped. */
  const withdrawn = (tag: ResolvedTag): boolean => {
    if (consent.allows(tag.category)) granted[tag.code] = true;
    else if (granted[tag.code]) {
      waiting[tag.code] = [];
      return true;
    }
    return false;
  };
  for (const tag of tags) waiting[tag.code] = [];
  consent.onChange(() => tags.forEach(withdrawn));
  const call = (tag: ResolvedTag, args: unknown[]) => {
    calls[tag.code].push(args);
    try {
      (win as unknown as Record<string, { push(a: unknown): void }>)[tag.pushNotifications!.global].push(args);
    } catch (e) {
      log.error(COMMAND_FAILED, { tag: tag.code, error: errorText(e) });
    }
  };
  const pageView = (tag: ResolvedTag, path: string) => call(tag, [tag.pushNotifications!.pageViewCommand, { path }]);
  dataLayer.on((_, event) => {
    if (event !== "page-view") return;
    const path = win.location.pathname;
    for (const tag of tags) {
      if (calls[tag.code]) {
        if (consent.allows(tag.category)) pageView(tag, path);
      } else if (!withdrawn(tag) && waiting[tag.code].length < 50) waiting[tag.code].push(path);
    }
  });
  services.tagFamilies.pushNotifications = {
    prepare(tag) {
      const settings = tag.pushNotifications!;
      installQueue(win, { global: settings.global, kind: "array" });
      calls[tag.code] = [];
      const init: Record<string, unknown> = { appId: settings.appId };
      const own = settingsFor(tag, page.host);
      for (const key of Object.keys(own)) init[key] = own[key];
      call(tag, [settings.initCommand, init]);
      pageView(tag, win.location.pathname);
      for (const path of waiting[tag.code].splice(0)) pageView(tag, path);
      return true;
    },
  };
  const commands: Record<string, () => unknown> = {};
  commands[COMMAND] = () => JSON.parse(JSON.stringify(calls));
  return { commands };
}
