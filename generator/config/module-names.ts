/**
 * The names of the modules a site may enable: ModulesSchema's keys
 * (schema.ts), in its order, without loading zod. A build whose config all
 * comes from the cache needs them but never the schemas (issue #21: zod was
 * most of a one-site rebuild's start at 600 sites).
 * test/unit/generator/module-names.test.ts checks this list is the schema's.
 */
export const MODULE_NAMES: readonly string[] = [
  "chat",
  "survey",
  "video",
  "scoreViews",
  "satFunnel",
  "testOrders",
  "signinPages",
  "testdayPages",
  "tags",
  "rum",
  "beacon",
  "adTracker",
  "chatFlow",
  "pushNotifications",
  "guidedHelp",
];
