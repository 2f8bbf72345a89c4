import type { SatFunnelModuleConfig } from "../../../generator/config/schemas/feature-modules.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { REQUIRED_DATA_MISSING } from "../../core/messages";
import { moduleEventListener } from "../../core/module-events";
import { nextChangeSteps, type ChangeStep } from "./change-steps";
import { toYyyymmdd } from "./dates";
import { funnelErrorCode, isPaymentConfirmation, isPaymentPage } from "./errors";
import { confirmationKey, parseConfirmed, withConfirmed, type ConfirmationStep } from "./confirmation";
import { confirmationStepCookieRule, cookieWriteOptions } from "../../identity/cookie-rules";
import { funnelPageFromPath, funnelPageName, isFunnelPage, type FunnelPage } from "./flows";
import {
  dashboardState,
  DASHBOARD_STATES,
  FEE_WAIVER_STATES,
  fwType,
  FUNNEL_WIDGET_ACTIONS,
  nextPhotoState,
  nextSeatHoldAlert,
  PHOTO_STEPS,
  SEAT_HOLD_ALERTS,
  type DashboardState,
  type PhotoState,
  type SeatHoldAlert,
} from "./funnel-states";
import { changeStepPage, readChangeSteps, writeChangeSteps } from "./funnel-session";
import { photoStateText, purchaseVariables, registrationVariables } from "./funnel-variables";
import { NOT_A_FUNNEL_PAGE, ORDER_ALREADY_COUNTED } from "./messages";
import { currentPath, text } from "./page-path";
import { completedOrder, newregFeatures, PURCHASE_ID_PREFIXES, type NewregFeatureType } from "./orders";
import { funnelStep, satRegistrationData, type FunnelStep, type SatRegistrationInput } from "./registration-data";

/** Interaction type of the funnel's own events (widget, seat hold, photo, fee waiver, dashboard, steps); also the module's marker in registry.ts. */
export const FUNNEL_EVENT_TYPE = "kiwi.satFunnel";
/** Interaction type of a completed order (the terminal step). */
export const PURCHASE_EVENT_TYPE = "commerce.purchases";

const MODULE = "satFunnel";

/** Today, yyyymmdd, local time. */
function today(): string {
  const d = new Date();
  return toYyyymmdd(d.getFullYear() + "-" + (d.getMonth() + 1) + "-" + d.getDate());
}

/**
 * The SAT registration funnel (spec sections 2-5, 8, 9). Page names are
 * site:flow:page; the page comes from the `registration-step` push (`flow`,
 * `page`) or else from the path by config.routes. The module names pages
 * (the `pageName` command, which the runtime's page naming asks first, and
 * the provided value `pageName`); when a registration-step announces another
 * page it pushes `{ event: "page-view", pageName }`, the data layer's
 * documented way to announce an SPA view (before the page load's first page
 * view it only names that view). It keeps the change-registration steps in
 * session storage, sends the purchase on order-complete (the terminal step)
 * with the flow's purchase id prefix (once per order and session: the
 * confirmation-step cookie), provides `confirmationStep` for the payment
 * confirmation page's rule, sets the registration data as page
 * variables, and tracks widget actions, seat-hold alerts, photo steps, fee
 * waiver states and dashboard states. For application errors it provides
 * `funnelErrorCode`: the last `application-error` push's code, with the
 * application id and flow code appended on a payment page and for session
 * timeouts (the org rule application-error sends the error; a site's
 * `errorCode` data element reads this value).
 *
 * Commands: `pageName()` (undefined off the funnel), `changeSteps()`.
 */
export function createSatFunnel(services: ModuleServices<SatFunnelModuleConfig>): ModuleInstance {
  const { config, log, values, dataLayer, analytics, bundle, cookies, consent, win } = services;
  const site = bundle.site.code;
  const appId = config.appId || bundle.site.appId;
  const path = () => currentPath(win, services.page.path);
  const nameOf = (p: FunnelPage) => funnelPageName(site, p.flow, p.page) as string;

  /** The page announced last (by its path, or a registration-step push), with the path it was on. */
  let current: (FunnelPage & { path: string }) | null = null;
  const input: Record<string, unknown> = {};
  const reached: Record<string, string[]> = {};
  const purchased: string[] = [];
  let completedChangeSteps: ChangeStep[] | null = null;
  const feeWaiver: string[] = [];
  let seatHoldFired: SeatHoldAlert[] = [];
  let photo: PhotoState = { exists: false, uploaded: false, saved: false };

  const confirmRule = confirmationStepCookieRule(bundle.identity.cookies);
  /** This page's answers of firstConfirmation, by order key: one answer per page, however often it is asked. */
  const confirmedOnPage: Record<string, boolean> = {};

  /**
   * Whether this is the first confirmation step of the order this session
   * (the confirmation-step cookie does not hold its key yet). The key is
   * recorded once performance consent allows the cookie (now, or when it
   * comes); a repeat is logged.
   */
  function firstConfirmation(kind: string, id: string): boolean {
    const key = confirmationKey(kind, id);
    if (Object.prototype.hasOwnProperty.call(confirmedOnPage, key)) return confirmedOnPage[key];
    const first = parseConfirmed(cookies.get(confirmRule.name)).indexOf(key) < 0;
    confirmedOnPage[key] = first;
    if (first)
      consent.whenAllowed("performance", () =>
        cookies.set(confirmRule.name, withConfirmed(parseConfirmed(cookies.get(confirmRule.name)), key), cookieWriteOptions(confirmRule)),
      );
    else log.info(ORDER_ALREADY_COUNTED, { order: key });
    return first;
  }

  /** The funnel page now: the one announced on this path, else the path's (reaching it, when it is another page). */
  function pageNow(): FunnelPage | null {
    const p = path();
    if (current && current.path === p) return current;
    const page = funnelPageFromPath(p, config.routes);
    if (page) reach(page, p);
    return page;
  }

  /** Makes `page` the current page; true when it is another page than before (then it is reached). */
  function reach(page: FunnelPage, p: string): boolean {
    const isNew = !current || current.flow !== page.flow || current.page !== page.page;
    current = { flow: page.flow, page: page.page, path: p };
    if (isNew) arrive(page);
    return isNew;
  }

  /** A page is reached: the change-registration steps move on (read before completing, which clears them). */
  function arrive(page: FunnelPage): void {
    const step = changeStepPage(page.flow, page.page);
    if (!step) return;
    const before = readChangeSteps(win);
    if (step === "changereg-complete") completedChangeSteps = before;
    writeChangeSteps(win, nextChangeSteps(before, step));
  }

  /** The push's field when it is one of `allowed`, else null (warned 'required data missing' with the field and value). */
  function known(push: Record<string, unknown>, field: string, allowed: readonly string[]): string | null {
    const value = text(push[field]);
    if (allowed.indexOf(value) >= 0) return value;
    log.warn(REQUIRED_DATA_MISSING, { field, value: push[field] });
    return null;
  }

  // The variable numbers (analyticsVariables.satFunnel in sites/_org.yaml; resolve.ts keeps it while the module is enabled).
  const names = services.bundle.analyticsVariables.satFunnel!;

  function emit(name: string, eventType: string, variables: Record<string, string>): void {
    analytics.event({ name, eventType, linkType: "other", variables });
  }

  function send(kind: string, value: string, variables: Record<string, string>): void {
    emit(config.flowCode + ":" + kind + ":" + value, FUNNEL_EVENT_TYPE, variables);
  }

  function registrationInput(steps: FunnelStep[]): SatRegistrationInput {
    const states = (Array.isArray(input.feeWaiver) ? (input.feeWaiver as unknown[]).map(text) : []).concat(feeWaiver);
    return { ...(input as SatRegistrationInput), feeWaiver: states, steps, today: today() };
  }

  function onStep(push: Record<string, unknown>): void {
    const p = path();
    let target: FunnelPage | null;
    if (push.flow !== undefined || push.page !== undefined) {
      const flow = text(push.flow);
      const page = text(push.page);
      target = isFunnelPage(flow, page) ? { flow, page } : null;
    } else target = funnelPageFromPath(p, config.routes);
    if (!target) {
      log.warn(NOT_A_FUNNEL_PAGE, { flow: push.flow, page: push.page, path: p });
      return;
    }
    const isNew = reach(target, p);

    // Registration fields add up over the page's pushes (satRegistrationData reads the ones it knows).
    for (const field of Object.keys(push)) if (push[field] !== undefined) input[field] = push[field];
    const seen = reached[target.flow] || (reached[target.flow] = []);
    const action = text(push.action) || "view";
    const steps = Array.isArray(push.steps) ? (push.steps as FunnelStep[]) : [funnelStep(target.page, action, seen)];
    if (seen.indexOf(target.page) < 0) seen.push(target.page);
    const data = satRegistrationData(registrationInput(steps));
    // Registration data belongs to every later beacon of this page view (eVars persist anyway).
    analytics.setVariables(registrationVariables(data, names));
    // A new page is an SPA view: announced the documented way, so the runtime counts one page view per view.
    if (isNew) dataLayer.push({ event: "page-view", pageName: nameOf(target) });
    else if (action !== "view") send("step", target.page + ":" + action, {});

    const tx = completedOrder(target.flow, target.page, push.orderId ?? dataLayer.get("order.id"));
    if (tx && purchased.indexOf(tx.type + "|" + tx.id) < 0 && firstConfirmation(tx.purchaseIdPrefix, tx.id)) {
      purchased.push(tx.type + "|" + tx.id);
      const extra: { features?: NewregFeatureType[]; changeSteps?: ChangeStep[] } = {};
      if (target.flow === "newreg" || target.flow === "satregconc") {
        const flags: Record<string, unknown> = { fw: data.fwType !== "none" };
        if (Array.isArray(input.features)) for (const f of input.features) flags[text(f)] = true;
        extra.features = newregFeatures(flags);
      }
      if (target.flow === "changereg") extra.changeSteps = completedChangeSteps || [];
      emit(nameOf(target) + ":purchase", PURCHASE_EVENT_TYPE, purchaseVariables(tx, extra, names));
    }
  }

  function onWidget(push: Record<string, unknown>): void {
    const action = known(push, "action", FUNNEL_WIDGET_ACTIONS);
    if (action) send("widget", action, { [names.widgetAction]: action });
  }

  function onSeatHold(push: Record<string, unknown>): void {
    const raw = push.minutesLeft;
    const minutes = typeof raw === "number" || (typeof raw === "string" && raw.trim()) ? +raw : NaN;
    if (minutes !== minutes) return void log.warn(REQUIRED_DATA_MISSING, { field: "minutesLeft", value: raw });
    // More time than the first alert: a new hold, whose alerts fire afresh.
    if (minutes > SEAT_HOLD_ALERTS[0]) seatHoldFired = [];
    const alert = nextSeatHoldAlert(minutes, seatHoldFired);
    if (alert === null) return;
    seatHoldFired.push(alert);
    send("seat-hold", String(alert), { [names.seatHold]: String(alert) });
  }

  function onPhoto(push: Record<string, unknown>): void {
    const step = known(push, "step", PHOTO_STEPS);
    if (!step) return;
    photo = nextPhotoState(photo, step);
    send("photo", step, { [names.photo]: photoStateText(photo) });
  }

  function onFeeWaiver(push: Record<string, unknown>): void {
    const state = known(push, "state", FEE_WAIVER_STATES);
    if (!state) return;
    if (feeWaiver.indexOf(state) < 0) feeWaiver.push(state);
    send("fee-waiver", state, { [names.registration.fwType]: fwType(feeWaiver) });
  }

  function onDashboard(push: Record<string, unknown>): void {
    let state: DashboardState | null = null;
    if ((DASHBOARD_STATES as readonly unknown[]).indexOf(push.dashboardState) >= 0) state = push.dashboardState as DashboardState;
    else if (push.error !== undefined || push.data !== undefined)
      state = dashboardState({
        error: !!push.error,
        data: push.data && typeof push.data === "object" ? (push.data as { registrations?: number; scores?: number }) : null,
      });
    if (state) send("dashboard", state, { [names.dashboardState]: state });
  }

  /** The last application-error push (the org rule application-error sends it; this module only names its code). */
  let lastError: { code: string; type: string } | null = null;
  function onError(push: Record<string, unknown>): void {
    lastError = { code: text(push.code), type: text(push.type) };
  }

  /** This page's funnel page name; undefined off the funnel (the runtime's own page name applies). */
  const pageName = () => {
    const p = pageNow();
    return p ? nameOf(p) : undefined;
  };
  pageName();
  values.provide("pageName", pageName);
  // "Payment-page errors and session timeouts get application id and flow code appended": the code for the error rule.
  values.provide("funnelErrorCode", () =>
    lastError && lastError.code
      ? funnelErrorCode(lastError.code, {
          paymentPage: isPaymentPage(path(), config.paymentPaths),
          timeout: /timeout/i.test(lastError.type + " " + lastError.code),
          appId,
          flowCode: config.flowCode,
        })
      : undefined,
  );
  // "confirmation-step cookie": on the payment confirmation page, "first" the first time its order (order.id) is
  // confirmed this session, "repeat" after (a reload); "" elsewhere. The org's payment-confirmation rule checks it.
  values.provide("confirmationStep", (): ConfirmationStep => {
    if (!isPaymentConfirmation(path())) return "";
    const id = text(dataLayer.get("order.id"));
    // A SAT registration's order: the same key as its order-complete purchase (sr), so the two count it once between them.
    return !id || firstConfirmation(PURCHASE_ID_PREFIXES.satRegistration, id) ? "first" : "repeat";
  });
  // The data-layer events the funnel listens to (docs/modules.md).
  dataLayer.on(
    moduleEventListener(log, MODULE, {
      "registration-step": onStep,
      "funnel-widget": onWidget,
      "seat-hold": onSeatHold,
      "photo-step": onPhoto,
      "fee-waiver": onFeeWaiver,
      dashboard: onDashboard,
      "application-error": onError,
    }),
  );

  return {
    commands: {
      pageName,
      changeSteps: () => readChangeSteps(win),
    },
  };
}
