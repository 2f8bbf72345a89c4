/**
 * Types of the page globals the runtime reads or writes. Types only: nothing
 * here exists at run time.
 */
import type { EnvName } from "../../generator/config/bundle-config.js";
import type { LogEntry, MonitorEvent } from "./types";

/** A function the page (the preview, a test) puts in window.__sitetagsMonitors. */
export type MonitorListener = (event: MonitorEvent) => void;

export type Commands = Record<string, (...args: unknown[]) => unknown>;

/** window.sitetags: read-only facts about the running bundle. */
export interface SitetagsGlobal {
  readonly version: string;
  readonly site: string;
  /** The environment detected from the host name. */
  readonly env: EnvName;
  /** Names of the modules that started. */
  readonly modules: readonly string[];
  /** The last 200 log entries (a copy on each read). */
  readonly log: readonly LogEntry[];
  /** Each started module's commands, by module name. */
  readonly commands: Readonly<Record<string, Readonly<Commands>>>;
  /** Direct-call rules: `sitetags.track("scoreShown", detail)`. */
  track(name: string, detail?: unknown): void;
}

export interface SitetagsWindow extends Window {
  __sitetagsMonitors?: MonitorListener[];
  sitetags?: SitetagsGlobal;
  /** The consent banner's active groups, e.g. ",C0001,C0002,". */
  OnetrustActiveGroups?: string;
  /** Called by the consent banner when it loads and on every consent change. */
  OptanonWrapper?: (...args: unknown[]) => unknown;
}
