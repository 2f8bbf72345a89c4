import type { LoadScript } from "./types";
import { SCRIPT_EMBEDDING_FAILED } from "./messages";

type NonceScript = { nonce?: string };

/**
 * The CSP nonce to pass on: the bundle's own script's, else the first
 * script[nonce] that still exposes one. Browsers hide the nonce attribute
 * after parsing, so the `nonce` property is read, not the attribute. Call it
 * while the bundle first runs: currentScript is null afterwards.
 */
export function findNonce(doc: Pick<Document, "currentScript" | "querySelectorAll">): string | undefined {
  const own = doc.currentScript as NonceScript | null;
  if (own && own.nonce) return own.nonce;
  const scripts = doc.querySelectorAll("script[nonce]");
  for (let i = 0; i < scripts.length; i++) {
    const nonce = (scripts[i] as NonceScript).nonce;
    if (nonce) return nonce;
  }
  return undefined;
}

/**
 * loadScript(src, { id, attributes }) inserts `<script async src>` into the
 * head with the nonce, and resolves on load, rejects on error. A second call
 * for the same src gets the first call's promise; a script already in the
 * page with the same id counts as loaded and is not inserted again.
 */
export function createLoadScript(doc: Pick<Document, "createElement" | "getElementById" | "head" | "documentElement">, nonce?: string): LoadScript {
  const pending: Record<string, Promise<void> | undefined> = {};
  return (src, options) => {
    const id = options && options.id;
    if (pending[src]) return pending[src];
    if (id && doc.getElementById(id)) return Promise.resolve();
    return (pending[src] = new Promise<void>((resolve, reject) => {
      const script = doc.createElement("script");
      script.async = true;
      if (id) script.id = id;
      if (nonce) script.setAttribute("nonce", nonce);
      const attributes = (options && options.attributes) || {};
      for (const name of Object.keys(attributes)) script.setAttribute(name, attributes[name]);
      script.onload = () => resolve();
      script.onerror = () => {
        delete pending[src];
        script.remove();
        reject(new Error(SCRIPT_EMBEDDING_FAILED + ": " + src));
      };
      script.src = src;
      (doc.head || doc.documentElement).appendChild(script);
    }));
  };
}
