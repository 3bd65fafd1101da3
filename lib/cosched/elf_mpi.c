/*
 * elf_mpi.c - which MPI a program links (see elf_mpi.h): the section
 * headers give the dynamic section and, through its sh_link, the string
 * table its DT_NEEDED entries point into; both are file offsets, so no
 * address has to be mapped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cosched/elf_mpi.h"

/* Bounds on what a program file may make us read. */
#define MAX_DYNAMIC 8192	/* entries of the dynamic section */
#define NAME_MAX_READ 128	/* a soname's bytes */

static const struct {
	const char *prefix;
	enum cosched_mpi mpi;
} sonames[] = {
	{ "libmpi.so.40", COSCHED_MPI_OPENMPI },	/* Open MPI 3-5 */
	{ "libmpi_mpifh.so", COSCHED_MPI_OPENMPI },	/* mpif.h, use mpi */
	{ "libmpi_usempi", COSCHED_MPI_OPENMPI },	/* use mpi(_f08) */
	{ "libmpich", COSCHED_MPI_MPICH },		/* libmpich, libmpichfort */
	{ "libmpi.so.12", COSCHED_MPI_MPICH },		/* MPICH's libmpi */
	{ "libmpifort.so.12", COSCHED_MPI_MPICH },
};

enum cosched_mpi cosched_mpi_of_soname(const char *soname)
{
	for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++)
		if (!strncmp(soname, sonames[i].prefix,
			     strlen(sonames[i].prefix)))
			return sonames[i].mpi;
	return COSCHED_MPI_UNKNOWN;
}

static bool read_at(int fd, void *buf, size_t len, Elf64_Off off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

static bool section(int fd, const Elf64_Ehdr *eh, size_t i, Elf64_Shdr *sh)
{
	return read_at(fd, sh, sizeof(*sh),
		       eh->e_shoff + (Elf64_Off)i * sizeof(*sh));
}

static bool is_elf64(const Elf64_Ehdr *eh)
{
	return !memcmp(eh->e_ident, ELFMAG, SELFMAG) &&
	       eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	       eh->e_shentsize == sizeof(Elf64_Shdr) &&
	       eh->e_shnum > 0;	/* a Half: at most 65535 headers read */
}

/* The soname at offset name of the string table strtab, into buf. */
static bool soname(int fd, const Elf64_Shdr *strtab, Elf64_Xword name,
		   char *buf, size_t len)
{
	size_t n = len - 1;

	if (name >= strtab->sh_size)
		return false;
	if (n > strtab->sh_size - name)
		n = strtab->sh_size - name;
	if (pread(fd, buf, n, (off_t)(strtab->sh_offset + name)) <= 0)
		return false;
	buf[n] = '\0';		/* pread may stop short: the rest is zero */
	return true;
}

static enum cosched_mpi scan_dynamic(int fd, const Elf64_Shdr *dyn,
				     const Elf64_Shdr *strtab, char *lib,
				     size_t lib_len)
{
	size_t n = dyn->sh_size / sizeof(Elf64_Dyn);

	if (n > MAX_DYNAMIC)
		n = MAX_DYNAMIC;
	for (size_t i = 0; i < n; i++) {
		char name[NAME_MAX_READ + 1] = "";
		enum cosched_mpi mpi;
		Elf64_Dyn d;

		if (!read_at(fd, &d, sizeof(d),
			     dyn->sh_offset + (Elf64_Off)i * sizeof(d)) ||
		    d.d_tag == DT_NULL)
			break;
		if (d.d_tag != DT_NEEDED ||
		    !soname(fd, strtab, d.d_un.d_val, name, sizeof(name)))
			continue;
		mpi = cosched_mpi_of_soname(name);
		if (mpi != COSCHED_MPI_UNKNOWN) {
			snprintf(lib, lib_len, "%s", name);
			return mpi;
		}
	}
	return COSCHED_MPI_UNKNOWN;
}

enum cosched_mpi cosched_elf_mpi(int fd, char *lib, size_t lib_len)
{
	Elf64_Ehdr eh;

	if (lib_len)
		lib[0] = '\0';
	if (!lib_len || !read_at(fd, &eh, sizeof(eh), 0) || !is_elf64(&eh))
		return COSCHED_MPI_UNKNOWN;
	for (size_t i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr dyn, strtab;

		if (!section(fd, &eh, i, &dyn))
			return COSCHED_MPI_UNKNOWN;
		if (dyn.sh_type != SHT_DYNAMIC)
			continue;
		if (dyn.sh_link >= eh.e_shnum ||
		    !section(fd, &eh, dyn.sh_link, &strtab) ||
		    strtab.sh_type != SHT_STRTAB)
			return COSCHED_MPI_UNKNOWN;
		return scan_dynamic(fd, &dyn, &strtab, lib, lib_len);
	}
	return COSCHED_MPI_UNKNOWN;
}
