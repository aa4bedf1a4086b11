/**
 * Unzeroed typed arrays: columns a caller writes in full before anyone reads them, on memory the allocator hands
 * back as it is (no zero fill: that fill costs as much as writing the column).
 */

/** The typed arrays `unzeroed` makes. */
type Column = Uint8Array | Uint32Array | Float64Array;

/**
 * A new typed array of `n` elements whose contents are whatever the memory held: every element must be written before
 * the array is read or returned. Its own ArrayBuffer (byte offset 0, not a pooled slice).
 */
export function unzeroed<T extends Column>(
  ctor: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number },
  n: number,
): T {
  return new ctor(Buffer.allocUnsafeSlow(n * ctor.BYTES_PER_ELEMENT).buffer as ArrayBuffer, 0, n);
}
