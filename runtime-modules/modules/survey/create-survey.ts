import type { SurveyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { embedTag, reportTag, skipTag } from "../../core/embed-tag";
import { PATH_DOES_NOT_MATCH_ROUTE, REQUIRED_DATA_MISSING, SELECTOR_NOT_VALID, TAG_DISABLED } from "../../core/messages";
import { tagDisabled } from "../../core/query-flags";
import { isValidSelector } from "../../core/selector";
import { surveyPathAllowed } from "./survey-path";

/** The survey script's element id; also the module's marker in registry.ts. */
export const SURVEY_SCRIPT_ID = "sitetags-survey";
/** Tag code: `?cb-disable-survey` turns the survey off. */
const TAG = "survey";

/**
 * The helpfulness survey: "survey needs performance consent, a script source
 * and passing path check" (trailing-slash paths, and one of config.paths when
 * set). A valid mountSelector is passed to the survey script as its
 * data-mount-selector attribute. Command: `isLoaded()`.
 */
export function createSurvey(services: ModuleServices<SurveyModuleConfig>): ModuleInstance {
  const { config, log, page } = services;
  const doc = services.win.document;
  let loaded = false;
  const commands = { isLoaded: () => loaded };

  if (tagDisabled(page.query, TAG)) skipTag(services, TAG, TAG_DISABLED);
  else if (!config.scriptSrc) {
    log.warn(REQUIRED_DATA_MISSING, { tag: TAG, field: "scriptSrc" });
    reportTag(services, TAG, "skipped", { reason: REQUIRED_DATA_MISSING });
  } else if (!surveyPathAllowed(page.path, config.paths)) skipTag(services, TAG, PATH_DOES_NOT_MATCH_ROUTE, { path: page.path });
  else {
    const attributes: Record<string, string> = {};
    const mount = config.mountSelector;
    if (mount && isValidSelector(doc, mount)) attributes["data-mount-selector"] = mount;
    else if (mount) log.warn(SELECTOR_NOT_VALID, { tag: TAG, selector: mount });
    embedTag(services, TAG, config.consent, config.scriptSrc, { id: SURVEY_SCRIPT_ID, attributes }, () => {
      loaded = true;
    });
  }
  return { commands };
}
