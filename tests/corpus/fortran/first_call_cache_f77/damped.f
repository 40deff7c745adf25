C     Machine constants and a table computed on the first call only, under a SAVEd
C     flag, as LAPACK's DLAMCH and the D1MACH family do: the adjoint runs DAMP again
C     for each step, and finds the cache as the first call left it.
      DOUBLE PRECISION FUNCTION EPSMCH()
      LOGICAL FIRST
      DOUBLE PRECISION EPS, HALF
      SAVE FIRST, EPS
      DATA FIRST /.TRUE./
      IF (FIRST) THEN
         FIRST = .FALSE.
         EPS = 1.0D0
   10    CONTINUE
         HALF = 0.5D0*EPS
         IF (1.0D0 + HALF .GT. 1.0D0) THEN
            EPS = HALF
            GO TO 10
         END IF
      END IF
      EPSMCH = EPS
      RETURN
      END

      DOUBLE PRECISION FUNCTION WEIGHT(K)
      INTEGER K, I
      LOGICAL INIT
      DOUBLE PRECISION W(8)
      SAVE INIT, W
      DATA INIT /.TRUE./
      IF (INIT) THEN
         DO 20 I = 1, 8
            W(I) = 1.0D0/DBLE(I*I + 1)
   20    CONTINUE
         INIT = .FALSE.
      END IF
      WEIGHT = W(MOD(K - 1, 8) + 1)
      RETURN
      END

      SUBROUTINE DAMP(N, X, C)
      INTEGER N, I, NCALL
      DOUBLE PRECISION X(N), C, EPSMCH, WEIGHT, S
      LOGICAL WARNED
      SAVE WARNED, NCALL
      DATA WARNED /.FALSE./, NCALL /0/
C     A warning given once only: the flag decides nothing but itself.
      IF (C .GT. 0.25D0 .AND. .NOT. WARNED) THEN
         WRITE (*, *) 'DAMP: strong damping ', C
         WARNED = .TRUE.
      END IF
C     A call counter that decides only whether to report the data.
      NCALL = NCALL + 1
      IF (NCALL .EQ. 1) CALL REPORT(N, C)
      S = SQRT(EPSMCH())
      DO 30 I = 1, N
         X(I) = X(I) - C*WEIGHT(I)*X(I)/(ABS(X(I)) + S)
   30 CONTINUE
      RETURN
      END

      SUBROUTINE REPORT(N, C)
      INTEGER N
      DOUBLE PRECISION C
      WRITE (*, 100) N, C
  100 FORMAT (' DAMP: ', I4, ' points, damping ', F8.4)
      RETURN
      END

      SUBROUTINE RELAX(N, NSTEP, X, C, F)
      INTEGER N, NSTEP, K, I
      DOUBLE PRECISION X(N), C, F
      DO 40 K = 1, NSTEP
         CALL DAMP(N, X, C)
   40 CONTINUE
      F = 0.0D0
      DO 50 I = 1, N
         F = F + X(I)**2
   50 CONTINUE
      RETURN
      END
