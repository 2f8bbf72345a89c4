/**
 * Orders two strings by UTF-16 code units, the same on every machine.
 * `localeCompare` follows the process's locale (LANG): a Lithuanian
 * collation sorts "payments" before "parents", so `--shard` slices and the
 * manifest's order would differ between CI machines.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
