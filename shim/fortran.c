/*
 * fortran.c - Open MPI's Fortran bindings (mpif.h, `use mpi`, and
 * `use mpi_f08`) call PMPI_ directly, so without these a Fortran program
 * never reaches the shim's MPI_Init and runs with the shim off.
 *
 * Each binding of Open MPI 4.1 is one C function with the Fortran calling
 * convention (every argument by reference, the error code last), which
 * libmpi_mpifh exports as ompi_NAME_f and, weakly, as mpi_name_,
 * mpi_name, mpi_name__ and MPI_NAME; the mpi_f08 module calls ompi_NAME_f.
 * The shim, preloaded, defines the same names first: each converts the
 * handles (MPI_Comm_f2c...) and Fortran's sentinels (MPI_IN_PLACE,
 * MPI_BOTTOM, MPI_STATUS(ES)_IGNORE: addresses of common blocks) as Open
 * MPI's own binding does, and calls the shim's C function, which is
 * PMPI's when the shim is off.
 *
 * Covered: start and end, the blocking sends and receives, MPI_Wait and
 * MPI_Waitall, and the common collectives (table below).  The others go
 * to Open MPI's bindings as before; non-blocking receives started from
 * Fortran are not remembered (their completions are Open MPI's own, and
 * a remembered request they complete would stay in the table).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#include "shim.h"

typedef MPI_Fint F;

/* ---------------------------------------------------------- sentinels */

/* The names a Fortran compiler gives a common block (Open MPI checks
 * all four). */
#define SENTINEL_NAMES(base) { base, base "_", base "__", NULL }

enum sentinel { S_IN_PLACE, S_BOTTOM, S_STATUS_IGNORE, S_STATUSES_IGNORE,
		S_COUNT };

static const char *const sentinel_names[S_COUNT][5] = {
	[S_IN_PLACE] = SENTINEL_NAMES("mpi_fortran_in_place"),
	[S_BOTTOM] = SENTINEL_NAMES("mpi_fortran_bottom"),
	[S_STATUS_IGNORE] = SENTINEL_NAMES("mpi_fortran_status_ignore"),
	[S_STATUSES_IGNORE] = SENTINEL_NAMES("mpi_fortran_statuses_ignore"),
};

static void *sentinels[S_COUNT][4];
static pthread_once_t sentinels_once = PTHREAD_ONCE_INIT;

static void sentinels_load(void)
{
	for (int s = 0; s < S_COUNT; s++)
		for (int i = 0; sentinel_names[s][i]; i++)
			sentinels[s][i] = dlsym(RTLD_DEFAULT,
						sentinel_names[s][i]);
}

static bool is_sentinel(enum sentinel s, const void *addr)
{
	pthread_once(&sentinels_once, sentinels_load);
	for (int i = 0; i < 4; i++)
		if (sentinels[s][i] && sentinels[s][i] == addr)
			return true;
	return false;
}

/* A buffer argument: Fortran's MPI_BOTTOM or MPI_IN_PLACE become C's.
 * (Open MPI converts MPI_IN_PLACE only where the call allows it; the
 * sentinel is never a buffer of the program's, so anywhere is the same.) */
static void *f_buf(void *buf)
{
	if (is_sentinel(S_IN_PLACE, buf))
		return MPI_IN_PLACE;
	return is_sentinel(S_BOTTOM, buf) ? MPI_BOTTOM : buf;
}

/* A C status to fill, or MPI_STATUS_IGNORE for Fortran's. */
static MPI_Status *f_status_in(F *status, MPI_Status *own)
{
	return is_sentinel(S_STATUS_IGNORE, status) ? MPI_STATUS_IGNORE : own;
}

static void f_status_out(int rc, const MPI_Status *c, F *status)
{
	if (rc == MPI_SUCCESS && c != MPI_STATUS_IGNORE)
		PMPI_Status_c2f(c, status);
}

static void f_err(F *ierr, int rc)
{
	if (ierr)
		*ierr = (F)rc;
}

/*
 * The binding FN under Open MPI's five names.  Visible (the shim hides
 * everything else; libcosched_mpi.map exports these).
 */
#define FORTRAN_NAMES(lower, UPPER, fn, params)				\
	extern void ompi_##lower##_f params				\
		__attribute__((alias(#fn), visibility("default")));	\
	extern void mpi_##lower##_ params				\
		__attribute__((alias(#fn), visibility("default")));	\
	extern void mpi_##lower params					\
		__attribute__((alias(#fn), visibility("default")));	\
	extern void mpi_##lower##__ params				\
		__attribute__((alias(#fn), visibility("default")));	\
	extern void MPI_##UPPER params					\
		__attribute__((alias(#fn), visibility("default")));

/* ------------------------------------------------------- start, end */

static void f_init(F *ierr)
{
	f_err(ierr, MPI_Init(NULL, NULL));
}
FORTRAN_NAMES(init, INIT, f_init, (F *ierr))

static void f_init_thread(F *required, F *provided, F *ierr)
{
	int c_provided = 0;
	int rc = MPI_Init_thread(NULL, NULL, (int)*required, &c_provided);

	if (rc == MPI_SUCCESS)
		*provided = (F)c_provided;
	f_err(ierr, rc);
}
FORTRAN_NAMES(init_thread, INIT_THREAD, f_init_thread,
	      (F *required, F *provided, F *ierr))

static void f_finalize(F *ierr)
{
	f_err(ierr, MPI_Finalize());
}
FORTRAN_NAMES(finalize, FINALIZE, f_finalize, (F *ierr))

/* ---------------------------------------------------- point to point */

/* MPI_Send and MPI_Ssend: the same arguments. */
#define F_SEND_SHAPED(lower, UPPER, Cname)				\
static void f_##lower(char *buf, F *count, F *type, F *dest, F *tag,	\
		      F *comm, F *ierr)					\
{									\
	f_err(ierr, MPI_##Cname(f_buf(buf), (int)*count,		\
				PMPI_Type_f2c(*type), (int)*dest,	\
				(int)*tag, PMPI_Comm_f2c(*comm)));	\
}									\
FORTRAN_NAMES(lower, UPPER, f_##lower, (char *buf, F *count, F *type,	\
					 F *dest, F *tag, F *comm,	\
					 F *ierr))

F_SEND_SHAPED(send, SEND, Send)
F_SEND_SHAPED(ssend, SSEND, Ssend)

static void f_recv(char *buf, F *count, F *type, F *source, F *tag, F *comm,
		   F *status, F *ierr)
{
	MPI_Status own, *c = f_status_in(status, &own);
	int rc = MPI_Recv(f_buf(buf), (int)*count, PMPI_Type_f2c(*type),
			  (int)*source, (int)*tag, PMPI_Comm_f2c(*comm), c);

	f_status_out(rc, c, status);
	f_err(ierr, rc);
}
FORTRAN_NAMES(recv, RECV, f_recv, (char *buf, F *count, F *type, F *source,
				   F *tag, F *comm, F *status, F *ierr))

static void f_sendrecv(char *sbuf, F *scount, F *stype, F *dest, F *stag,
		       char *rbuf, F *rcount, F *rtype, F *source, F *rtag,
		       F *comm, F *status, F *ierr)
{
	MPI_Status own, *c = f_status_in(status, &own);
	int rc = MPI_Sendrecv(f_buf(sbuf), (int)*scount, PMPI_Type_f2c(*stype),
			      (int)*dest, (int)*stag, f_buf(rbuf),
			      (int)*rcount, PMPI_Type_f2c(*rtype),
			      (int)*source, (int)*rtag, PMPI_Comm_f2c(*comm),
			      c);

	f_status_out(rc, c, status);
	f_err(ierr, rc);
}
FORTRAN_NAMES(sendrecv, SENDRECV, f_sendrecv,
	      (char *sbuf, F *scount, F *stype, F *dest, F *stag, char *rbuf,
	       F *rcount, F *rtype, F *source, F *rtag, F *comm, F *status,
	       F *ierr))

static void f_wait(F *request, F *status, F *ierr)
{
	MPI_Request c_req = PMPI_Request_f2c(*request);
	MPI_Status own, *c = f_status_in(status, &own);
	int rc = MPI_Wait(&c_req, c);

	if (rc == MPI_SUCCESS)
		*request = PMPI_Request_c2f(c_req);
	f_status_out(rc, c, status);
	f_err(ierr, rc);
}
FORTRAN_NAMES(wait, WAIT, f_wait, (F *request, F *status, F *ierr))

/* A Fortran status is MPI_STATUS_SIZE integers: a C status's size. */
#define F_STATUS_INTS (sizeof(MPI_Status) / sizeof(F))

static void f_waitall(F *count, F *requests, F *statuses, F *ierr)
{
	int n = (int)*count, rc;
	bool ignore = is_sentinel(S_STATUSES_IGNORE, statuses);
	MPI_Request *c_req;
	MPI_Status *c_st;

	if (n <= 0) {
		f_err(ierr, n < 0 ? MPI_ERR_COUNT : MPI_SUCCESS);
		return;
	}
	c_req = malloc((size_t)n * (sizeof(*c_req) + sizeof(*c_st)));
	if (!c_req) {
		f_err(ierr, MPI_ERR_NO_MEM);
		return;
	}
	c_st = (MPI_Status *)(c_req + n);
	for (int i = 0; i < n; i++)
		c_req[i] = PMPI_Request_f2c(requests[i]);
	rc = MPI_Waitall(n, c_req, ignore ? MPI_STATUSES_IGNORE : c_st);
	if (rc == MPI_SUCCESS)
		for (int i = 0; i < n; i++) {
			requests[i] = PMPI_Request_c2f(c_req[i]);
			if (!ignore)
				PMPI_Status_c2f(&c_st[i],
						&statuses[i * F_STATUS_INTS]);
		}
	free(c_req);
	f_err(ierr, rc);
}
FORTRAN_NAMES(waitall, WAITALL, f_waitall,
	      (F *count, F *requests, F *statuses, F *ierr))

/* ------------------------------------------------------- collectives */

static void f_barrier(F *comm, F *ierr)
{
	f_err(ierr, MPI_Barrier(PMPI_Comm_f2c(*comm)));
}
FORTRAN_NAMES(barrier, BARRIER, f_barrier, (F *comm, F *ierr))

static void f_bcast(char *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	f_err(ierr, MPI_Bcast(f_buf(buf), (int)*count, PMPI_Type_f2c(*type),
			      (int)*root, PMPI_Comm_f2c(*comm)));
}
FORTRAN_NAMES(bcast, BCAST, f_bcast, (char *buf, F *count, F *type, F *root,
				      F *comm, F *ierr))

static void f_reduce(char *sbuf, char *rbuf, F *count, F *type, F *op,
		     F *root, F *comm, F *ierr)
{
	f_err(ierr, MPI_Reduce(f_buf(sbuf), f_buf(rbuf), (int)*count,
			       PMPI_Type_f2c(*type), PMPI_Op_f2c(*op),
			       (int)*root, PMPI_Comm_f2c(*comm)));
}
FORTRAN_NAMES(reduce, REDUCE, f_reduce,
	      (char *sbuf, char *rbuf, F *count, F *type, F *op, F *root,
	       F *comm, F *ierr))

static void f_allreduce(char *sbuf, char *rbuf, F *count, F *type, F *op,
			F *comm, F *ierr)
{
	f_err(ierr, MPI_Allreduce(f_buf(sbuf), f_buf(rbuf), (int)*count,
				  PMPI_Type_f2c(*type), PMPI_Op_f2c(*op),
				  PMPI_Comm_f2c(*comm)));
}
FORTRAN_NAMES(allreduce, ALLREDUCE, f_allreduce,
	      (char *sbuf, char *rbuf, F *count, F *type, F *op, F *comm,
	       F *ierr))

/* The gather-shaped ones: send count and type, receive count and type. */
#define F_GATHER_SHAPED(lower, UPPER, Cname, ROOT_PARAM, ROOT_ARG)	\
static void f_##lower(char *sbuf, F *scount, F *stype, char *rbuf,	\
		      F *rcount, F *rtype ROOT_PARAM, F *comm, F *ierr)	\
{									\
	f_err(ierr, MPI_##Cname(f_buf(sbuf), (int)*scount,		\
				PMPI_Type_f2c(*stype), f_buf(rbuf),	\
				(int)*rcount, PMPI_Type_f2c(*rtype)	\
				ROOT_ARG, PMPI_Comm_f2c(*comm)));	\
}									\
FORTRAN_NAMES(lower, UPPER, f_##lower,					\
	      (char *sbuf, F *scount, F *stype, char *rbuf, F *rcount,	\
	       F *rtype ROOT_PARAM, F *comm, F *ierr))

#define NO_ROOT
#define ROOT_PARAM_ , F *root
#define ROOT_ARG_ , (int)*root

F_GATHER_SHAPED(allgather, ALLGATHER, Allgather, NO_ROOT, NO_ROOT)
F_GATHER_SHAPED(alltoall, ALLTOALL, Alltoall, NO_ROOT, NO_ROOT)
F_GATHER_SHAPED(gather, GATHER, Gather, ROOT_PARAM_, ROOT_ARG_)
F_GATHER_SHAPED(scatter, SCATTER, Scatter, ROOT_PARAM_, ROOT_ARG_)
