/** Types for the few @adobe/alloy-core source files the unit tests use as the oracle. */
declare module "@adobe/alloy-core/core/network/getRequestRetryDelay.js" {
  export default function getRequestRetryDelay(options: { response: { getHeader(name: string): string | null }; retriesAttempted: number }): number;
}
declare module "@adobe/alloy-core/utils/prepareConfigOverridesForEdge.js" {
  export default function prepareConfigOverridesForEdge(configuration: unknown): Record<string, unknown> | null;
}
declare module "@adobe/alloy-core/utils/toISOStringLocal.js" {
  export default function toISOStringLocal(date: Date): string;
}
declare module "@adobe/alloy-core/utils/fnv1a32Hex.js" {
  export default function fnv1a32Hex(text: string): string;
}
declare module "@adobe/alloy-core/components/Identity/injectAddQueryStringIdentityToPayload.js" {
  interface Payload {
    hasIdentity(namespace: string): boolean;
    addIdentity(namespace: string, identity: { id: string }): void;
  }
  export default function injectAddQueryStringIdentityToPayload(options: {
    locationSearch: string;
    locationHash: string;
    dateProvider: () => Date;
    orgId: string;
    logger: { info(message: string): void; warn(message: string): void };
  }): (payload: Payload) => void;
}
declare module "@adobe/alloy-core/components/Identity/appendIdentityToUrl/injectAppendIdentityToUrl.js" {
  export default function injectAppendIdentityToUrl(options: { dateProvider: () => Date; orgId: string }): (ecid: string, url: string) => string;
}
