/**
 * Max pair load model: the distribution of the direct protocol's rounds on a random h-relation (001 sec 3-4), pairs
 * taken as independent.
 */

/** The model's distribution of the max pair load. */
export interface MaxLoadModel {
  readonly mean: number;
  readonly sd: number;
  /** P(max <= k). */
  cdf(k: number): number;
}

/** ln Gamma(x) for x > 0 (Lanczos, g = 7; relative error about 1e-15). */
function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const y = x - 1,
    t = y + 7.5;
  let a = c[0]!;
  for (let i = 1; i < 9; i++) a += c[i]! / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/**
 * The max over the N (N - 1) off-diagonal pairs of a load that is Binomial(h, 1/N) (the marginal of a
 * pair in 001's random relation and in the union of h random permutations), the pairs taken as
 * independent: P(max <= k) = F(k)^(N (N - 1)). The real pairs are weakly dependent (a row sums to
 * h), so this is an approximation; it is checked against sampled relations in the tests.
 */
export function maxPairLoadModel(n: number, h: number): MaxLoadModel {
  const pairs = n * (n - 1);
  const cdfs: number[] = [];
  if (n >= 2 && h > 0) {
    const lp = Math.log(1 / n),
      lq = Math.log1p(-1 / n),
      lh = lnGamma(h + 1);
    let f = 0;
    for (let k = 0; k <= h; k++) {
      f += Math.exp(lh - lnGamma(k + 1) - lnGamma(h - k + 1) + k * lp + (h - k) * lq);
      const c = Math.exp(pairs * Math.log(Math.min(1, f)));
      cdfs.push(c);
      if (c > 1 - 1e-15) break;
    }
  }
  const cdf = (k: number): number => (k < 0 ? 0 : k >= cdfs.length ? 1 : cdfs[Math.floor(k)]!);
  let mean = 0,
    second = 0;
  for (let k = 0; k < cdfs.length; k++) {
    const pk = cdfs[k]! - (k > 0 ? cdfs[k - 1]! : 0);
    mean += k * pk;
    second += k * k * pk;
  }
  return { mean, sd: Math.sqrt(Math.max(0, second - mean * mean)), cdf };
}
