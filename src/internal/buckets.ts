/** Buckets: counting sort / CSR build over typed arrays (count keys, prefix-sum to offsets, place items stably). */

/** Offsets or items: the typed arrays the bucketing helpers write. */
export type BucketArray = Int32Array | Uint32Array;

/** Keys (or item lists) the bucketing helpers read. */
export type KeyArray = ArrayLike<number>;

/** In place: start[k + 1] += start[k] for k in 0..range-1, so counts kept one slot up become start offsets. */
export function prefixSums(start: BucketArray, range: number): void {
  for (let k = 0; k < range; k++) start[k + 1] = start[k + 1]! + start[k]!;
}

/**
 * Offsets of the items lo..hi-1 grouped by key[x] in [0, range): start[k] .. start[k + 1] are the slots of key k
 * (start has range + 1 entries, start[0] = 0). `start`, when given, must be zero-filled.
 */
export function bucketStarts(key: KeyArray, range: number, lo?: number, hi?: number): Int32Array;
export function bucketStarts<S extends BucketArray>(key: KeyArray, range: number, lo: number, hi: number, start: S): S;
export function bucketStarts(
  key: KeyArray,
  range: number,
  lo = 0,
  hi = key.length,
  start: BucketArray = new Int32Array(range + 1),
): BucketArray {
  for (let x = lo; x < hi; x++) start[key[x]! + 1]!++;
  prefixSums(start, range);
  return start;
}

/**
 * Stable placement by key, with `start` from `bucketStarts`: the items in `order` (all of it), or lo..hi-1 when
 * order is null, go to out[start[k] ..] in the order given. Returns out (length start[range] by default).
 */
export function bucketItems(
  key: KeyArray,
  start: BucketArray,
  order: KeyArray | null,
  lo?: number,
  hi?: number,
): Int32Array;
export function bucketItems<O extends BucketArray>(
  key: KeyArray,
  start: BucketArray,
  order: KeyArray | null,
  lo: number,
  hi: number,
  out: O,
): O;
export function bucketItems(
  key: KeyArray,
  start: BucketArray,
  order: KeyArray | null,
  lo = 0,
  hi = key.length,
  out?: BucketArray,
): BucketArray {
  const range = start.length - 1;
  const items = out ?? new Int32Array(start[range]!);
  const fill = start.slice(0, range);
  if (order !== null) {
    for (let t = 0; t < order.length; t++) {
      const x = order[t]!;
      items[fill[key[x]!]!++] = x;
    }
  } else for (let x = lo; x < hi; x++) items[fill[key[x]!]!++] = x;
  return items;
}

/**
 * Counting sort of the indices 0..key.length-1 by key[x] in [0, range): start offsets and the items in stable order.
 */
export function groupByKey(key: KeyArray, range: number): { start: Int32Array; items: Int32Array } {
  const start = bucketStarts(key, range);
  return { start, items: bucketItems(key, start, null) };
}
