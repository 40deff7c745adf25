! Parameters read from a NAMELIST, and an error routine that always stops, writing a
! PRIVATE variable of its module first (as LBM2d's `fatal_error` does).
module params
  implicit none
  private
  character(len=20) :: caller = ''
  double precision, public :: visc = 0.1d0, gain = 2.0d0
  integer, public :: nsteps = 3
  namelist /run_pars/ visc, gain, &
      nsteps
  public :: read_pars, fatal
contains
  subroutine read_pars(unit, iostat)
    integer, intent(in) :: unit
    integer, intent(out) :: iostat
    read(unit, nml=run_pars, iostat=iostat)
  end subroutine read_pars

  subroutine show_pars()
    write (*, nml=run_pars)
  end subroutine show_pars

  subroutine fatal(where, message)
    character(len=*), intent(in) :: where, message
    caller = where
    write (*, *) trim(caller) // ': ' // trim(message)
    stop
  end subroutine fatal
end module params
