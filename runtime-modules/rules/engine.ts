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
  // By type, then key: a firing looks its rules up without building a key string (a push's event name is looked up as it is).
  const index: Record<string, Record<string, Rule[]>> = {};
  for (const { rule } of sorted) {
    for (const event of rule.events) {
      const byKey = index[event.type] || (index[event.type] = {});
      const key = eventKey(event) ?? "";
      const list = byKey[key] || (byKey[key] = []);
      if (list.indexOf(rule) < 0) list.push(rule);
    }
  }
  const { log, monitor } = deps;
  // Whether the monitor has listeners: the busy path's rule events are only built for them (no garbage per rule otherwise).
  const watched = monitor.on || (() => true);
  // The context of a push's conditions: one object, its dataElement the push's (set around each firing), not a copy per push.
  const pushConditions: ConditionContext = { ...deps.conditions };
  /** The clock's reading at the end of the last rule's conditions when nothing has run since (the next rule's start), else -1. */
  let since = -1;
  /**
   * By firing depth (a fire from a firing's action is one deeper), the action
   * context and push scope its next firing reuses (issue #21: none made per
   * push). An action that returns a promise may read them later: its firing's
   * are dropped (see runActions), the next firing at that depth makes its own.
   */
  const contexts: Array<ActionContext | undefined> = [];
  const scopes: Array<DataElements | undefined> = [];
  let depth = 0;

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

  /**
   * Conditions are synchronous, and timed together (issue #21): the clock is
   * read when they end, and when they start only if nothing since the last
   * reading could have taken time (`since`: the previous rule of this firing
   * ended at its conditions, so its end is this rule's start). When they ran
   * past the limit (a runaway regular expression, a slow page getter), the
   * rule counts as failed at the condition evaluation stopped at (the one
   * that failed, else the last): no single condition can have run longer than
   * all of them. Returns whether the rule passed.
   */
  function conditionsPass(rule: Rule, event: string, conditions: ConditionContext): boolean {
    const list = rule.conditions;
    const started = since >= 0 ? since : list.length ? deps.now() : 0;
    since = -1;
    if (!list.length) return true;
    let i = 0;
    try {
      while (i < list.length && evaluate(list[i], conditions)) i++;
    } catch (e) {
      log.error(RULE_CONDITION_FAILED, { rule: rule.id, condition: i, error: errorText(e) });
      report(rule, { event, state: "failed", condition: i });
      return false;
    }
    const limit = rule.conditionTimeout ?? deps.timeout;
    const ended = deps.now();
    if (ended - started > limit) {
      const condition = Math.min(i, list.length - 1);
      log.error(STEP_TIMEOUT, { rule: rule.id, condition, timeout: limit });
      report(rule, { event, state: "timed out", condition });
      return false;
    }
    if (i < list.length) {
      // Nothing ran after this reading: it is the next rule's start (no log, no monitor listener in between).
      if (watched()) report(rule, { event, state: "skipped", condition: i });
      else since = ended;
      return false;
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
        if (watched()) report(rule, { event, action: i, actionType: action.type, outcome: "done" });
        continue;
      }
      // The step may read its context and scope when it settles: not reused.
      const k = contexts.indexOf(ctx);
      if (k >= 0) contexts[k] = scopes[k] = undefined;
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
        // The firing's context names the later rules by then: the rest of this one gets its own.
        const own = { ...ctx, rule: rule.id };
        settled
          .then((outcome) => outcome === "done" && runActions(rule, i + 1, own, event))
          .catch((e) => log.error(RULE_ACTION_FAILED, { rule: rule.id, error: errorText(e) }));
        return;
      }
    }
  }

  function run(rule: Rule, type: string, conditions: ConditionContext, ctx: ActionContext): void {
    try {
      const w = watched();
      if (w) {
        report(rule, { event: type, state: "triggered" });
        // A listener ran since the last reading: no shared start.
        since = -1;
      }
      if (!conditionsPass(rule, type, conditions)) return;
      if (w) report(rule, { event: type, state: "fired" });
      ctx.rule = rule.id;
      runActions(rule, 0, ctx, type);
    } catch (e) {
      log.error(RULE_ACTION_FAILED, { rule: rule.id, error: errorText(e) });
    }
  }

  return {
    fire(type, detail = {}) {
      const byKey = index[type];
      const rulesForEvent = byKey && byKey[detail.key ?? ""];
      if (!rulesForEvent) return;
      // A push's own fields (push: data elements) for its rules' conditions and actions, whenever the actions run:
      // one scope per push (the depth's spare, pointed at it), shared by the rules it triggers (it holds nothing but the push).
      const pushed = type === "dataLayerPush" || type === "dataOnly";
      const d = depth;
      const root = deps.actions.dataElements;
      const dataElements = pushed ? (scopes[d] = root.forPush(detail.data, scopes[d])) : root;
      const conditions = pushed ? pushConditions : deps.conditions;
      // A push fired from another push's rules (not from the data layer, which queues it) gets the outer one's back after.
      const outer = pushConditions.dataElement;
      if (pushed) pushConditions.dataElement = dataElements.get;
      // The push's elements read once for all its rules while they run here (an action waiting for later reads afresh).
      const release = pushed && dataElements.hold ? dataElements.hold() : undefined;
      // One context for the actions of the firing's rules (its rule set as each runs; a wait copies it: see runActions).
      const ctx = contexts[d] || (contexts[d] = { ...deps.actions, log });
      ctx.dataElements = dataElements;
      ctx.element = detail.element;
      ctx.rule = undefined;
      since = -1;
      depth++;
      try {
        for (const rule of rulesForEvent) run(rule, type, conditions, ctx);
      } finally {
        depth = d;
        since = -1;
        pushConditions.dataElement = outer;
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
