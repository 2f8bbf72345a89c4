/** Fires a 1x1 image or a hidden iframe (a rule's pixel action, a declared tag's pixel or frame); settles on load or error. */
export function firePixel(doc: Document, src: string, kind: "image" | "iframe"): Promise<void> {
  return new Promise((resolve, reject) => {
    const element = doc.createElement(kind === "image" ? "img" : "iframe");
    element.setAttribute("width", "1");
    element.setAttribute("height", "1");
    element.setAttribute("alt", "");
    element.setAttribute("aria-hidden", "true");
    if (kind === "iframe") element.setAttribute("tabindex", "-1");
    element.style.cssText = "position:absolute;width:1px;height:1px;border:0;visibility:hidden";
    element.onload = () => resolve();
    element.onerror = () => reject(new Error("pixel failed: " + src));
    element.setAttribute("src", src);
    (doc.body || doc.documentElement).appendChild(element);
  });
}
