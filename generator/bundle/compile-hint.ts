/**
 * V8's explicit compile hint (Chrome 136+; other engines read a comment): it
 * must be a file's very first bytes. The bundle runs nearly all of its
 * functions while the page loads (boot, consent, identity, the page view), so
 * V8 compiles them all up front, on the streaming thread while the script
 * downloads, instead of lazily on the main thread at each first call, which
 * also parsed each function twice. `npm run bench` (edge) measures the
 * main-thread time with it. The deferred file opens with it too
 * (deferred.ts): it runs web-vitals' setup as soon as it arrives.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
