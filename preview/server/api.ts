/**
 * The preview app's host (preview.APEX): its API (/api/catalogue,
 * /api/bundle, /api/stage, /api/edge-mode, /api/events as Server-Sent
 * Events of every recorded request, /api/requests for polling), the guide
 * it links to, and the built app (preview/dist).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NetworkRecord } from "../src/lib/protocol";
import type { DistSet, DistSource } from "./dists";
import { EDGE_MODES, type EdgeMode } from "./edge";
import { header, send } from "./fictional-web";
import { CSP_POLICIES, renderInfoPage, type CspMode } from "./mock-page";
import { TYPES, type createStaticFiles } from "./static-files";

/** What the preview server knows and the app reads or changes. */
export interface PreviewState {
  apex: string;
  previewHost: string;
  cdnHost: string;
  sources: DistSource[];
  dists: DistSet;
  /** Every request recorded so far (not the app's own), the newest MAX_RECORDS. */
  records: NetworkRecord[];
  /** The app's open event streams. */
  clients: Set<ServerResponse>;
  /** Per site host: the bundle staged for it (instead of the one that runs there) and the page's CSP. */
  stages: Map<string, { key?: string; csp: CspMode }>;
  edgeMode: EdgeMode;
  /** The last record's number. */
  seq: number;
}

type Files = ReturnType<typeof createStaticFiles>;

export function createAppApi(state: PreviewState, files: Files) {
  const { dists } = state;

  function catalogue() {
    return {
      apex: state.apex,
      previewHost: state.previewHost,
      cdnHost: state.cdnHost,
      edgeMode: state.edgeMode,
      edgeModes: EDGE_MODES,
      cspModes: Object.keys(CSP_POLICIES),
      dists: state.sources.map((s) => ({ label: s.label, dir: s.dir })),
      problems: dists.problems(),
      bundles: dists.all().map((b) => ({
        key: b.key,
        dist: b.dist,
        site: b.site,
        env: b.env,
        file: b.file,
        alias: b.alias,
        bytes: b.bytes,
        gzipBytes: b.gzipBytes,
        integrity: b.integrity,
        ...(b.deferred ? { deferred: b.deferred } : {}),
        modules: b.modules,
        inputsHash: b.inputsHash,
        host: b.host,
        name: b.config?.site.name,
        internal: b.config?.site.internal ?? false,
        problem: b.problem,
      })),
    };
  }

  function events(req: IncomingMessage, res: ServerResponse, url: URL) {
    const since = Number(header(req, "last-event-id") ?? url.searchParams.get("since") ?? state.seq);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive" });
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ seq: state.seq })}\n\n`);
    for (const r of state.records) if (r.seq > since) res.write(`id: ${r.seq}\nevent: request\ndata: ${JSON.stringify(r)}\n\n`);
    state.clients.add(res);
    const ping = setInterval(() => res.write(": ping\n\n"), 15000);
    // The response's close (the request's fires as soon as its body is read).
    res.on("close", () => {
      clearInterval(ping);
      state.clients.delete(res);
    });
  }

  return function answerApp(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): void {
    const json = (status: number, value: unknown) =>
      send(res, status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" }, JSON.stringify(value));
    const p = url.pathname;
    if (p === "/api/health") return json(200, { ok: true });
    if (p === "/api/catalogue") return json(200, catalogue());
    if (p === "/api/bundle") {
      const b = dists.byKey(url.searchParams.get("key") ?? "");
      if (!b) return json(404, { error: "no such bundle" });
      const { config, ...info } = b;
      return json(200, { info, config: config?.raw ?? null, problem: b.problem });
    }
    if (p === "/api/stage" && req.method === "POST") {
      const input = parseBody(body) as { host?: string; key?: string; csp?: string };
      if (!input.host) return json(400, { error: "host is required" });
      state.stages.set(input.host, { key: input.key, csp: (Object.keys(CSP_POLICIES).includes(input.csp ?? "") ? input.csp : "strict") as CspMode });
      return json(200, { ok: true });
    }
    if (p === "/api/edge-mode" && req.method === "POST") {
      const input = parseBody(body) as { mode?: string };
      if (!EDGE_MODES.includes(input.mode as EdgeMode)) return json(400, { error: `mode must be one of ${EDGE_MODES.join(", ")}` });
      state.edgeMode = input.mode as EdgeMode;
      return json(200, { mode: state.edgeMode });
    }
    if (p === "/api/requests") {
      const since = Number(url.searchParams.get("since") ?? 0);
      return json(200, { records: state.records.filter((r) => r.seq > since) });
    }
    if (p === "/api/events") return events(req, res, url);
    if (p.startsWith("/api/")) return json(404, { error: `no API ${p}` });
    // The guide the first screen links to (docs/preview.md and its screenshots).
    const doc = files.doc(p);
    if (doc) return send(res, doc.status, doc.headers, doc.body);
    const file = files.app(p, header(req, "accept-encoding") ?? "");
    if (!file)
      return send(
        res,
        503,
        { "content-type": TYPES[".html"] },
        renderInfoPage("The preview app is not built", "<p>Run <code>npm run preview</code>: it builds the app (preview/dist) before it starts.</p>"),
      );
    send(res, file.status, file.headers, file.body);
  };
}

function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return {};
  }
}
