import { createConsent } from "../../../../runtime-modules/consent/create-consent";
import type { Logger } from "../../../../runtime-modules/core/types";
/** BundleConfig fixtures built through the real schemas, so defaults stay the generator's. */
import type { BundleConfig } from "../../../../generator/config/bundle-config.js";
import { ChatModuleSchema, SettingsSchema, SurveyModuleSchema } from "../../../../generator/config/schema.js";
import { ORG_VARIABLES } from "./variables";

export function chatConfig(input: Record<string, unknown> = {}) {
  return ChatModuleSchema.parse({ scriptSrc: "https://chat.vendor.example/widget.js", pages: ["/scores"], ...input });
}

export function surveyConfig(input: Record<string, unknown> = {}) {
  return SurveyModuleSchema.parse({ scriptSrc: "https://survey.vendor.example/s.js", ...input });
}

export function bundleConfig(overrides: Partial<BundleConfig> = {}): BundleConfig {
  const {
    budget: _budget,
    modules: _modules,
    ...settings
  } = SettingsSchema.parse({
    analytics: { orgId: "ABC123@AdobeOrg", datastreamId: "ds-1", reportSuite: "kiwiprod" },
    budget: { gzipBytes: 20000 },
    analyticsVariables: ORG_VARIABLES,
  });
  return {
    ...settings,
    v: 1,
    site: { code: "scores", name: "Scores", appId: "8", spa: false, internal: false },
    env: "prod",
    hosts: {
      prod: ["scores.kiwi.example", "*.scores.kiwi.example"],
      qa: ["scores-qa.kiwi.example"],
      dev: ["scores-dev.kiwi.example"],
    },
    apexDomain: "kiwi.example",
    dataLayerName: "kiwiDataLayer",
    defaultEnv: "prod",
    envFallback: [],
    modules: {},
    ...overrides,
  };
}

/** The services a module receives beyond the ones a test sets up itself (inert stand-ins). */
export function inertServices() {
  return {
    values: { provide() {}, get: () => undefined },
    dataLayer: { get: () => undefined, push() {}, on() {} },
    analytics: { pageView: () => Promise.resolve(), event: () => Promise.resolve(), setVariables() {} },
  };
}

/** The runtime's consent service over a fake page, started as boot starts it (banner load stubbed). */
export function consentFor(bundle: BundleConfig, win: unknown, log: Logger) {
  const withBanner = {
    ...bundle,
    consent: {
      ...bundle.consent,
      banner: { scriptSrc: "https://cdn.consentbanner.example/otSDKStub.js", domainScript: "test-domain", ...bundle.consent.banner },
    },
  };
  const consent = createConsent({ config: withBanner, win: win as never, log, monitor: { emit() {} }, loadScript: () => Promise.resolve() });
  consent.start();
  return consent;
}
