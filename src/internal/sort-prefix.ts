/** sortPrefix: sorts the first n entries of an Int32Array in place, cheaply when n is small. */

/** Sorts a[0 .. n) ascending: an insertion sort for up to 16 entries (no call, no subarray), else the typed sort. */
export function sortPrefix(a: Int32Array, n: number): void {
  if (n > 16) {
    a.subarray(0, n).sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const x = a[i]!;
    let j = i - 1;
    for (; j >= 0 && a[j]! > x; j--) a[j + 1] = a[j]!;
    a[j + 1] = x;
  }
}
