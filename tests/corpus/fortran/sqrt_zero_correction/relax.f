C     ------------------------------------------------------------------
C     RELAX: damped fixed-point steps x <- x + w (g(x) - x); the last
C     step is rejected (x kept), so the correction norm it reports is
C     exactly zero: d sqrt(s) at s = 0 must not turn a zero direction
C     into NaN (ODEPACK's DVNORM of a converged correction).
C     ------------------------------------------------------------------
      SUBROUTINE RELAX(X, C, N, NSTEP, Y, DEL)
      INTEGER N, NSTEP
      DOUBLE PRECISION X(N), C, Y(N), DEL
      DOUBLE PRECISION XOLD(10), XNEW(10), S
      INTEGER I, K
      DO 40 K = 1, NSTEP
        DO 10 I = 1, N
          XOLD(I) = X(I)
          XNEW(I) = X(I) + 0.5D0*(C*COS(X(I)) - X(I))
 10     CONTINUE
        IF (K .EQ. NSTEP) THEN
          DO 20 I = 1, N
            XNEW(I) = XOLD(I)
 20       CONTINUE
        END IF
        S = 0.0D0
        DO 30 I = 1, N
          S = S + (XNEW(I) - XOLD(I))**2
          X(I) = XNEW(I)
 30     CONTINUE
        DEL = SQRT(S/N)
 40   CONTINUE
      DO 50 I = 1, N
        Y(I) = X(I)*(1.0D0 + DEL) + SQRT(S)*C
 50   CONTINUE
      END
