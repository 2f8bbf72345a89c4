/**
 * What each runtime module offers to rules and data elements, for build-time
 * checks (a rule calling an unknown command, a data element reading a value no
 * module provides). A unit test checks these lists against the factories.
 */
export const MODULE_COMMANDS: Record<string, readonly string[]> = {
  chat: ["isLoaded", "open"],
  survey: ["isLoaded"],
  video: ["players"],
  scoreViews: ["track", "pageType"],
  satFunnel: ["pageName", "changeSteps"],
  testOrders: ["lastOrder", "lastSummary"],
};

/** Values modules provide to data elements (`provided: NAME`). */
export const MODULE_PROVIDED_VALUES: Record<string, readonly string[]> = {
  chat: [],
  survey: [],
  video: [],
  scoreViews: [],
  satFunnel: ["pageName", "funnelErrorCode", "confirmationStep"],
  testOrders: [],
};
