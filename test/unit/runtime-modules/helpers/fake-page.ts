/**
 * A small fake of the browser objects the runtime touches (no jsdom here).
 * Enough for the runtime's own calls: script insertion, getElementById,
 * querySelector on registered elements, selector validity (css-what),
 * document.cookie semantics for name/value/max-age, localStorage, window
 * events and the monitor hook. Real-browser wiring is tested in Chromium.
 */
import { parse as parseSelector } from "css-what";
import type { MonitorEvent } from "../../../../runtime-modules/core/types";

export interface FakeElement {
  tagName: string;
  id: string;
  async: boolean;
  src: string;
  nonce: string;
  attributes: Record<string, string>;
  onload: null | (() => void);
  onerror: null | (() => void);
  clicks: number;
  removed: boolean;
  parent: FakeContainer | null;
  setAttribute(name: string, value: string): void;
  getAttribute(name: string): string | null;
  remove(): void;
  click(): void;
}

export interface FakeContainer {
  children: FakeElement[];
  appendChild(el: FakeElement): FakeElement;
}

function container(): FakeContainer {
  const c: FakeContainer = {
    children: [],
    appendChild(el) {
      c.children.push(el);
      el.parent = c;
      return el;
    },
  };
  return c;
}

export function fakeElement(tagName = "DIV", props: Partial<FakeElement> = {}): FakeElement {
  const el: FakeElement = {
    tagName,
    id: "",
    async: false,
    src: "",
    nonce: "",
    attributes: {},
    onload: null,
    onerror: null,
    clicks: 0,
    removed: false,
    parent: null,
    setAttribute(name, value) {
      el.attributes[name] = value;
    },
    getAttribute(name) {
      return name in el.attributes ? el.attributes[name] : null;
    },
    remove() {
      el.removed = true;
      if (el.parent) el.parent.children.splice(el.parent.children.indexOf(el), 1);
      el.parent = null;
    },
    click() {
      el.clicks++;
    },
    ...props,
  };
  return el;
}

function checkSelector(selector: string): void {
  try {
    parseSelector(selector);
  } catch (e) {
    throw new SyntaxError(`'${selector}' is not a valid selector`, { cause: e });
  }
}

export interface FakePageOptions {
  url?: string;
  readyState?: DocumentReadyState;
  referrer?: string;
  storage?: Record<string, string>;
  storageThrows?: boolean;
  currentScript?: Partial<FakeElement> | null;
  /** Scripts already in the page (for script[nonce] and getElementById). */
  scripts?: Array<Partial<FakeElement>>;
  activeGroups?: string;
}

export function fakePage(options: FakePageOptions = {}) {
  const url = new URL(options.url || "https://www.kiwi.example/");
  const head = container();
  const body = container();
  for (const props of options.scripts || []) body.appendChild(fakeElement("SCRIPT", props));
  const registered: Record<string, FakeElement> = {};
  const jar: Record<string, string> = {};
  const cookieWrites: string[] = [];
  const docListeners: Record<string, Array<() => void>> = {};
  const winListeners: Record<string, Array<(event: unknown) => void>> = {};
  const store: Record<string, string> = { ...options.storage };
  const monitorEvents: MonitorEvent[] = [];

  const all = () => [...head.children, ...body.children, ...Object.values(registered)];

  const document = {
    readyState: options.readyState || "complete",
    referrer: options.referrer || "",
    currentScript: options.currentScript ? fakeElement("SCRIPT", options.currentScript) : null,
    head,
    body,
    documentElement: fakeElement("HTML"),
    get cookie() {
      return Object.entries(jar)
        .map(([k, v]) => `${k}=${v}`)
        .join("; ");
    },
    set cookie(value: string) {
      cookieWrites.push(value);
      const [pair, ...attrs] = value.split(";").map((s) => s.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      if (attrs.some((a) => /^max-age=(0|-\d+)$/i.test(a))) delete jar[name];
      else jar[name] = pair.slice(eq + 1);
    },
    createElement(tag: string) {
      return fakeElement(tag.toUpperCase());
    },
    createDocumentFragment() {
      return {
        querySelector(selector: string) {
          checkSelector(selector);
          return null;
        },
      };
    },
    getElementById(id: string) {
      return all().find((el) => el.id === id) || null;
    },
    querySelector(selector: string) {
      checkSelector(selector);
      return registered[selector] || null;
    },
    querySelectorAll(selector: string) {
      checkSelector(selector);
      if (selector === "script[nonce]") return body.children.filter((el) => el.tagName === "SCRIPT" && "nonce" in el.attributes);
      return registered[selector] ? [registered[selector]] : [];
    },
    addEventListener(type: string, fn: () => void) {
      (docListeners[type] ||= []).push(fn);
    },
  };

  const localStorage = {
    getItem(key: string) {
      if (options.storageThrows) throw new Error("SecurityError");
      return key in store ? store[key] : null;
    },
    setItem(key: string, value: string) {
      if (options.storageThrows) throw new Error("SecurityError");
      store[key] = String(value);
    },
    removeItem(key: string) {
      if (options.storageThrows) throw new Error("SecurityError");
      delete store[key];
    },
  };

  const window: Record<string, any> = {
    document,
    location: {
      hostname: url.hostname,
      pathname: url.pathname,
      search: url.search,
      hash: url.hash,
      href: url.href,
      protocol: url.protocol,
    },
    addEventListener(type: string, fn: (event: unknown) => void) {
      (winListeners[type] ||= []).push(fn);
    },
    navigator: { userAgent: "Mozilla/5.0 (test)" },
    sessionStorage: localStorage,
    setTimeout: () => 0,
    clearTimeout: () => undefined,
    __sitetagsMonitors: [(event: MonitorEvent) => monitorEvents.push(event)],
  };
  if (options.storageThrows) {
    Object.defineProperty(window, "localStorage", {
      get() {
        throw new Error("SecurityError");
      },
    });
  } else window.localStorage = localStorage;
  if (options.activeGroups !== undefined) window.OnetrustActiveGroups = options.activeGroups;

  return {
    window,
    document,
    store,
    jar,
    cookieWrites,
    monitorEvents,
    head,
    /** Makes document.querySelector(selector) return an element. */
    register(selector: string, el: FakeElement = fakeElement()) {
      registered[selector] = el;
      return el;
    },
    /** Fires a document event (DOMContentLoaded). */
    fireDocument(type: string) {
      if (type === "DOMContentLoaded") document.readyState = "interactive";
      for (const fn of docListeners[type] || []) fn();
    },
    /** Fires a window event. */
    fireWindow(type: string, event: unknown = { type }) {
      for (const fn of winListeners[type] || []) fn(event);
    },
    windowListeners: winListeners,
    /** The inserted <script> elements. */
    scripts: () => head.children.filter((el) => el.tagName === "SCRIPT"),
  };
}

export type FakePage = ReturnType<typeof fakePage>;

/** Lets pending promise callbacks run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
