C     An integrator that keeps its step size and its call count between
C     calls (SAVE, DATA), as RKF45 and the DOPRI codes do. The step size
C     depends on the solution, so its derivative goes from one call to the
C     next; the count decides the first call's half step, so the adjoint
C     must run each call again from the state that call found.
      SUBROUTINE ADVANCE(N, Y, K, START)
      INTEGER N, I, J
      DOUBLE PRECISION Y(N), K
      LOGICAL START
      DOUBLE PRECISION H, FAC
      INTEGER NCALL
      SAVE H, NCALL
      DATA NCALL /0/
      IF (START) THEN
         H = 0.1D0/(1.0D0 + K)
         NCALL = 0
      END IF
      NCALL = NCALL + 1
      FAC = 1.0D0
      IF (NCALL .EQ. 1) FAC = 0.5D0
      DO 20 J = 1, 3
         DO 10 I = 1, N
            Y(I) = Y(I) - FAC*H*K*Y(I)**2
   10    CONTINUE
         H = H*(1.0D0 + 0.1D0*Y(1))
   20 CONTINUE
      RETURN
      END

C     A stage between the driver and the integrator: its own primal must
C     reach the integrator's state too.
      SUBROUTINE STAGE(N, Y, K, START)
      INTEGER N
      DOUBLE PRECISION Y(N), K
      LOGICAL START
      CALL ADVANCE(N, Y, K, START)
      Y(N) = Y(N) + 0.01D0*Y(1)
      RETURN
      END

      SUBROUTINE SOLVE(N, Y, K, NOUT, F)
      INTEGER N, NOUT, L, I
      DOUBLE PRECISION Y(N), K, F, H
C     A local of the name of the integrator's step size: the adjoint
C     must save and restore the integrator's, not this one.
      H = K
      CALL STAGE(N, Y, H, .TRUE.)
      DO 30 L = 2, NOUT
         CALL STAGE(N, Y, K, .FALSE.)
   30 CONTINUE
      F = 0.0D0
      DO 40 I = 1, N
         F = F + Y(I)**2
   40 CONTINUE
      RETURN
      END
