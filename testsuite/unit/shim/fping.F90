! fping.F90 - the shim's Fortran test program, built twice: fping with
! `use mpi` (Open MPI's mpif.h bindings underneath) and fping08 with
! `use mpi_f08` (-DF08: the f08 bindings, which call ompi_*_f); and
! fping-mpich against MPICH.  ROUNDS (the first argument, 20 by
! default) times: ranks pair as r and r^1 and exchange a message each way
! with MPI_Send and MPI_Recv, the odd rank computing 2 ms before its
! reply; then every rank runs two MPI_Allreduce (one with MPI_IN_PLACE),
! the odd ranks 2 ms late.  A final MPI_Barrier.  Prints
!   fcoll rank=R rounds=ROUNDS errors=E
! and its own page (print_page_f, page_print.c), then MPI_Finalize.
!
! SPDX-License-Identifier: GPL-2.0-or-later
program fping
#ifdef F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  interface
     subroutine print_page_f(rank) bind(C, name="print_page_f")
       use iso_c_binding, only: c_int
       integer(c_int) :: rank
     end subroutine print_page_f
  end interface
  integer :: rounds = 20
  character(len=16) :: arg
  integer :: ierr, rank, nranks, peer, i, errors, one, total
#ifdef F08
  type(MPI_Status) :: status
#else
  integer :: status(MPI_STATUS_SIZE)
#endif
  double precision :: buf(4), acc

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  if (command_argument_count() >= 1) then
     call get_command_argument(1, arg)
     read (arg, *) rounds
  end if
  errors = 0
  peer = ieor(rank, 1)
  do i = 1, rounds
     if (peer < nranks) then
        if (mod(rank, 2) == 0) then
           buf = i
           call MPI_Send(buf, 4, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, ierr)
           call MPI_Recv(buf, 4, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, status, ierr)
#ifdef F08
           if (buf(1) /= i + 1 .or. status%MPI_SOURCE /= peer) errors = errors + 1
#else
           if (buf(1) /= i + 1 .or. status(MPI_SOURCE) /= peer) errors = errors + 1
#endif
        else
           call MPI_Recv(buf, 4, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, &
                         MPI_STATUS_IGNORE, ierr)
           call compute(2000)
           buf = buf + 1
           call MPI_Send(buf, 4, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, ierr)
        end if
     end if
     if (mod(rank, 2) == 1) call compute(2000)
     one = rank + 1
     call MPI_Allreduce(one, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
     if (total /= nranks * (nranks + 1) / 2) errors = errors + 1
     acc = rank
     call MPI_Allreduce(MPI_IN_PLACE, acc, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                        MPI_COMM_WORLD, ierr)
     if (acc /= nranks * (nranks - 1) / 2) errors = errors + 1
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  print '(a,i0,a,i0,a,i0)', 'fcoll rank=', rank, ' rounds=', rounds, ' errors=', errors
  flush(6)
  call print_page_f(rank)
  call MPI_Finalize(ierr)

contains

  ! about us microseconds of work
  subroutine compute(us)
    integer, intent(in) :: us
    integer(8) :: start, now, rate
    call system_clock(start, rate)
    do
       call system_clock(now)
       if ((now - start) * 1000000_8 >= int(us, 8) * rate) exit
    end do
  end subroutine compute
end program fping
