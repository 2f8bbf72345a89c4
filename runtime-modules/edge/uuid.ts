/** A v4 UUID (crypto.randomUUID where present, else getRandomValues, else Math.random). */
export function uuid4(crypto: Crypto | undefined): string {
  if (crypto?.randomUUID) return crypto.randomUUID();
  const b = new Uint8Array(31);
  if (crypto) crypto.getRandomValues(b);
  else for (let i = 0; i < 31; i++) b[i] = Math.random() * 256;
  let i = 0;
  // Each 0 or 1 a random hex digit; 4 the version; 8 the variant (8, 9, a or b).
  return "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) => (+c ^ (b[i++] & (15 >> (+c / 4)))).toString(16));
}
