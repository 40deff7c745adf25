C=======================================================================
C     SWRUN -- 1-D shallow-water equations on a periodic channel,
C     Lax-Friedrichs scheme, NSTEP steps from (H0, U0).  The grid and
C     constants come from swcom.inc (PARAMETER and COMMON), set once by
C     SWINIT from DATA; a summary is written on unit 6.
C=======================================================================
      SUBROUTINE SWRUN(NSTEP, H0, U0, H, U, ENERGY)
      IMPLICIT NONE
      INCLUDE 'swcom.inc'
      INTEGER NSTEP
      DOUBLE PRECISION H0(NX), U0(NX), H(NX), U(NX), ENERGY
      INTEGER I, K
C
      CALL SWINIT
      DO 10 I = 1, NX
         H(I) = H0(I)
         U(I) = U0(I)
   10 CONTINUE
      DO 20 K = 1, NSTEP
         CALL SWSTEP(H, U)
   20 CONTINUE
      ENERGY = 0.0D0
      DO 30 I = 1, NX
         ENERGY = ENERGY + 0.5D0 * DXC *
     &            (H(I) * U(I)**2 + GRAV * H(I)**2)
   30 CONTINUE
      IF (NSTEPS .LE. NSTEP) THEN
         WRITE (6, 100) NSTEP, ENERGY
      END IF
      RETURN
  100 FORMAT (1X, 'SWRUN:', I5, ' STEPS, ENERGY =', 1PE15.7)
      END

C     Constants of the run (first call only).
      SUBROUTINE SWINIT
      IMPLICIT NONE
      INCLUDE 'swcom.inc'
      LOGICAL DONE
      DOUBLE PRECISION G0, XLEN, CFL
      SAVE DONE
      DATA DONE /.FALSE./
      DATA G0, XLEN /9.81D0, 1.0D0/, CFL /0.02D0/
      IF (DONE) RETURN
      GRAV = G0
      DXC = XLEN / DBLE(NX)
      DTC = CFL * DXC
      NSTEPS = 0
      DONE = .TRUE.
      RETURN
      END

C     One Lax-Friedrichs step for h and hu with periodic neighbours.
      SUBROUTINE SWSTEP(H, U)
      IMPLICIT NONE
      INCLUDE 'swcom.inc'
      DOUBLE PRECISION H(NX), U(NX)
      DOUBLE PRECISION Q(NX), F1(NX), F2(NX), HN(NX), QN(NX), R
      INTEGER I, IM, IP
      R = DTC / (2.0D0 * DXC)
      DO 10 I = 1, NX
         Q(I) = H(I) * U(I)
         F1(I) = Q(I)
         F2(I) = Q(I) * U(I) + 0.5D0 * GRAV * H(I)**2
   10 CONTINUE
      DO 20 I = 1, NX
         IM = MOD(I + NX - 2, NX) + 1
         IP = MOD(I, NX) + 1
         HN(I) = 0.5D0 * (H(IM) + H(IP)) - R * (F1(IP) - F1(IM))
         QN(I) = 0.5D0 * (Q(IM) + Q(IP)) - R * (F2(IP) - F2(IM))
   20 CONTINUE
      DO 30 I = 1, NX
         H(I) = HN(I)
         U(I) = QN(I) / HN(I)
   30 CONTINUE
      NSTEPS = NSTEPS + 1
      RETURN
      END
