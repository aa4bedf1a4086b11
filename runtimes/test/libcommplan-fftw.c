/*
 * libcommplan-fftw.c: FFTW's MPI transform, unmodified (Debian's libfftw3-mpi-dev): a 2D complex DFT of N0 x N1
 * seeded values distributed by rows, forward, out of place with FFTW_ESTIMATE | FFTW_DESTROY_INPUT and the output
 * transposed; FFTW moves the data with its own MPI calls (MPI_Alltoall(v) on its alltoall transpose). Every output
 * byte goes to OUT/rank-R.bin. Usage: libcommplan-fftw OUT [N0 N1]
 */
#include <fftw3-mpi.h>
#include <string.h>

#include "libcommplan-common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  ptrdiff_t n0 = argc > 3 ? atoi(argv[2]) : 60, n1 = argc > 3 ? atoi(argv[3]) : 36, local_n0, start0;
  ptrdiff_t alloc = fftw_mpi_local_size_2d(n0, n1, MPI_COMM_WORLD, &local_n0, &start0);
  fftw_complex *data = fftw_alloc_complex((size_t)alloc), *res = fftw_alloc_complex((size_t)alloc);
  fftw_plan plan = fftw_mpi_plan_dft_2d(n0, n1, data, res, MPI_COMM_WORLD, FFTW_FORWARD,
                                        FFTW_ESTIMATE | FFTW_DESTROY_INPUT | FFTW_MPI_TRANSPOSED_OUT);
  FILE *out = open_dump(argv[1]);
  for (int it = 0; it < 3; it++) {
    for (ptrdiff_t i = 0; i < local_n0; i++) {
      for (ptrdiff_t j = 0; j < n1; j++) {
        data[i * n1 + j][0] = (double)(hash3((uint32_t)(start0 + i), (uint32_t)j, (uint32_t)it) % 1000) / 10.0;
        data[i * n1 + j][1] = (double)(hash3((uint32_t)j, (uint32_t)(start0 + i), (uint32_t)it) % 1000) / 10.0;
      }
    }
    memset(res, 0, sizeof(fftw_complex) * (size_t)alloc);
    fftw_execute(plan);
    dump(out, res, sizeof(fftw_complex) * (size_t)alloc);
  }
  fclose(out);
  fftw_destroy_plan(plan);
  fftw_free(data);
  fftw_free(res);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
