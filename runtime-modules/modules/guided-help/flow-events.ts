import type { ResolvedTag } from "../../../generator/config/bundle-config.js";

/** The guided-help vendor's settings, as the bundle carries them (generator/config/schemas/tags.ts, GuidedHelpSettingsSchema). */
export type GuidedHelpSettings = NonNullable<ResolvedTag["guidedHelp"]>;

type Obj = Record<string, unknown>;

/** The data-layer events the site's YAML records consume (docs/events.md). */
export const GUIDED_HELP_EVENT = "guided-help";
export const GUIDED_HELP_SURVEY_EVENT = "guided-help-survey";

/** Section 3 and 9: "step time spent (tenths of a second)"; "Step time in tenths of a second". Never negative. */
export function tenthsOfSecond(ms: number): number {
  return ms > 0 ? Math.round(ms / 100) : 0;
}

/** A non-empty string, or a finite number as a string; else undefined. */
function text(v: unknown): string | undefined {
  return typeof v === "string" && v ? v : typeof v === "number" && isFinite(v) ? String(v) : undefined;
}

/**
 * One vendor event (AppCues-like: `(name, event)` with flowId, flowName,
 * stepNumber, stepChildNumber, interaction {element, formId, destination},
 * score, feedback) as the push the records consume, or undefined when the
 * vendor event is none the settings name or it carries no flow id. A flow
 * event is a `guided-help` push: "flowId, flowName, flowStep,
 * flowActionStep, flowActionElement, flowActionSubmit, flowActionUrl, step
 * time spent (tenths of a second), flags for impression, step impression,
 * interaction, time spent, complete, dismiss, error" (section 3), the flag of
 * this vendor event set true; `stepMs` is the step's time so far, given for
 * the time-spent flag. A survey event is a `guided-help-survey` push:
 * "Survey variants have impression, score, feedback, dismiss".
 */
export function guidedHelpPush(name: string, event: unknown, o: Pick<GuidedHelpSettings, "flowEvents" | "surveyEvents">, stepMs?: number): Obj | undefined {
  const e = (event && typeof event === "object" ? event : {}) as Obj;
  const flowId = text(e.flowId);
  if (!flowId) return undefined;
  const flag = Object.prototype.hasOwnProperty.call(o.flowEvents, name) ? o.flowEvents[name] : undefined;
  const part = Object.prototype.hasOwnProperty.call(o.surveyEvents, name) ? o.surveyEvents[name] : undefined;
  if (!flag && !part) return undefined;
  const push: Obj = { event: flag ? GUIDED_HELP_EVENT : GUIDED_HELP_SURVEY_EVENT, flowId };
  const put = (key: string, value: unknown) => {
    const v = text(value);
    if (v !== undefined) push[key] = v;
  };
  put("flowName", e.flowName);
  if (flag) {
    const i = (e.interaction && typeof e.interaction === "object" ? e.interaction : {}) as Obj;
    if (typeof e.stepNumber === "number") push.flowStep = e.stepNumber;
    else put("flowStep", e.stepNumber);
    put("flowActionStep", e.stepChildNumber);
    put("flowActionElement", i.element);
    put("flowActionSubmit", i.formId);
    put("flowActionUrl", i.destination);
    if (flag === "timeSpent" && stepMs !== undefined) push.stepTimeSpent = tenthsOfSecond(stepMs);
    push[flag] = true;
    return push;
  }
  if (part === "score") {
    const score = typeof e.score === "number" ? e.score : Number(e.score);
    if (!isFinite(score) || e.score === "" || e.score == null) return undefined;
    push.score = score;
  } else if (part === "feedback") {
    put("feedback", e.feedback);
    if (push.feedback === undefined) return undefined;
  } else push[part!] = true;
  return push;
}
