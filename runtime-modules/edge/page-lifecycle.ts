import type { EdgeContext } from "./context";

/**
 * The page lifecycle: keeps ctx.hidden (another tab, or unloading) and
 * ctx.leaving (pagehide: unloaded or cached) up to date; onHidden runs each
 * time the page becomes hidden or is unloaded. Returns start(), which
 * listens to pagehide, pageshow and visibilitychange.
 */
export function createPageLifecycle(ctx: EdgeContext, onHidden: () => void): () => void {
  const { win } = ctx;
  const doc = win.document;
  function visibility(e: Event): void {
    ctx.hidden = e.type === "pagehide" || doc.visibilityState === "hidden";
    if (e.type === "pagehide") ctx.leaving = true;
    else if (!ctx.hidden) ctx.leaving = false;
    if (ctx.hidden) onHidden();
  }
  return () => {
    // Capture phase: before the page's own handlers, which may send events on their way out.
    win.addEventListener("pagehide", visibility, true);
    win.addEventListener("pageshow", visibility, true);
    doc.addEventListener("visibilitychange", visibility, true);
  };
}
