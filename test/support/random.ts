/**
 * A small seeded generator (the C library's LCG), so a randomized test can be replayed from its
 * seed: `rand` in [0, 1), `int(n)` in [0, n), `pick` one of a list.
 */
export function seeded(seed: number) {
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { rand, int, pick };
}

/**
 * Mulberry32: a seeded generator of [0, 1) with a longer period and better mixing than the LCG,
 * for sets whose every member must differ (fuzz cases, synthetic plate scenes).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
