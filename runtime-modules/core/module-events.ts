import type { Logger } from "./types";
import { errorText } from "./log";
import { MODULE_FAILED } from "./messages";
import { own } from "./own";

/** A module's handler of one data-layer event. */
export type ModuleEventHandler = (push: Record<string, unknown>) => void;

/**
 * A feature module's data-layer listener: each push goes to the handler of
 * its event (other events are ignored); a handler that throws is logged as
 * 'module failed' with the module and the event, and the page carries on.
 */
export function moduleEventListener(log: Logger, module: string, handlers: Record<string, ModuleEventHandler>) {
  return (push: Record<string, unknown>, event: string | undefined): void => {
    const handle = event !== undefined ? own(handlers, event) : undefined;
    if (!handle) return;
    try {
      handle(push);
    } catch (e) {
      log.error(MODULE_FAILED, { module, event, error: errorText(e) });
    }
  };
}
