/** The model's size limits (nodes, entries, bytes per element) and its default element size. */

/** The largest P commplan accepts (sparse storage; dense matrices stop at MAX_DENSE_P). */
export const MAX_P = 1 << 20;
/** The largest P of a dense matrix (P^2 doubles: 2 GiB at 16384). */
export const MAX_DENSE_P = 16384;
/** The most non-zero entries a sparse matrix may have (its columns are 32-bit). */
export const MAX_ENTRIES = 2 ** 31;
/** The largest elementBytes a matrix or schedule file (or --element-bytes) may give. */
export const MAX_ELEMENT_BYTES = 1 << 20;
/** The default bytes per element when a matrix does not say. */
export const DEFAULT_ELEMENT_BYTES = 8;
