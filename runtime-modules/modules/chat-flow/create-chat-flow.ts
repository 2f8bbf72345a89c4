import type { ResolvedTag, TagFamilyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { regexMatches } from "../../core/match-page";
import { isValidSelector } from "../../core/selector";
import { errorText } from "../../core/log";
import {
  CHAT_FLOW_ALREADY_SHOWN,
  CHAT_FLOW_OPTIONS_INVALID,
  CHAT_FLOW_RATE_LIMITED,
  COMMAND_FAILED,
  NEED_READY_FUNCTION,
  NEED_VALID_DOM_SELECTOR,
  NO_TRIGGER_ELEMENT,
  PATH_DOES_NOT_MATCH_ROUTE,
  READY_TIMEOUT,
  SELECTOR_NOT_VALID,
  timedOutAfter,
  WIDGET_NOT_LOADED,
} from "../../core/messages";
import { chatFlowProblems, isExitIntent, type ChatFlowSettings } from "./popup";

/** The command opening the popup from the page; also the module's marker (module.ts). */
const COMMAND = "chatFlowPopup";

type Vendor = Record<string, unknown> & { ready?: unknown };

/**
 * The chat-flow popup (family `chatFlow` of the declared tags,
 * docs/tags.md; spec sections 5, 8 and 9). The tag's script (the chat
 * vendor's) loads on the paths its route pattern matches (skipped with
 * "current path does not match the route pattern" elsewhere); once it has,
 * the trigger is armed: exit intent (the mouse within `exitThreshold` px of
 * the top, moving upward), a click on `selector` (awaited `elementWait` ms),
 * or the load itself. A trigger shows the popup after `delay` ms unless the
 * cookie (`widget_shown`, path /, `cookieDays`) says it has shown, or the
 * last trigger was within `rateLimit` ms: the vendor's object is looked for
 * `retries` times `retryInterval` apart (by default the bundle's
 * timing.retryAttempts and timing.retryInterval; the trigger element's wait
 * timing.elementWait), its ready(callback) awaited
 * `readyTimeout` ms, then its `showCommand` is called with the flow id and
 * the cookie written. Every failure is logged, never thrown. Commands:
 * `chatFlowPopup(options?)` (the page's options over the tag's settings,
 * validated: "errors are logged and the popup skipped"; with `trigger:
 * "click"` and a `selector` it arms the popup on the page's element instead
 * of showing it), `chatFlowShown()`.
 */
export function createChatFlow(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { win, cookies, log, page, monitor, bundle } = services;
  const timing = bundle.timing;
  const doc = win.document;
  const w = win as unknown as Record<string, Vendor | undefined>;
  const shown: string[] = [];
  const ready: Record<string, boolean> = {};
  let last = -1e15;

  const show = (code: string, o: ChatFlowSettings) => {
    let attempts = 0;
    const attempt = () => {
      const api = w[o.api];
      if (!api) {
        if (++attempts < (o.retries || timing.retryAttempts)) win.setTimeout(attempt, o.retryInterval ?? timing.retryInterval);
        else log.warn(timedOutAfter(attempts), { tag: code });
        return;
      }
      if (typeof api.ready !== "function") return log.error(NEED_READY_FUNCTION, { tag: code });
      if (cookies.get(o.cookie)) return log.info(CHAT_FLOW_ALREADY_SHOWN, { tag: code });
      let state = 0;
      const timer = win.setTimeout(() => {
        if (!state++) log.warn(READY_TIMEOUT, { tag: code, ms: o.readyTimeout });
      }, o.readyTimeout);
      (api.ready as (callback: () => void) => void)(() => {
        if (state++) return;
        win.clearTimeout(timer);
        try {
          (api[o.showCommand] as (flowId: string) => void)(o.flowId);
        } catch (e) {
          return log.error(COMMAND_FAILED, { tag: code, error: errorText(e) });
        }
        cookies.set(o.cookie, "1", o.cookieDays ? { maxAgeSeconds: o.cookieDays * 86400 } : undefined);
        shown.push(o.flowId);
        monitor.emit("chatFlow", { tag: code, flowId: o.flowId });
      });
    };
    attempt();
  };

  /** A trigger: the spec's checks, then the popup after its delay; false when skipped. */
  const popup = (code: string, o: ChatFlowSettings): boolean => {
    const problems = chatFlowProblems(o);
    let why = problems.length ? CHAT_FLOW_OPTIONS_INVALID : "";
    if (!why && o.routePattern !== false && !regexMatches(o.routePattern, page.path)) why = PATH_DOES_NOT_MATCH_ROUTE;
    if (!why && cookies.get(o.cookie)) why = CHAT_FLOW_ALREADY_SHOWN;
    const t = Date.now();
    if (!why && t - last < o.rateLimit) why = CHAT_FLOW_RATE_LIMITED;
    if (why) {
      log[problems.length ? "error" : "info"](why, { tag: code, problems, path: page.path });
      return false;
    }
    last = t;
    win.setTimeout(() => show(code, o), o.delay);
    return true;
  };

  services.tagFamilies.chatFlow = {
    skip: (tag) => {
      const route = tag.chatFlow!.routePattern;
      return route === false || regexMatches(route, page.path) ? undefined : PATH_DOES_NOT_MATCH_ROUTE;
    },
    loaded(tag) {
      const o = tag.chatFlow!;
      const code = tag.code;
      ready[code] = true;
      if (o.trigger === "load") return void popup(code, o);
      if (o.trigger === "exitIntent") {
        let previous: number | undefined;
        const move = (e: MouseEvent) => {
          if (isExitIntent(e.clientY, previous, o.exitThreshold)) popup(code, o);
          previous = e.clientY;
        };
        doc.addEventListener("mousemove", move);
        doc.addEventListener("mouseout", move);
        return;
      }
      arm(code, o);
    },
  };

  /**
   * The click trigger: `selector` (the tag's, checked at build time, or the
   * page's, given to the command) awaited `elementWait` ms. A selector that is
   * not a non-empty string: "need a valid DOM selector"; one that does not
   * parse: "selector not valid". False when not armed.
   */
  const arm = (code: string, o: ChatFlowSettings): boolean => {
    const selector = o.selector;
    const why = typeof selector !== "string" || !selector.trim() ? NEED_VALID_DOM_SELECTOR : isValidSelector(doc, selector) ? "" : SELECTOR_NOT_VALID;
    if (why) {
      log.warn(why, { tag: code, selector });
      return false;
    }
    const started = Date.now();
    const find = () => {
      const element = doc.querySelector(selector as string);
      if (element) element.addEventListener("click", () => popup(code, o));
      else if (Date.now() - started < (o.elementWait ?? timing.elementWait)) win.setTimeout(find, o.retryInterval ?? timing.retryInterval);
      else log.warn(NO_TRIGGER_ELEMENT, { tag: code, selector });
    };
    find();
    return true;
  };

  const tags = ((bundle.modules.tags && bundle.modules.tags.tags) || []).filter((t: ResolvedTag) => t.chatFlow);
  const commands: Record<string, (...args: unknown[]) => unknown> = {
    chatFlowShown: () => shown.slice(),
  };
  commands[COMMAND] = (options?: unknown) => {
    const tag = tags[0];
    if (!tag || !ready[tag.code]) {
      log.warn(WIDGET_NOT_LOADED, { tag: tag && tag.code });
      return false;
    }
    const o = { ...tag.chatFlow!, ...(options as Partial<ChatFlowSettings>) };
    // The page's own click trigger: armed on its selector rather than shown at once.
    return options && (options as ChatFlowSettings).trigger === "click" ? arm(tag.code, o) : popup(tag.code, o);
  };
  return { commands };
}
