/**
 * What browsers reject that css-what parses: a selector the runtime hands to
 * querySelector must not throw there (a rule whose selector throws can never
 * fire, and the tracking is lost without a word). Checks the parsed tokens
 * and a few things only the source shows.
 */
import type { Selector } from "css-what";

/** Pseudo-classes Chromium's querySelector knows, without an argument. */
const PLAIN = new Set(
  "active any-link autofill checked default defined disabled empty enabled first-child first-of-type focus focus-visible focus-within fullscreen hover in-range indeterminate invalid last-child last-of-type link modal only-child only-of-type open optional out-of-range paused picture-in-picture placeholder-shown playing popover-open read-only read-write required root scope target user-invalid user-valid valid visited".split(
    " ",
  ),
);
/** Pseudo-classes that take a selector list. */
const LISTS = new Set(["not", "is", "where", "has"]);
/** Pseudo-classes that take an+b. */
const NTH = new Set(["nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type"]);
const NTH_ARG = /^\s*(odd|even|[+-]?\d*n(\s*[+-]\s*\d+)?|[+-]?\d+)(\s+of\s+\S.*)?\s*$/i;
const COMBINATORS = new Set(["child", "parent", "sibling", "adjacent", "descendant", "column-combinator"]);

/** The problem a browser would have with this (css-what-parsed) selector, or undefined. */
export function selectorProblem(source: string, parsed: Selector[][]): string | undefined {
  const bare = source.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  if (/[~|^$*]?=\s*\]/.test(bare)) return 'an attribute value after = may not be empty (write [name=""] for an empty one)';
  if (/#-?\d/.test(bare.replace(/\[[^\]]*\]/g, "[]"))) return 'an id after # may not start with a digit (write [id="1abc"])';
  return groupsProblem(parsed, false);
}

function groupsProblem(groups: Selector[][], relative: boolean): string | undefined {
  for (const group of groups) {
    if (!group.length) return "an empty selector";
    const last = group[group.length - 1];
    if (COMBINATORS.has(last.type)) return "the selector ends with a combinator (>, +, ~ or a space with nothing after it)";
    if (!relative && COMBINATORS.has(group[0].type) && group[0].type !== "descendant") return "the selector starts with a combinator";
    for (const token of group) {
      const problem = tokenProblem(token);
      if (problem) return problem;
    }
  }
  return undefined;
}

function tokenProblem(token: Selector): string | undefined {
  if ("namespace" in token && token.namespace && token.namespace !== "*") return `namespace prefixes (${token.namespace}|…) are not supported`;
  if (token.type === "pseudo-element") return `pseudo-elements (::${token.name}) never match an element`;
  if (token.type === "attribute" && token.name === "class" && token.action === "element" && (!token.value || /[.\s]/.test(token.value)))
    return "an empty class name (two dots in a row?)";
  if (token.type !== "pseudo") return undefined;
  const name = token.name.toLowerCase();
  if (LISTS.has(name)) return Array.isArray(token.data) ? groupsProblem(token.data, name === "has") : `:${name}() needs a selector list`;
  if (NTH.has(name))
    return typeof token.data === "string" && NTH_ARG.test(token.data) ? undefined : `:${name}() needs an+b, odd or even (got ${JSON.stringify(token.data)})`;
  if (name === "lang") return typeof token.data === "string" && token.data.trim() ? undefined : ":lang() needs a language";
  if (name === "dir") return token.data === "ltr" || token.data === "rtl" ? undefined : ":dir() needs ltr or rtl";
  if (PLAIN.has(name) || name.startsWith("-webkit-")) return token.data == null ? undefined : `:${name} takes no argument`;
  return `unknown pseudo-class :${token.name} (jQuery extensions such as :contains, :visible, :eq, :first do not work in browsers)`;
}
