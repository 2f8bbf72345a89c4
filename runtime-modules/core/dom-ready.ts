/** Calls back once the DOM is ready (at once if it already is). */
export function onDomReady(doc: Pick<Document, "readyState" | "addEventListener">, callback: () => void): void {
  if (doc.readyState !== "loading") callback();
  else doc.addEventListener("DOMContentLoaded", callback, { once: true });
}
