/** "A query parameter cb-disable-{tagcode} disables that tag." */
export function tagDisabled(query: URLSearchParams, tagCode: string): boolean {
  return query.has("cb-disable-" + tagCode);
}
