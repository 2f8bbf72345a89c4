import type { EdgeContext } from "./context";
import { IDENTITY_COOKIE_NOT_FOUND } from "../core/messages";

export interface IdentityGate {
  /** Sends now, or holds the send until the request out without identity has its answer. */
  gate(go: () => Promise<number | undefined>): void;
  /** Lets every held send go (the page is unloading: nothing waits any more). */
  release(): void;
}

/**
 * Only one request goes out before the visitor has an identity cookie; the
 * rest wait for its answer (alloy's identity gate).
 */
export function createIdentityGate(ctx: EdgeContext): IdentityGate {
  const hasIdentity = () => !!ctx.readJar()[ctx.identity];
  let pending = false;
  const held: Array<() => void> = [];
  const release = () => held.splice(0).forEach((f) => f());
  function gate(go: () => Promise<number | undefined>): void {
    if (ctx.leaving || hasIdentity()) {
      go();
    } else if (pending) {
      held.push(() => gate(go));
    } else {
      pending = true;
      go().then((status) => {
        pending = false;
        // As alloy: only a successful answer that set no identity cookie is worth the warning (a failure logged its own).
        if (status && !hasIdentity()) ctx.log.warn(IDENTITY_COOKIE_NOT_FOUND);
        release();
      });
    }
  }
  return { gate, release };
}
