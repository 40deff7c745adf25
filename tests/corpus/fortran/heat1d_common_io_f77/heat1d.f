C***********************************************************************
C     HEAT1D -- steady conduction in a rod with a distributed source,
C     -d/dx (K(x) dT/dx) = S(x), T(0) = T(L) = 0, by finite volumes.
C     Geometry in COMMON /GEOM/, print control in COMMON /CTRL/
C     (set by SETUP from DATA on the first call), tridiagonal solve by
C     TRISOL, a short report written on unit 6.
C***********************************************************************
      SUBROUTINE HEAT1D(N, COND, SRC, T, TMEAN)
      IMPLICIT NONE
      INTEGER N
      DOUBLE PRECISION COND(N+1), SRC(N), T(N), TMEAN
      DOUBLE PRECISION XL, DX
      COMMON /GEOM/ XL, DX
      INTEGER IPRT, NCALL
      COMMON /CTRL/ IPRT, NCALL
      INTEGER NMAX
      PARAMETER (NMAX = 200)
      DOUBLE PRECISION A(NMAX), B(NMAX), C(NMAX), R(NMAX)
      INTEGER I, IERR
C
      CALL SETUP(N)
      DO 10 I = 1, N
         A(I) = -COND(I) / DX**2
         C(I) = -COND(I+1) / DX**2
         B(I) = -A(I) - C(I)
         R(I) = SRC(I)
   10 CONTINUE
      CALL TRISOL(N, A, B, C, R, T, IERR)
      IF (IERR .NE. 0) THEN
         WRITE (6, 900) IERR
         RETURN
      END IF
      TMEAN = 0.0D0
      DO 20 I = 1, N
         TMEAN = TMEAN + T(I) * DX
   20 CONTINUE
      TMEAN = TMEAN / XL
      NCALL = NCALL + 1
      IF (IPRT .GT. 0 .AND. NCALL .LE. 2) THEN
         WRITE (6, 910) N, DX, TMEAN
         PRINT *, 'HEAT1D: CALL', NCALL
      END IF
      RETURN
  900 FORMAT (' HEAT1D: TRISOL FAILED, IERR =', I4)
  910 FORMAT (' HEAT1D: N =', I5, ' DX =', F10.6, ' TMEAN =', E14.6)
      END

C     Grid spacing from the rod length; print control on the first call.
      SUBROUTINE SETUP(N)
      IMPLICIT NONE
      INTEGER N
      DOUBLE PRECISION XL, DX
      COMMON /GEOM/ XL, DX
      INTEGER IPRT, NCALL
      COMMON /CTRL/ IPRT, NCALL
      DOUBLE PRECISION ROD
      INTEGER INIT
      SAVE INIT
      DATA INIT /0/, ROD /2.0D0/
      IF (INIT .EQ. 0) THEN
         IPRT = 1
         NCALL = 0
         INIT = 1
      END IF
      XL = ROD
      DX = XL / DBLE(N + 1)
      RETURN
      END

C     Thomas algorithm for A(I) X(I-1) + B(I) X(I) + C(I) X(I+1) = R(I).
      SUBROUTINE TRISOL(N, A, B, C, R, X, IERR)
      IMPLICIT NONE
      INTEGER N, IERR
      DOUBLE PRECISION A(N), B(N), C(N), R(N), X(N)
      INTEGER NMAX
      PARAMETER (NMAX = 200)
      DOUBLE PRECISION GAM(NMAX), BET
      INTEGER J
      IERR = 0
      IF (B(1) .EQ. 0.0D0) THEN
         IERR = 1
         RETURN
      END IF
      BET = B(1)
      X(1) = R(1) / BET
      DO 10 J = 2, N
         GAM(J) = C(J-1) / BET
         BET = B(J) - A(J) * GAM(J)
         IF (BET .EQ. 0.0D0) THEN
            IERR = J
            RETURN
         END IF
         X(J) = (R(J) - A(J) * X(J-1)) / BET
   10 CONTINUE
      DO 20 J = N - 1, 1, -1
         X(J) = X(J) - GAM(J+1) * X(J+1)
   20 CONTINUE
      RETURN
      END
