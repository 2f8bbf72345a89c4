import type { BundleConfig } from "../../generator/config/bundle-config.js";
import type { Analytics, ConsentGate, Logger, Monitor, PageInfo } from "../core/types";
import { VERSION } from "../core/version";
import { CONSENT_DECLINED, NETWORK_REQUEST_FAILED, serverResponded } from "../core/messages";
import { errorText } from "../core/log";
import { uuid4 } from "./uuid";

export interface AnalyticsDeps {
  config: BundleConfig;
  consent: ConsentGate;
  log: Logger;
  monitor: Monitor;
  page(): PageInfo;
  win: Window;
  /** The page name when a page view names none. */
  pageName(): string;
}

type Xdm = Record<string, unknown>;

/** The interact/collect endpoint of the protocol: https://{edgeDomain}/{basePath}/v1/{action}?configId=…&requestId=… */
export function edgeUrl(config: Pick<BundleConfig, "analytics">, action: "interact" | "collect", requestId: string): string {
  const a = config.analytics;
  return "https://" + a.edgeDomain + "/" + a.edgeBasePath + "/v1/" + action + "?configId=" + a.datastreamId + "&requestId=" + requestId;
}

/** The request body of one event (shared/edge-protocol.md "Request body"). */
export function edgeBody(config: Pick<BundleConfig, "apexDomain" | "analytics">, host: string, xdm: Xdm, analyticsVars: Record<string, string>): Record<string, unknown> {
  const event: Record<string, unknown> = { xdm };
  if (Object.keys(analyticsVars).length) event.data = { __adobe: { analytics: analyticsVars } };
  const local = host === "localhost" || host === "127.0.0.1";
  return {
    events: [event],
    query: { identity: { fetch: ["ECID"] } },
    meta: {
      state: { domain: local ? "" : config.apexDomain, cookiesEnabled: true },
      configOverrides: { com_adobe_analytics: { reportSuites: [config.analytics.reportSuite] } },
    },
  };
}

/**
 * A lean Edge client for rule actions: page views and interactions, held
 * until performance consent allows analytics, sent with fetch (keepalive) or
 * sendBeacon while the page is being hidden. Never throws; failures are logged.
 */
export function createAnalytics(deps: AnalyticsDeps): Analytics {
  const { config, win, log, monitor } = deps;
  let pageVariables: Record<string, string> = {};

  function defaults(eventType: string): Xdm {
    const page = deps.page();
    return {
      eventType,
      web: { webPageDetails: { URL: page.href }, webReferrer: { URL: page.referrer } },
      timestamp: new Date().toISOString(),
      implementationDetails: { name: "sitetags", version: VERSION, environment: "browser" },
    };
  }

  let declinedLogged = false;
  function send(xdm: Xdm, variables: Record<string, string>): Promise<unknown> {
    const vars = { ...pageVariables, ...variables };
    // SDK consent: pending queues (nothing is sent), in sends, out drops.
    if (deps.consent.sdk() === "out") {
      if (!declinedLogged) log.warn(CONSENT_DECLINED);
      declinedLogged = true;
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) =>
      deps.consent.whenAllowed("performance", () => {
        const requestId = uuid4(win.crypto);
        const hidden = win.document.visibilityState === "hidden";
        const url = edgeUrl(config, hidden ? "collect" : "interact", requestId);
        const body = JSON.stringify(edgeBody(config, deps.page().host, xdm, vars));
        monitor.emit("beacon", { url, requestId, eventType: xdm.eventType, body });
        if (hidden && typeof win.navigator.sendBeacon === "function" && win.navigator.sendBeacon(url, new Blob([body], { type: "text/plain; charset=UTF-8" }))) {
          resolve(undefined);
          return;
        }
        win
          .fetch(url, { method: "POST", credentials: "include", cache: "no-cache", referrerPolicy: "no-referrer-when-downgrade", keepalive: true, headers: { "Content-Type": "text/plain; charset=UTF-8" }, body })
          .then(
            async (response) => {
              if (!response.ok) log.warn(serverResponded(response.status, await response.text().catch(() => "")));
              resolve(response.status);
            },
            (e) => {
              log.warn(NETWORK_REQUEST_FAILED, errorText(e));
              resolve(undefined);
            },
          );
      }),
    );
  }

  return {
    pageView({ name, variables }) {
      const xdm = defaults("web.webpagedetails.pageViews");
      (xdm.web as { webPageDetails: Record<string, unknown> }).webPageDetails.name = name || deps.pageName();
      return send(xdm, variables ?? {});
    },
    event({ name, eventType, linkType, url, variables }) {
      const xdm = defaults(eventType);
      (xdm.web as Record<string, unknown>).webInteraction = { name, type: linkType, URL: url ?? deps.page().href, linkClicks: { value: 1 } };
      return send(xdm, variables ?? {});
    },
    setVariables(variables) {
      pageVariables = { ...pageVariables, ...variables };
    },
  };
}
