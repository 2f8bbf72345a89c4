/** "A player frame is tracked only if its source contains the video platform name." */
export function isPlayerFrame(src: string | null | undefined, platform: string): boolean {
  return !!src && src.toLowerCase().indexOf(platform) >= 0;
}

/**
 * The frame source the iframe API can talk to: enablejsapi=1, and the page's
 * origin when the source names none. Undefined when the source already has
 * the API on (no change, no reload) or does not parse.
 */
export function withJsApi(src: string, origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(src, origin);
  } catch (e) {
    return undefined;
  }
  if (url.searchParams.get("enablejsapi") === "1") return undefined;
  url.searchParams.set("enablejsapi", "1");
  if (!url.searchParams.has("origin")) url.searchParams.set("origin", origin);
  return url.href;
}

/** The video id of an embed address (/embed/ID), when it has one. */
export function embedVideoId(src: string): string | undefined {
  const match = /\/embed\/([\w-]+)/.exec(src);
  return match ? match[1] : undefined;
}
