import type { Rule, RuleEvent } from "../../generator/config/bundle-config.js";
import type { Logger, Monitor } from "../core/types";
import { RULE_ACTION_FAILED, RULE_CONDITION_FAILED, STEP_TIMEOUT, STEP_WAITS_FOR_CONSENT } from "../core/messages";
import { errorText } from "../core/log";
import { evaluate, type ConditionContext } from "./conditions";
import { runAction, type ActionContext, type ConsentStep } from "./actions";
import type { DataElements } from "./data-elements";

export interface TriggerDetail {
  /** dataLayerPush: the event name; directCall: the call name; click/elementExists: the selector. */
  key?: string;
  element?: Element;
  data?: unknown;
}

export interface RuleEngine {
  /** Runs every rule listening to this event, lowest order first. */
  fire(type: RuleEvent["type"], detail?: TriggerDetail): void;
  /** The events of this type the rules listen to, one per distinct key. */
  listens(type: RuleEvent["type"]): RuleEvent[];
}

export interface EngineDeps {
  conditions: ConditionContext;
  actions: Omit<ActionContext, "element">;
  log: Logger;
  monitor: Monitor;
  /** Default step timeout (timing.ruleTimeout). */
  timeout: number;
  setTimeout(fn: () => void, ms: number): unknown;
  now(): number;
  clearTimeout(handle: unknown): void;
}

const TIMED_OUT = {};
function isThenable(v: unknown): v is PromiseLike<unknown> {
  return !!v && typeof (v as PromiseLike<unknown>).then === "function";
}

/** The key an event is matched on (dataLayerPush event name, click selector, ...). */
export function eventKey(event: RuleEvent): string | undefined {
  if (event.type === "tagsLoad") return event.category + ":" + event.lifecycle;
  // Keys that only their own source fires (it passes eventKey(event) back): the event's settings, whole.
  if (event.type === "timer" || event.type === "noPush") return JSON.stringify(event);
  return event.type === "dataLayerPush"
    ? event.event
    : event.type === "directCall"
      ? event.name
      : event.type === "click" || event.type === "elementExists"
        ? event.selector
        : undefined;
}

/**
 * Rules sorted by order (lower first; equal order keeps declaration order),
 * indexed by event type and key. Each firing of a rule runs on its own: a
 * wait-before-next action blocks the rest of that firing only, never other
 * rules. Every step is guarded: exceptions and timeouts are logged, the page
 * and the other rules carry on.
 */
export function createRuleEngine(rules: Rule[], deps: EngineDeps): RuleEngine {
  const sorted = rules.map((rule, index) => ({ rule, index })).sort((a, b) => a.rule.order - b.rule.order || a.index - b.index);
  const index: Record<string, Rule[]> = {};
  for (const { rule } of sorted) {
    for (const event of rule.events) {
      const key = event.type + "\u0000" + (eventKey(event) ?? "");
      const list = index[key] || (index[key] = []);
      if (list.indexOf(rule) < 0) list.push(rule);
    }
  }
  const { log, monitor } = deps;

  /** Resolves to the step's value, or TIMED_OUT after `ms`. Rejects when the step fails. */
  function withTimeout(value: PromiseLike<unknown>, ms: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = deps.setTimeout(() => resolve(TIMED_OUT), ms);
      value.then(
        (v) => (deps.clearTimeout(timer), resolve(v)),
        (e) => (deps.clearTimeout(timer), reject(e)),
      );
    });
  }

  /** The rule's monitor event: its detail, with the rule's id and name added (no copy: each call builds its own). */
  function report(rule: Rule, detail: Record<string, unknown>): void {
    detail.rule = rule.id;
    detail.name = rule.name;
    monitor.emit("rule", detail);
  }

  function conditionsPass(rule: Rule, event: string, conditions: ConditionContext): boolean {
    const limit = rule.conditionTimeout ?? deps.timeout;
    // One clock reading per condition: the end of one is the start of the next.
    let started = rule.conditions.length ? deps.now() : 0;
    for (let i = 0; i < rule.conditions.length; i++) {
      let passed: boolean;
      try {
        passed = evaluate(rule.conditions[i], conditions);
        // Conditions are synchronous: one that ran past its limit (a runaway
        // regular expression, a slow page getter) counts as failed.
        const ended = deps.now();
        if (ended - started > limit) {
          log.error(STEP_TIMEOUT, { rule: rule.id, condition: i, timeout: limit });
          report(rule, { event, state: "timed out", condition: i });
          return false;
        }
        started = ended;
      } catch (e) {
        log.error(RULE_CONDITION_FAILED, { rule: rule.id, condition: i, error: errorText(e) });
        report(rule, { event, state: "failed", condition: i });
        return false;
      }
      if (!passed) {
        report(rule, { event, state: "skipped", condition: i });
        return false;
      }
    }
    return true;
  }

  /**
   * Runs the actions from `from` on, synchronously until a wait-before-next
   * action returns a promise: the rest runs once it is done (no promise at
   * all for a firing whose actions return none).
   */
  function runActions(rule: Rule, from: number, ctx: ActionContext, event: string): void {
    for (let i = from; i < rule.actions.length; i++) {
      const action = rule.actions[i];
      const timeout = action.timeout ?? deps.timeout;
      let result: unknown;
      try {
        result = runAction(action, ctx);
      } catch (e) {
        log.error(RULE_ACTION_FAILED, { rule: rule.id, action: i, actionType: action.type, error: errorText(e) });
        report(rule, { event, action: i, actionType: action.type, outcome: "failed" });
        if (action.waitBeforeNext) return;
        continue;
      }
      if (!isThenable(result)) {
        report(rule, { event, action: i, actionType: action.type, outcome: "done" });
        continue;
      }
      const settled = withTimeout(result, timeout).then(
        (v) => {
          const outcome = v === TIMED_OUT ? "timed out" : "done";
          if (v === TIMED_OUT) {
            const data = { rule: rule.id, action: i, actionType: action.type, timeout };
            // A tag waiting for consent is normal (it runs once consent comes): debug, not a timeout error.
            if ((result as ConsentStep).waitsForConsent?.()) log.debug(STEP_WAITS_FOR_CONSENT, data);
            else log.error(STEP_TIMEOUT, data);
          }
          report(rule, { event, action: i, actionType: action.type, outcome });
          return outcome;
        },
        (e) => {
          log.error(RULE_ACTION_FAILED, { rule: rule.id, action: i, actionType: action.type, error: errorText(e) });
          report(rule, { event, action: i, actionType: action.type, outcome: "failed" });
          return "failed";
        },
      );
      // Only a wait-before-next action holds back the rest of its own rule;
      // when it fails or times out, the rule stops there.
      if (action.waitBeforeNext) {
        settled
          .then((outcome) => outcome === "done" && runActions(rule, i + 1, ctx, event))
          .catch((e) => log.error(RULE_ACTION_FAILED, { rule: rule.id, error: errorText(e) }));
        return;
      }
    }
  }

  function run(rule: Rule, type: string, detail: TriggerDetail, dataElements: DataElements, conditions: ConditionContext): void {
    try {
      report(rule, { event: type, state: "triggered" });
      if (!conditionsPass(rule, type, conditions)) return;
      report(rule, { event: type, state: "fired" });
      runActions(rule, 0, { ...deps.actions, dataElements, element: detail.element, rule: rule.id, log }, type);
    } catch (e) {
      log.error(RULE_ACTION_FAILED, { rule: rule.id, error: errorText(e) });
    }
  }

  return {
    fire(type, detail = {}) {
      const rulesForEvent = index[type + "\u0000" + (detail.key ?? "")];
      if (!rulesForEvent) return;
      // A push's own fields (push: data elements) for its rules' conditions and actions, whenever the actions run:
      // one scope per push, shared by the rules it triggers (it holds nothing but the push).
      const pushed = type === "dataLayerPush" || type === "dataOnly";
      const dataElements = pushed ? deps.actions.dataElements.forPush(detail.data) : deps.actions.dataElements;
      const conditions = pushed ? { ...deps.conditions, dataElement: dataElements.get } : deps.conditions;
      // The push's elements read once for all its rules while they run here (an action waiting for later reads afresh).
      const release = pushed && dataElements.hold ? dataElements.hold() : undefined;
      try {
        for (const rule of rulesForEvent) run(rule, type, detail, dataElements, conditions);
      } finally {
        if (release) release();
      }
    },
    listens(type) {
      const out: RuleEvent[] = [];
      const keys: Array<string | undefined> = [];
      for (const { rule } of sorted)
        for (const event of rule.events)
          if (event.type === type && keys.indexOf(eventKey(event)) < 0) {
            keys.push(eventKey(event));
            out.push(event);
          }
      return out;
    },
  };
}
