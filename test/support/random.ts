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
