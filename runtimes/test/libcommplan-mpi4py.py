"""libcommplan-mpi4py.py: an unmodified mpi4py program calling Comm.Alltoallv (Debian's python3-mpi4py).

Each rank sends a seeded, uneven number of float64 values to every rank, received with gaps between the blocks, three
times with the same counts; every received byte goes to OUT/rank-R.bin. Usage: libcommplan-mpi4py.py OUT
"""
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
p, rank = comm.Get_size(), comm.Get_rank()


def count(i, j):
    return (i * 7 + j * 3) % 5 + (4 if (i + j) % 3 == 0 else 0)


scounts = [count(rank, j) for j in range(p)]
rcounts = [count(i, rank) for i in range(p)]
sdispls, rdispls = [], []
acc = 0
for c in scounts:
    sdispls.append(acc)
    acc += c
stotal = acc
acc = 0
for c in rcounts:
    rdispls.append(acc + 1)
    acc += c + 1
rtotal = acc
with open(f"{sys.argv[1]}/rank-{rank}.bin", "wb") as out:
    for it in range(3):
        send = bytearray(8 * stotal)
        for k in range(8 * stotal):
            send[k] = (rank * 131 + k * 17 + it * 7) % 251
        recv = bytearray(b"\xee" * (8 * rtotal))
        comm.Alltoallv([send, (scounts, sdispls), MPI.DOUBLE], [recv, (rcounts, rdispls), MPI.DOUBLE])
        out.write(recv)
