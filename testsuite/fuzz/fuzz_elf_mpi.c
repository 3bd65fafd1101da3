/*
 * fuzz_elf_mpi.c - which MPI a program links (lib/cosched/elf_mpi.c),
 * read from the user's own program file in the task: the bytes are the
 * file.  Promises checked (elf_mpi.h): an answer of the three, the
 * library name terminated within its buffer, empty exactly when the
 * answer is UNKNOWN, and naming the MPI the answer says.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include <sys/mman.h>

#include "cosched/elf_mpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char lib[32];
	enum cosched_mpi mpi;

	if (fd < 0)
		fd = memfd_create("elf", 0);
	if (fd < 0 || ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	memset(lib, 'x', sizeof(lib));
	mpi = cosched_elf_mpi(fd, lib, sizeof(lib));
	FUZZ_CHECK(mpi == COSCHED_MPI_UNKNOWN || mpi == COSCHED_MPI_OPENMPI ||
		   mpi == COSCHED_MPI_MPICH);
	FUZZ_CHECK(memchr(lib, '\0', sizeof(lib)));
	FUZZ_CHECK((mpi == COSCHED_MPI_UNKNOWN) == !lib[0]);
	FUZZ_CHECK(mpi == COSCHED_MPI_UNKNOWN ||
		   strlen(lib) == sizeof(lib) - 1 ||
		   cosched_mpi_of_soname(lib) == mpi);
	return 0;
}
