import type { BundleConfig, ModuleName } from "../../generator/config/bundle-config.js";
import type { Commands, SitetagsGlobal, SitetagsWindow } from "./globals";
import type { ModuleFactory, ModuleServices } from "./types";
import { isAuthorizedHost } from "./authorize";
import { createConsentGate } from "./consent";
import { createCookies } from "./cookies";
import { readDebugMode } from "./debug-switch";
import { detectEnvironment } from "./environment";
import { findNonce, createLoadScript } from "./load-script";
import { createLogger, errorText } from "./log";
import {
  ALREADY_LOADED,
  BOOT_FAILED,
  COMMAND_FAILED,
  DYNAMIC_HOST_NOT_ALLOWED,
  MODULE_CONFIG_MISSING,
  MODULE_FAILED,
  NOT_AUTHORIZED,
} from "./messages";
import { createMonitor } from "./monitor";
import { readPage } from "./page";
import { VERSION } from "./version";

export type Factories = Partial<Record<ModuleName, ModuleFactory<any>>>;

/**
 * Starts a bundle: checks the host, then creates each module the bundle
 * holds. Never throws into the page: every failure is caught and logged.
 */
export function boot(config: BundleConfig, factories: Factories): void {
  try {
    start(config, factories, window as SitetagsWindow);
  } catch (e) {
    // Even the logger failed; nothing more can be done quietly.
  }
}

function start(config: BundleConfig, factories: Factories, win: SitetagsWindow): void {
  const monitor = createMonitor(win);
  const log = createLogger(monitor, readDebugMode(win));
  try {
    const doc = win.document;
    const loc = win.location;
    const page = readPage(loc, doc);
    const env = detectEnvironment(page.host, config.hosts, config.envFallback, config.defaultEnv);

    if (!isAuthorizedHost(page.host, config.env, config.hosts)) {
      log.error(NOT_AUTHORIZED, { host: page.host, site: config.site.code, env: config.env }, DYNAMIC_HOST_NOT_ALLOWED);
      return;
    }
    // Own property only: an element with id="sitetags" shows up on window too, through its prototype.
    if (Object.prototype.hasOwnProperty.call(win, "sitetags")) {
      log.warn(ALREADY_LOADED, { site: config.site.code });
      return;
    }

    const modules: string[] = [];
    const commands: Record<string, Commands> = {};
    const api: SitetagsGlobal = {
      version: VERSION,
      site: config.site.code,
      env,
      get modules() {
        return modules.slice();
      },
      get log() {
        return log.entries.slice();
      },
      commands,
    };
    Object.defineProperty(win, "sitetags", { value: Object.freeze(api), configurable: true });
    monitor.emit("boot", { version: VERSION, site: config.site.code, env, bundleEnv: config.env });

    const services: Omit<ModuleServices<unknown>, "config"> = {
      bundle: config,
      log,
      monitor,
      consent: createConsentGate(config, win, log),
      cookies: createCookies(doc, { hostname: page.host, protocol: loc.protocol, apexDomain: config.apexDomain }),
      page,
      loadScript: createLoadScript(doc, findNonce(doc)),
    };

    for (const name of Object.keys(factories) as ModuleName[]) {
      const factory = factories[name];
      const moduleConfig = config.modules[name];
      if (!factory || (moduleConfig && moduleConfig.enabled === false)) continue;
      if (!moduleConfig) {
        log.warn(MODULE_CONFIG_MISSING, { module: name });
        continue;
      }
      try {
        const instance = factory({ ...services, config: moduleConfig });
        modules.push(name);
        if (instance && instance.commands) commands[name] = guardCommands(instance.commands, name, log);
        monitor.emit("module", { module: name });
      } catch (e) {
        log.error(MODULE_FAILED, { module: name, error: errorText(e) });
      }
    }
    Object.freeze(commands);
  } catch (e) {
    log.error(BOOT_FAILED, errorText(e));
  }
}

/** The module's commands, each wrapped so that a failure is logged instead of thrown into the caller. */
function guardCommands(source: Commands, module: string, log: { error(message: string, data?: unknown): void }): Commands {
  const guarded: Commands = {};
  for (const name of Object.keys(source)) {
    const command = source[name];
    guarded[name] = (...args) => {
      try {
        return command(...args);
      } catch (e) {
        log.error(COMMAND_FAILED, { module, command: name, error: errorText(e) });
        return undefined;
      }
    };
  }
  return Object.freeze(guarded);
}
