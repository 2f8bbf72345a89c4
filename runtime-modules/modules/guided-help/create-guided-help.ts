import type { TagFamilyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { errorText } from "../../core/log";
import { COMMAND_FAILED, GUIDANCE_WIDGET_NOT_AVAILABLE, NO_APPCUES_OBJECT } from "../../core/messages";
import { guidedHelpPush, type GuidedHelpSettings } from "./flow-events";

/** The command listing what the vendor's events became; also the module's marker (module.ts). */
const COMMAND = "guidedHelpPushes";

type Vendor = { on?: unknown; identify?: unknown };

/**
 * The guided-help vendor (family `guidedHelp` of the declared tags,
 * docs/tags.md; spec sections 3 and 8). Once the gate lets the tag load, its
 * vendor object (`api`) is looked for every `pollInterval` ms for `timeout`
 * ms; if it never arrives (its script blocked, failed or without it):
 * "guidance widget not available". When it does, the bundle listens to every
 * vendor event (`on(listen, handler)`) and pushes each flow or survey event
 * the settings name to the data layer as `guided-help` or
 * `guided-help-survey` (flow-events.ts), which the site's YAML records
 * consume: one record per flow event, one event per flag, a flow error also
 * an application error with type AppCues. The step time spent runs from the
 * step's start (its step-impression event) to its time-spent event, in
 * tenths of a second. A vendor event never throws into the vendor or the
 * page. Command: `guidedHelpPushes()`.
 *
 * Command `guidedHelpIdentify(id, properties)`, for a YAML rule (a command
 * action with the identity's data elements): the signed-in visitor is
 * identified to the vendor (`identify(id, properties)`) once it is there,
 * at once if it already is. No id (an anonymous visitor, an empty value), a
 * vendor without `identify`, or a vendor that never arrives while an
 * identify waits: "no appcues object or identified variables".
 */
export function createGuidedHelp(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { win, log, monitor, dataLayer } = services;
  const w = win as unknown as Record<string, Vendor | undefined>;
  const pushes: Array<Record<string, unknown>> = [];
  /** The vendors found so far, and the identify call waiting for them. */
  const found: Vendor[] = [];
  let identity: [id: string, properties: unknown] | undefined;
  const identify = (api: Vendor) => {
    if (!identity) return;
    if (typeof api.identify !== "function") return log.warn(NO_APPCUES_OBJECT, { id: identity[0] });
    try {
      (api.identify as (id: string, properties: unknown) => void)(identity[0], identity[1]);
      monitor.emit("guidedHelp", { state: "identified", id: identity[0] });
    } catch (e) {
      log.error(COMMAND_FAILED, { command: "guidedHelpIdentify", error: errorText(e) });
    }
  };
  /** When each flow's step started (flowId and step), ms. */
  const steps: Record<string, number> = {};

  const listen = (code: string, api: Vendor, o: GuidedHelpSettings) => {
    (api.on as (name: string, handler: (name: string, event: unknown) => void) => void)(o.listen, (name, event) => {
      try {
        const e = (event || {}) as Record<string, unknown>;
        const t = typeof e.timestamp === "number" ? e.timestamp : Date.now();
        const key = e.flowId + "|" + e.stepId;
        const flag = o.flowEvents[name];
        if (flag === "stepImpression") steps[key] = t;
        const push = guidedHelpPush(name, e, o, flag === "timeSpent" && steps[key] !== undefined ? t - steps[key] : undefined);
        if (!push) return;
        pushes.push(push);
        monitor.emit("guidedHelp", { tag: code, vendorEvent: name, push });
        dataLayer.push(push);
      } catch (err) {
        log.error(COMMAND_FAILED, { tag: code, vendorEvent: name, error: errorText(err) });
      }
    });
    monitor.emit("guidedHelp", { tag: code, state: "listening" });
  };

  services.tagFamilies.guidedHelp = {
    prepare(tag) {
      const o = tag.guidedHelp!;
      const started = Date.now();
      const look = () => {
        const api = w[o.api];
        if (api && typeof api.on === "function") {
          try {
            found.push(api);
            identify(api);
            listen(tag.code, api, o);
          } catch (e) {
            log.error(COMMAND_FAILED, { tag: tag.code, error: errorText(e) });
          }
        } else if (Date.now() - started < o.timeout) win.setTimeout(look, o.pollInterval);
        else {
          log.warn(GUIDANCE_WIDGET_NOT_AVAILABLE, { tag: tag.code, api: o.api, ms: o.timeout });
          if (identity) log.warn(NO_APPCUES_OBJECT, { tag: tag.code, id: identity[0] });
          monitor.emit("guidedHelp", { tag: tag.code, state: "unavailable" });
        }
      };
      win.setTimeout(look, o.pollInterval);
      return true;
    },
  };

  const commands: Record<string, (...args: unknown[]) => unknown> = {};
  commands[COMMAND] = () => pushes.slice();
  commands.guidedHelpIdentify = (id?: unknown, properties?: unknown) => {
    if (typeof id !== "string" || !id) return void log.warn(NO_APPCUES_OBJECT, { id });
    identity = [id, properties || {}];
    found.forEach(identify);
  };
  return { commands };
}
