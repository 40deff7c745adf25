! Logistic growth with a time-varying harvest, written in legacy style: no IMPLICIT
! NONE, so names starting with i-n are INTEGER and the others default REAL.
! Features: implicit typing, single precision (REAL), DIMENSION statement, a
! time-stepping loop of 150 steps, a subroutine called at every step.
subroutine logistic(nsteps, r, cap, harvest, p0, pend)
  dimension harvest(nsteps)
  dt = 0.05
  p = p0
  do k = 1, nsteps
    call grow(p, r, cap, harvest(k), dt)
  end do
  pend = p
end subroutine logistic

subroutine grow(p, r, cap, h, dt)
  rate = r * p * (1.0 - p / cap) - h * p
  p = p + dt * rate
end subroutine grow
