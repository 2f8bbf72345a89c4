/** Types of cdp-pipe.js (a plain JavaScript module of the bench). */
export interface PipeChromium {
  send(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<any>;
  waitFor(method: string, sessionId?: string, test?: (params: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}
export function launchPipe(executablePath: string, args: string[]): PipeChromium;
export function scriptTime(pipe: PipeChromium, url: string, options?: { cookies?: Array<Record<string, unknown>>; settleMs?: number }): Promise<number>;
export function unionLength(intervals: Array<[number, number]>): number;
export function scriptTimeWithMicrotasks(
  pipe: PipeChromium,
  url: string,
  options?: { cookies?: Array<Record<string, unknown>>; settleMs?: number },
): Promise<{ scriptMs: number; withMicrotasksMs: number }>;
export function openTab(
  pipe: PipeChromium,
  browserContextId: string,
  cookies?: Array<Record<string, unknown>>,
): Promise<{ targetId: string; sessionId: string }>;
export function navigateAndSettle(pipe: PipeChromium, sessionId: string, url: string, settleMs: number): Promise<void>;
