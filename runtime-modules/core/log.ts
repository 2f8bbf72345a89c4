import type { LogEntry, Logger, LogLevel, Monitor } from "./types";
import { now } from "./now";

/** How many log entries the ring buffer keeps. */
export const LOG_LIMIT = 200;

/** Console prefix of every line printed in debug mode. */
export const LOG_PREFIX = "[sitetags]";

export interface RuntimeLogger extends Logger {
  /** The ring buffer itself (the last LOG_LIMIT entries, oldest first). */
  readonly entries: LogEntry[];
}

/**
 * The logger. Every entry goes to the ring buffer and to the monitor; it is
 * printed to the console, prefixed "[sitetags]", only when debug mode is on.
 */
export function createLogger(monitor: Monitor, enabled: boolean, out: Pick<Console, LogLevel> = console): RuntimeLogger {
  const entries: LogEntry[] = [];
  function write(level: LogLevel, message: string, data?: unknown, code?: string): void {
    try {
      const entry: LogEntry = { level, message, t: now() };
      if (code !== undefined) entry.code = code;
      if (data !== undefined) entry.data = data;
      if (entries.push(entry) > LOG_LIMIT) entries.shift();
      monitor.emit("log", { level, message, code, data });
      if (enabled) {
        const line: unknown[] = [LOG_PREFIX, message];
        if (code !== undefined) line.push("(" + code + ")");
        if (data !== undefined) line.push(data);
        out[level](...line);
      }
    } catch (e) {
      // Logging never fails the caller.
    }
  }
  return {
    enabled,
    entries,
    debug: (message, data) => write("debug", message, data),
    info: (message, data) => write("info", message, data),
    warn: (message, data, code) => write("warn", message, data, code),
    error: (message, data, code) => write("error", message, data, code),
  };
}

/** A readable form of a caught value for log data. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.name + ": " + e.message : String(e);
}
