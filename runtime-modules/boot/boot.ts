import type { BundleConfig, ModuleName } from "../../generator/config/bundle-config.js";
import type { Commands, SitetagsGlobal, SitetagsWindow } from "../core/globals";
import type { ModuleFactory, ModuleServices, PageInfo } from "../core/types";
import { isAuthorizedHost } from "../core/authorize";
import { createConsent } from "../consent/create-consent";
import { createIdentity, type Identity } from "../identity/create-identity";
import { startTracking, type DeferredFile } from "../tracking/start-tracking";
import { createCookieJar, createCookies } from "../core/cookies";
import { readDebugMode } from "../core/debug-switch";
import { detectEnvironment } from "../core/environment";
import { findNonce, createLoadScript } from "../core/load-script";
import { createLogger, errorText } from "../core/log";
import { ALREADY_LOADED, BOOT_FAILED, COMMAND_FAILED, DYNAMIC_HOST_NOT_ALLOWED, MODULE_CONFIG_MISSING, MODULE_FAILED, NOT_AUTHORIZED } from "../core/messages";
import { createMonitor } from "../core/monitor";
import { readPage } from "../core/page";
import { VERSION } from "../core/version";
import { createProvidedValues } from "../core/provided-values";
import { defaultPageName } from "../core/default-page-name";
import { createDataLayer, type PushValidator } from "../rules/data-layer";
import { createDataElements } from "../rules/data-elements";
import { createRuleEngine } from "../rules/engine";
import { connectEvents } from "../rules/events";
import { createAnalytics } from "../edge/create-analytics";
import type { RuleFeatures } from "../rules/features";

// Each factory takes its own module's config type; `any` lets one record hold them all (boot passes each its own config).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Factories = Partial<Record<ModuleName, ModuleFactory<any>>>;

/**
 * `validatePush` checks data-layer pushes against their documented shapes (only non-production entries pass one);
 * `rules`: the condition, action and event-source functions the bundle's rules use (the generated entry's table, rules/features.ts);
 * `deferred`: the bundle's deferred file (web vitals, the link-click handler), loaded after the first page view (tracking/start-tracking.ts).
 */
export type BootOptions = { validatePush?: PushValidator; rules: RuleFeatures; deferred?: DeferredFile };

/**
 * Starts a bundle: checks the host, then creates each module the bundle
 * holds. Never throws into the page: every failure is caught and logged.
 */
export function boot(config: BundleConfig, factories: Factories, options: BootOptions): void {
  try {
    start(config, factories, window as SitetagsWindow, options);
  } catch (e) {
    // Even the logger failed; nothing more can be done quietly.
  }
}

function start(config: BundleConfig, factories: Factories, win: SitetagsWindow, { validatePush, rules, deferred }: BootOptions): void {
  const monitor = createMonitor(win);
  // Boot's cookie reads share one snapshot of document.cookie (see createCookieJar), the debug switch's first.
  const jar = createCookieJar(win.document);
  const release = jar.hold();
  let startedUp = false;
  const log = createLogger(monitor, readDebugMode(win.location.search, jar));
  try {
    const doc = win.document;
    const loc = win.location;
    const page = readPage(loc, doc);
    const env = detectEnvironment(
      page.host,
      config.hosts,
      config.envFallback,
      config.defaultEnv,
      config.envGlobal && (win as unknown as Record<string, unknown>)[config.envGlobal],
    );

    if (!isAuthorizedHost(page.host, config.env, config.hosts)) {
      log.error(NOT_AUTHORIZED, { host: page.host, site: config.site.code, env: config.env }, DYNAMIC_HOST_NOT_ALLOWED);
      return;
    }
    // Own property only: an element with id="sitetags" shows up on window too, through its prototype.
    // A running copy marks the window (and its global has a version); a page's own global of that name is the page's, left alone.
    const own = Object.prototype.hasOwnProperty.call(win, "sitetags") && win.sitetags;
    const mark = Symbol.for("sitetags");
    if ((win as unknown as Record<symbol, unknown>)[mark] || (own && own.version)) {
      log.warn(ALREADY_LOADED, { site: config.site.code });
      return;
    }
    (win as unknown as Record<symbol, unknown>)[mark] = 1;

    const modules: string[] = [];
    let track: (name: string, detail?: unknown) => void = () => undefined;
    const commands: Record<string, Commands> = {};
    /** The same commands unguarded, for the rule engine: it contains a failure itself and reports it as the action's ("failed"; a waiting rule stops). */
    const ruleCommands: Record<string, Commands> = {};
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
      track: (name: string, detail?: unknown) => {
        try {
          track(name, detail);
        } catch (e) {
          log.error(COMMAND_FAILED, { command: "track", error: errorText(e) });
        }
      },
    };
    if (!own) Object.defineProperty(win, "sitetags", { value: Object.freeze(api), configurable: true });
    monitor.emit("boot", { version: VERSION, site: config.site.code, env, bundleEnv: config.env });

    const cookies = createCookies(jar, { hostname: page.host, protocol: loc.protocol, apexDomain: config.apexDomain });
    const loadScript = createLoadScript(doc, findNonce(doc));
    let identity: Identity | undefined;
    const consent = createConsent({ config, win, log, monitor, loadScript, jar, userIds: () => (identity ? identity.userIds() : []) });
    consent.start();
    // The page as it is now: read again only when the address changed (a record asks for it several times).
    let seen: PageInfo | undefined;
    // While a data-layer slice holds the page (pageHolds), the address is compared once: location.href cost a burst of
    // pushes more than a rule (issue #21). Only our own rules run in a slice; the page's own code runs between slices.
    let pageHolds = 0;
    let pageChecked = false;
    const currentPage = () => {
      if (!pageChecked) {
        pageChecked = pageHolds > 0;
        if (!(seen && seen.href === loc.href)) seen = readPage(loc, doc);
      }
      return seen!;
    };
    const values = createProvidedValues({
      site: config.site.code,
      siteName: config.site.name,
      appId: config.site.appId,
      env,
      bundleVersion: VERSION,
      loggedIn: false,
    });
    identity = createIdentity({ config, win, cookies, consent, values, log, monitor, loadScript, dataLayer: () => dataLayer, credentials: rules.credentials });
    const startup = identity.ready;
    // Only in bundles with a sampled tag (rules.sampling, generator/bundle/features.ts): the others carry none of it.
    const sampling = rules.sampling && rules.sampling.createSampling({ config, cookies, host: page.host, log, random: Math.random });
    const dataLayer = createDataLayer(win as unknown as Record<string, unknown>, config.dataLayerName, log, monitor, validatePush, () => {
      const release = jar.hold();
      pageHolds++;
      return () => {
        if (!--pageHolds) pageChecked = false;
        release();
      };
    });
    // Before the rules' listener: a rule on the identity push already sees the merged identity.
    dataLayer.on(identity.push);
    const dataElements = createDataElements(config.dataElements, {
      page: currentPage,
      cookies,
      dataLayer,
      win,
      provided: values.get,
      log,
      lists: rules.elements?.lists,
    });
    const analytics = createAnalytics({
      config,
      consent,
      cookies,
      cookieJar: jar,
      log,
      monitor,
      page: currentPage,
      win,
      pageName: () => (values.get("pageName") as string) || defaultPageName(config, currentPage().path),
      features: rules.edge,
    });
    analytics.start();
    const services: Omit<ModuleServices<unknown>, "config"> = {
      win,
      bundle: config,
      log,
      monitor,
      consent,
      cookies,
      page,
      loadScript,
      values,
      dataLayer,
      analytics,
      sampling,
      tagFamilies: {},
    };
    // "consent changes are tracked as privacy consent change events (status, region, type, action source)"
    const consentVars = config.analyticsVariables.consentChange;
    consent.onPrivacyChange((changes) => {
      for (const c of changes)
        analytics.event({
          name: "privacy consent change",
          eventType: "kiwi.privacyConsentChange",
          linkType: "other",
          variables: {
            [consentVars.status]: c.status,
            [consentVars.type]: c.type,
            [consentVars.region]: c.region,
            [consentVars.actionSource]: c.actionSource,
          },
        });
    });

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
        if (instance && instance.commands) {
          commands[name] = guardCommands(instance.commands, name, log);
          ruleCommands[name] = instance.commands;
        }
        monitor.emit("module", { module: name });
      } catch (e) {
        log.error(MODULE_FAILED, { module: name, error: errorText(e) });
      }
    }
    Object.freeze(commands);
    startTracking(services, commands, deferred);

    // Rules last, so that module commands and provided values exist.
    const engine = createRuleEngine(config.rules, {
      conditions: {
        page: currentPage,
        cookie: cookies.get,
        dataElement: dataElements.get,
        consent: consent.allows,
        env: config.env,
        loggedIn: () => values.get("loggedIn") === true,
        random: Math.random,
        table: rules.conditions,
      },
      actions: { analytics, consent, loadScript, dataElements, pushDataLayer: dataLayer.push, commands: ruleCommands, doc, cookies, table: rules.actions },
      log,
      monitor,
      timeout: config.timing.ruleTimeout,
      setTimeout: (fn, ms) => win.setTimeout(fn, ms),
      clearTimeout: (handle) => win.clearTimeout(handle as number),
      // Date.now: a limit of whole seconds needs no finer clock, and it costs half of performance.now (rule engine profile, #21).
      now: Date.now,
    });
    // The startup sequence settles first (sign-in detection and credential, at most timing.startupWait);
    // pushes and direct calls made meanwhile wait in their queues.
    const early: Array<[string, unknown]> = [];
    track = (name, detail) => void early.push([name, detail]);
    startup.then(() => {
      startedUp = true;
      // The first page view and the early events: one snapshot of document.cookie too.
      const done = jar.hold();
      try {
        track = connectEvents(engine, { win, doc, dataLayer, timing: config.timing, log, onRoute: dataElements.newPageView, consent, table: rules.events });
        for (const [name, detail] of early.splice(0)) track(name, detail);
      } catch (e) {
        log.error(BOOT_FAILED, errorText(e));
      } finally {
        done();
      }
    });
  } catch (e) {
    log.error(BOOT_FAILED, errorText(e));
  } finally {
    // Boot's snapshot is kept for the startup's first page view when it follows in this same microtask checkpoint (nothing
    // to wait for, as on a first visit): a read after boot's own writes (the lifetime cookie) is otherwise a second round
    // trip to the network service (edge-profile, #21). A few promise hops at most; no page script runs before they end.
    let hops = 0;
    const wait = (): void => void (startedUp || ++hops > STARTUP_HOPS ? release() : Promise.resolve().then(wait));
    wait();
  }
}

/** How many microtask hops boot's cookie snapshot waits for the startup sequence to settle (it takes about five when nothing waits). */
const STARTUP_HOPS = 12;

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
