/** Tags: the bound under which the lowering keeps every message tag. */

/** Tags stay below this bound (a power of two): MPI guarantees MPI_TAG_UB >= 32767. */
export const TAG_LIMIT = 32768;
