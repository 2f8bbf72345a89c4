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
 */
export function createPushNotifications(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { win, consent, dataLayer, log, page } = services;
  const calls: Record<string, unknown[][]> = {};
  const prepared: ResolvedTag[] = [];
  const call = (tag: ResolvedTag, args: unknown[]) => {
    calls[tag.code].push(args);
    try {
      (win as unknown as Record<string, { push(a: unknown): void }>)[tag.pushNotifications!.global].push(args);
    } catch (e) {
      log.error(COMMAND_FAILED, { tag: tag.code, error: errorText(e) });
    }
  };
  const pageView = (tag: ResolvedTag) => call(tag, [tag.pushNotifications!.pageViewCommand, { path: win.location.pathname }]);
  dataLayer.on((_, event) => {
    if (event !== "page-view") return;
    for (const tag of prepared) if (consent.allows(tag.category)) pageView(tag);
  });
  services.tagFamilies.pushNotifications = {
    prepare(tag) {
      const settings = tag.pushNotifications!;
      installQueue(win, { global: settings.global, kind: "array" });
      calls[tag.code] = [];
      prepared.push(tag);
      const init: Record<string, unknown> = { appId: settings.appId };
      const own = settingsFor(tag, page.host);
      for (const key of Object.keys(own)) init[key] = own[key];
      call(tag, [settings.initCommand, init]);
      pageView(tag);
      return true;
    },
  };
  const commands: Record<string, () => unknown> = {};
  commands[COMMAND] = () => JSON.parse(JSON.stringify(calls));
  return { commands };
}
