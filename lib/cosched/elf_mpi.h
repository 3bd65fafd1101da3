/*
 * elf_mpi.h - which MPI a program links, from its ELF file's DT_NEEDED
 * entries: the SPANK plugin preloads the MPI shim (built against Open
 * MPI) only into programs it can serve.  Preloaded into an MPICH Fortran
 * program, the shim's libmpi would come before MPICH's in the search
 * order and the program would fail (cosched_mpi(7)).
 *
 * The file is the user's own program, read in the user's task: anything
 * malformed is COSCHED_MPI_UNKNOWN, every read is bounded, and nothing in
 * the file is trusted as a size.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_ELF_MPI_H
#define COALLOC_COSCHED_ELF_MPI_H

#include <stdbool.h>
#include <stddef.h>

enum cosched_mpi {
	COSCHED_MPI_UNKNOWN,	/* not an ELF, no MPI library named, malformed */
	COSCHED_MPI_OPENMPI,
	COSCHED_MPI_MPICH,
};

/*
 * The MPI of the 64-bit ELF file open on fd (read with pread), from the
 * first DT_NEEDED entry that names one; that entry's name into lib (lib_len
 * bytes, truncated, "" when none).
 */
enum cosched_mpi cosched_elf_mpi(int fd, char *lib, size_t lib_len);

/* Whether the MPI shim (built against Open MPI) may be preloaded into a
 * program of this MPI: not into MPICH's, and into anything else, whose
 * children (a job script's) it serves or leaves alone. */
static inline bool cosched_shim_serves(enum cosched_mpi mpi)
{
	return mpi != COSCHED_MPI_MPICH;
}

/* Which MPI a library's soname belongs to ("libmpich.so.12"...). */
enum cosched_mpi cosched_mpi_of_soname(const char *soname);

#endif /* COALLOC_COSCHED_ELF_MPI_H */
