/**
 * "Did you mean": the nearest of a few names to a word. No zod here, so the
 * build's plan can suggest without loading the schemas.
 */

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3))) return best;
  // A typo late in a long key ("sampel" for "sampling"): the one candidate sharing the longest prefix of 4 or more.
  const prefix = (c: string) => {
    let n = 0;
    while (n < word.length && n < c.length && word[n].toLowerCase() === c[n].toLowerCase()) n++;
    return n;
  };
  const longest = Math.max(0, ...candidates.map(prefix));
  const sharing = candidates.filter((c) => prefix(c) === longest);
  return longest >= 4 && sharing.length === 1 ? sharing[0] : undefined;
}
