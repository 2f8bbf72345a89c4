/** Shared fixtures of the consent tests, built through the real schemas. */
import { ConsentSchema, ExclusionsSchema } from "../../../../generator/config/schema.js";
import { ConsentExtrasSchema } from "../../../../generator/config/schemas/consent-identity.js";
import type { ConsentEvent, ConsentState } from "../../../../runtime-modules/consent/state";
import { consentReducer, initialConsentState } from "../../../../runtime-modules/consent/state";

export const consent = ConsentSchema.parse({});
export const extras = ConsentExtrasSchema.parse({});
export const ids = consent.groups;

/** Section 9: "Exclusion app ids: functional 229; marketing 8, 229, 282, 292, 366, 395, 412." */
export const SPEC_EXCLUSIONS = ExclusionsSchema.parse({
  appIds: { functional: ["229"], marketing: ["8", "229", "282", "292", "366", "395", "412"] },
});

export function run(...events: ConsentEvent[]): ConsentState {
  return events.reduce(consentReducer, initialConsentState(ids));
}

/** A banner state that reported these groups. */
export function withGroups(groups: string): ConsentState {
  return run({ type: "banner-loaded" }, { type: "groups-updated", groups });
}
