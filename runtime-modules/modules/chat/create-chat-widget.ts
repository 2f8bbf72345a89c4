import type { ChatModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { embedTag, skipTag } from "../../core/embed-tag";
import { matchesPage } from "../../core/match-page";
import { NO_TRIGGER_ELEMENT, PATH_DOES_NOT_MATCH_ROUTE, SELECTOR_NOT_VALID, TAG_DISABLED, WIDGET_NOT_LOADED } from "../../core/messages";
import { tagDisabled } from "../../core/query-flags";
import { isValidSelector } from "../../core/selector";

/** The chat script's element id; also the module's marker in registry.ts. */
export const CHAT_SCRIPT_ID = "sitetags-chat-widget";
/** Tag code: `?cb-disable-chat` turns the chat off. */
const TAG = "chat";

/**
 * Loads the site's chat widget script on its configured pages, once its
 * consent category (functional by default) is allowed. Commands:
 * `isLoaded()`, and `open()`, the page's chat link: it clicks the launcher
 * element (launcherSelector) once the widget has loaded. A link followed
 * before the widget or its launcher is there is kept timing.widgetLink ms
 * (issue #19), the launcher looked for every timing.retryInterval ms, and
 * clicked when it comes, or the link given up with a log line; open()
 * answers whether it clicked at once.
 */
export function createChatWidget(services: ModuleServices<ChatModuleConfig>): ModuleInstance {
  const { config, log, page, win } = services;
  const doc = win.document;
  let loaded = false;
  let launcher = config.launcherSelector;
  if (launcher && !isValidSelector(doc, launcher)) {
    log.warn(SELECTOR_NOT_VALID, { tag: TAG, selector: launcher });
    launcher = undefined;
  }
  const commands = {
    isLoaded: () => loaded,
    open(): boolean {
      const { retryInterval, widgetLink } = services.bundle.timing;
      const attempt = (left: number) => {
        const element = loaded && launcher && doc.querySelector<HTMLElement>(launcher);
        if (element) element.click();
        else if (left > 0) win.setTimeout(() => attempt(left - retryInterval), retryInterval);
        else log.warn(loaded ? NO_TRIGGER_ELEMENT : WIDGET_NOT_LOADED, { tag: TAG });
        return !!element;
      };
      return attempt(widgetLink);
    },
  };

  if (tagDisabled(page.query, TAG)) skipTag(services, TAG, TAG_DISABLED);
  else if (!matchesPage(page.path, config.pages, config.pagePatterns)) skipTag(services, TAG, PATH_DOES_NOT_MATCH_ROUTE, { path: page.path });
  else {
    const attributes: Record<string, string> = config.deploymentId ? { "data-deployment-id": config.deploymentId } : {};
    embedTag(services, TAG, config.consent, config.scriptSrc, { id: CHAT_SCRIPT_ID, attributes }, () => (loaded = true));
  }
  return { commands };
}
