/*
 * test_elf_mpi.c - which MPI a program links (lib/cosched/elf_mpi.c):
 * small ELF files made here with the DT_NEEDED entries of Open MPI, MPICH
 * (C and Fortran) and no MPI programs; this test's own executable; and
 * files that are not ELF, truncated at every length, or whose sizes and
 * links point anywhere: never more than UNKNOWN, never a crash.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* memfd_create */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cosched/elf_mpi.h"
#include "tap.h"

#define STR_OFF 64
#define DYN_OFF 512
#define SH_OFF 1024
#define FILE_LEN (SH_OFF + 3 * sizeof(Elf64_Shdr))

/* An ELF file image with these DT_NEEDED names (NULL-terminated). */
static size_t make_elf(unsigned char *img, const char *const *needed)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Dyn *dyn = (Elf64_Dyn *)(img + DYN_OFF);
	Elf64_Shdr *sh = (Elf64_Shdr *)(img + SH_OFF);
	size_t str = 1, n = 0;

	memset(img, 0, FILE_LEN);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_EXEC;
	eh->e_shoff = SH_OFF;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = 3;
	for (; needed[n]; n++) {
		strcpy((char *)img + STR_OFF + str, needed[n]);
		dyn[n] = (Elf64_Dyn){ .d_tag = DT_NEEDED, .d_un.d_val = str };
		str += strlen(needed[n]) + 1;
	}
	dyn[n] = (Elf64_Dyn){ .d_tag = DT_NULL };
	sh[1] = (Elf64_Shdr){ .sh_type = SHT_STRTAB, .sh_offset = STR_OFF,
			      .sh_size = str };
	sh[2] = (Elf64_Shdr){ .sh_type = SHT_DYNAMIC, .sh_offset = DYN_OFF,
			      .sh_size = (n + 1) * sizeof(Elf64_Dyn),
			      .sh_link = 1 };
	return FILE_LEN;
}

static int memfd_of(const unsigned char *img, size_t len)
{
	int fd = memfd_create("elf", 0);

	if (fd >= 0 && write(fd, img, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

static enum cosched_mpi mpi_of(const unsigned char *img, size_t len,
			       char *lib, size_t lib_len)
{
	int fd = memfd_of(img, len);
	enum cosched_mpi mpi = COSCHED_MPI_UNKNOWN;

	if (fd >= 0) {
		mpi = cosched_elf_mpi(fd, lib, lib_len);
		close(fd);
	}
	return mpi;
}

static const char *const ompi_c[] = { "libmpi.so.40", "libc.so.6", NULL };
static const char *const ompi_f[] = { "libmpi_mpifh.so.40", "libgfortran.so.5", NULL };
static const char *const mpich_c[] = { "libc.so.6", "libmpich.so.12", NULL };
static const char *const mpich_f[] = { "libmpichfort.so.12", "libc.so.6", NULL };
static const char *const plain[] = { "libc.so.6", NULL };

static void cases(void)
{
	static unsigned char img[FILE_LEN];
	const struct {
		const char *const *needed;
		enum cosched_mpi mpi;
		const char *lib, *what;
	} table[] = {
		{ ompi_c, COSCHED_MPI_OPENMPI, "libmpi.so.40", "Open MPI, C" },
		{ ompi_f, COSCHED_MPI_OPENMPI, "libmpi_mpifh.so.40", "Open MPI, Fortran" },
		{ mpich_c, COSCHED_MPI_MPICH, "libmpich.so.12", "MPICH, C" },
		{ mpich_f, COSCHED_MPI_MPICH, "libmpichfort.so.12", "MPICH, Fortran" },
		{ plain, COSCHED_MPI_UNKNOWN, "", "no MPI" },
	};
	char lib[64];

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		size_t len = make_elf(img, table[i].needed);

		is_int(mpi_of(img, len, lib, sizeof(lib)), table[i].mpi,
		       "%s: the MPI", table[i].what);
		is_str(lib, table[i].lib, "%s: the library named", table[i].what);
	}
	make_elf(img, mpich_c);
	is_int(mpi_of(img, FILE_LEN, lib, 4), COSCHED_MPI_MPICH,
	       "a short buffer: the MPI still");
	is_str(lib, "lib", "  the name truncated");
}

/* Every truncation and every single-byte change: no crash, and nothing
 * but the right answer or UNKNOWN. */
static void damage(void)
{
	static unsigned char img[FILE_LEN], bad[FILE_LEN];
	size_t len = make_elf(img, mpich_f), wrong = 0, cut_wrong = 0;
	char lib[64];

	for (size_t cut = 0; cut < len; cut++)
		cut_wrong += mpi_of(img, cut, lib, sizeof(lib)) ==
			     COSCHED_MPI_OPENMPI;
	is_int(cut_wrong, 0, "truncated at each of %zu lengths: never Open MPI", len);
	for (size_t at = 0; at < len; at++)
		for (unsigned v = 0; v < 256; v += 51) {
			enum cosched_mpi mpi;

			memcpy(bad, img, len);
			bad[at] = (unsigned char)v;
			mpi = mpi_of(bad, len, lib, sizeof(lib));
			wrong += mpi == COSCHED_MPI_OPENMPI ||
				 strlen(lib) >= sizeof(lib);
		}
	is_int(wrong, 0, "every byte changed to 6 values: no crash, never Open MPI");
	make_elf(img, ompi_c);
	((Elf64_Shdr *)(img + SH_OFF))[1].sh_size = ~0ull;
	((Elf64_Shdr *)(img + SH_OFF))[2].sh_size = ~0ull;
	is_int(mpi_of(img, len, lib, sizeof(lib)), COSCHED_MPI_OPENMPI,
	       "sizes of 2^64: bounded reads, the answer still");
}

int main(void)
{
	char lib[64];
	int fd;

	plan(18);
	cases();
	damage();
	fd = open("/proc/self/exe", O_RDONLY);
	is_int(cosched_elf_mpi(fd, lib, sizeof(lib)), COSCHED_MPI_UNKNOWN,
	       "this test's own executable: no MPI");
	close(fd);
	fd = memfd_create("text", 0);
	(void)!write(fd, "#!/bin/sh\nexec ./a.out\n", 23);
	is_int(cosched_elf_mpi(fd, lib, sizeof(lib)), COSCHED_MPI_UNKNOWN,
	       "a script: unknown");
	close(fd);
	is_int(cosched_elf_mpi(-1, lib, sizeof(lib)), COSCHED_MPI_UNKNOWN,
	       "a bad descriptor: unknown");
	return done_testing();
}
