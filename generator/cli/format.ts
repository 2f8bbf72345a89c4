import type { BuildResult } from "../index.js";

/** Said after the diagnostics of a failed build (not a diagnostic: no code). */
export const buildLeftAsItWas = (dir: string) => `build failed: ${dir} was left as it was`;

export const formatBytes = (n: number) => (n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

export function table(head: string[], rows: Array<Array<string | number>>): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return `${[line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n")}\n`;
}

export function median(values: number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : Math.round((s[mid - 1] + s[mid]) / 2);
}

export function summaryTable(result: BuildResult): string {
  const gz = result.bundles.map((b) => b.gzipBytes);
  const br = result.bundles.map((b) => b.brotliBytes);
  const largest = [...result.bundles].sort((a, b) => b.gzipBytes - a.gzipBytes)[0];
  const rows: Array<[string, string]> = [
    ["bundles built", String(result.built)],
    ["bundles reused", String(result.reused)],
    ["runtime pieces compiled", String(result.piecesCompiled)],
    ["total gzip", formatBytes(gz.reduce((a, b) => a + b, 0))],
    ["median gzip", formatBytes(median(gz))],
    ["total brotli", formatBytes(br.reduce((a, b) => a + b, 0))],
    ["median brotli", formatBytes(median(br))],
    [
      "largest bundle",
      largest
        ? `${largest.env}/${largest.site} ${formatBytes(largest.gzipBytes)} gzip, ${formatBytes(largest.brotliBytes)} brotli (${formatBytes(largest.bytes)} min)`
        : "-",
    ],
    ["time", `${(result.timeMs / 1000).toFixed(2)} s`],
  ];
  // The second file, loaded after the page view (bundle/deferred.ts): shown beside the first, never budgeted.
  const deferred = result.bundles.filter((b) => b.deferred).sort((a, b) => b.deferred!.gzipBytes - a.deferred!.gzipBytes)[0]?.deferred;
  if (deferred)
    rows.splice(rows.length - 1, 0, [
      "deferred file",
      `${result.bundles.filter((b) => b.deferred).length} bundles, at most ${formatBytes(deferred.gzipBytes)} gzip, ${formatBytes(deferred.brotliBytes)} brotli (${formatBytes(deferred.bytes)} min), after the page view; budgets count the first file only`,
    ]);
  return `\n${table(["summary", ""], rows)}`;
}
