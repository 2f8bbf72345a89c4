/** The runtime's version (package.json "version"; a unit test keeps them equal). */
export const VERSION = "0.1.0";
