/**
 * The live session: loads the mock page in the frame, collects what the
 * page's bridge posts (monitor events, cookie writes, consent, CSP
 * violations, errors, snapshots) and what the server saw on the network
 * (Server-Sent Events), as one ordered list of entries; sends the page
 * actions, pushes and consent changes.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "./api";
import type { PreviewConfig } from "./lib/bundle-config";
import { claim, createClaims, loadKey, offer, requestKey, urlKey } from "./lib/claims";
import { findTemplate } from "./lib/pages";
import { APP_SOURCE, BRIDGE_SOURCE, type AppMessage, type BridgeEnvelope, type Entry, type NetworkRecord } from "./lib/protocol";
import { frameUrl, fullAddress, normalizePath, pageQuery, pageUrl, type PreviewState } from "./lib/state";
import { pageSetup } from "./lib/visitor";

export interface LoadedPage {
  frame: string;
  host: string;
  /** The page's address. */
  src: string;
  /** What the frame loads first (the referrer's hop page, or the page). */
  frameSrc: string;
  name: string;
  startedAt: number;
  bundleKey?: string;
}

type Outgoing = AppMessage extends infer M ? (M extends { id: number } ? Omit<M, "id"> : never) : never;

export function useSession() {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [page, setPage] = useState<LoadedPage | undefined>();
  const [connected, setConnected] = useState(false);
  const frameRef = useRef<string | undefined>(undefined);
  const pageNo = useRef(0);
  const claims = useRef(createClaims());
  const startedAt = useRef(0);
  const iframeRef = useRef<HTMLIFrameElement | null>(null);
  const nextId = useRef(1);
  const pageOrigin = useRef<string | undefined>(undefined);
  const pending = useRef(new Map<number, (ok: boolean, error?: string) => void>());
  /** The highest server record received over the event stream (for tests: "the app has seen it"). */
  const seenSeq = useRef(0);

  const add = useCallback((entry: Entry) => setEntries((list) => [...list, entry]), []);
  /** Claims server records for a page of this session (see lib/claims.ts) and adds those that were waiting. */
  const claimFor = useCallback(
    (key: string, page: number) => {
      for (const { record, page: p } of claim(claims.current, key, page)) add({ kind: "network", page: p, at: record.time, request: record });
    },
    [add],
  );

  // What the page's bridge posts.
  useEffect(() => {
    function onMessage(ev: MessageEvent) {
      const data = ev.data as BridgeEnvelope | undefined;
      if (!data || data.source !== BRIDGE_SOURCE || !frameRef.current || data.frame !== frameRef.current) return;
      if (iframeRef.current && ev.source !== iframeRef.current.contentWindow) return;
      const msg = data.msg;
      switch (msg.kind) {
        case "hello": {
          pageNo.current++;
          pageOrigin.current = new URL(msg.href).origin;
          add({ kind: "page", page: pageNo.current, at: msg.at, href: msg.href, title: msg.title, timeOrigin: msg.timeOrigin, csp: msg.csp, load: msg.load });
          claimFor(urlKey(msg.href), pageNo.current);
          if (msg.load) claimFor(loadKey(msg.load), pageNo.current);
          return;
        }
        case "ack": {
          pending.current.get(msg.id)?.(msg.ok, msg.error);
          pending.current.delete(msg.id);
          setEntries((list) =>
            list.map((e) => (e.kind === "action" && (e.detail as { id?: number } | undefined)?.id === msg.id ? { ...e, ok: msg.ok, error: msg.error } : e)),
          );
          return;
        }
        case "monitor":
          add({ kind: "monitor", page: pageNo.current, at: msg.at, event: msg.event });
          if (msg.event.type === "beacon" && typeof msg.event.requestId === "string") claimFor(requestKey(msg.event.requestId), pageNo.current);
          return;
        case "resources":
          for (const url of msg.urls) claimFor(urlKey(url), pageNo.current);
          return;
        case "lifecycle":
          return add({ kind: "lifecycle", page: pageNo.current, at: msg.at, state: msg.state });
        case "cookie":
          return add({ kind: "cookie", page: pageNo.current, at: msg.at, text: msg.text, by: msg.by });
        case "consent":
          return add({ kind: "consent", page: pageNo.current, at: msg.at, groups: msg.groups, via: msg.via });
        case "csp":
          return add({
            kind: "csp",
            page: pageNo.current,
            at: msg.at,
            directive: msg.directive,
            blockedURI: msg.blockedURI,
            sourceFile: msg.sourceFile,
            sample: msg.sample,
          });
        case "error":
          return add({ kind: "error", page: pageNo.current, at: msg.at, message: msg.message, source: msg.source });
        case "snapshot":
          return add({ kind: "snapshot", page: pageNo.current, at: msg.at, snapshot: msg.snapshot });
      }
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [add, claimFor]);

  // What reached the server: edge requests (sendBeacon during unload too), third parties, the bundle, the pages.
  useEffect(() => {
    const source = new EventSource("/api/events");
    source.addEventListener("open", () => setConnected(true));
    source.addEventListener("error", () => setConnected(false));
    source.addEventListener("request", (ev) => {
      const record = JSON.parse((ev as MessageEvent<string>).data) as NetworkRecord;
      seenSeq.current = Math.max(seenSeq.current, record.seq);
      const live = (window as unknown as { __sitetagsPreview?: { seenSeq?: number } }).__sitetagsPreview;
      if (live) live.seenSeq = seenSeq.current;
      if (!frameRef.current || record.time < startedAt.current - 50) return;
      // Only what a page of this session sent (not another tab's, not a page still unloading from the last Load).
      const page = offer(claims.current, record, Date.now());
      if (page !== undefined) add({ kind: "network", page, at: record.time, request: record });
    });
    return () => source.close();
  }, [add]);

  /** Loads the page for this state and bundle: a new session. */
  const load = useCallback(async (state: PreviewState, bundle: { key: string; host: string }, config: PreviewConfig) => {
    const template = findTemplate(state.page);
    const path = fullAddress(state.path)?.path ?? (normalizePath(state.path) || template?.path || "/");
    const query = pageQuery(state.path ? undefined : template?.query, state.flags, state.query);
    const frame = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    // The previous page's session ends now, not once the new page is staged: while the server stages it (an await),
    // the old page still runs in the frame, and nothing it posts or sends is shown in the session QA is about to read.
    frameRef.current = undefined;
    pending.current.clear();
    setEntries([]);
    await Promise.all([api.stage(bundle.host, bundle.key, state.csp), api.edgeMode(state.edge)]);
    const setup = pageSetup(state, config, {
      frame,
      parentOrigin: location.origin,
      dataLayer: template && !state.path ? (template.dataLayer ?? []) : [],
      now: Date.now(),
    });
    frameRef.current = frame;
    pageNo.current = 0;
    pageOrigin.current = undefined;
    claims.current = createClaims();
    startedAt.current = Date.now();
    pending.current.clear();
    setEntries([]);
    const src = pageUrl(bundle.host, path, query, location.port);
    setPage({
      frame,
      host: bundle.host,
      src,
      frameSrc: frameUrl(src, state.referrer),
      name: JSON.stringify(setup),
      startedAt: startedAt.current,
      bundleKey: bundle.key,
    });
  }, []);

  /** Sends a message to the page; resolves with the bridge's answer. */
  const send = useCallback(
    (msg: Outgoing, label: string): Promise<{ ok: boolean; error?: string }> => {
      const win = iframeRef.current?.contentWindow;
      const origin = pageOrigin.current;
      if (!win || !page || !origin) return Promise.resolve({ ok: false, error: "no page loaded" });
      const id = nextId.current++;
      add({ kind: "action", page: pageNo.current, at: Date.now(), action: label, detail: { id, ...msg } });
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pending.current.delete(id);
          resolve({ ok: false, error: "the page did not answer (it may have navigated away)" });
        }, 3000);
        pending.current.set(id, (ok, error) => {
          clearTimeout(timer);
          resolve({ ok, error });
        });
        win.postMessage({ source: APP_SOURCE, msg: { ...msg, id } as AppMessage }, origin);
      });
    },
    [add, page],
  );

  // For tests and the console: the live session.
  useEffect(() => {
    (window as unknown as { __sitetagsPreview?: unknown }).__sitetagsPreview = { entries, page, seenSeq: seenSeq.current };
  }, [entries, page]);

  return { entries, page, connected, load, send, iframeRef, setEntries };
}
