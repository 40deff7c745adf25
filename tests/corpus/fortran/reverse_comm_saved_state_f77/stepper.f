C     A reverse-communication minimizer in the manner of L-BFGS-B: its state
C     lives in the caller's arrays between calls (LSAVE, ISAVE, DSAVE), it
C     talks through TASK, and it times itself with CPU_TIME into DSAVE, an
C     array that also holds values with derivatives.
      SUBROUTINE STEPPER(N, X, F, G, TASK, LSAVE, ISAVE, DSAVE)
      INTEGER N, ISAVE(2), I
      DOUBLE PRECISION X(N), F, G(N), DSAVE(4)
      LOGICAL LSAVE(2)
      CHARACTER*8 TASK
      IF (TASK(1:5) .EQ. 'START') THEN
         ISAVE(1) = 0
         LSAVE(1) = .FALSE.
         LSAVE(2) = .FALSE.
         DSAVE(1) = 0.3D0
         CALL TIMER(DSAVE(3))
         TASK = 'FG'
         RETURN
      END IF
      ISAVE(1) = ISAVE(1) + 1
      IF (LSAVE(1)) THEN
         IF (F .GT. DSAVE(2)) THEN
            DSAVE(1) = 0.5D0*DSAVE(1)
            LSAVE(2) = .TRUE.
         END IF
      END IF
      LSAVE(1) = .TRUE.
      DSAVE(2) = F
      DO 10 I = 1, N
         X(I) = X(I) - DSAVE(1)*G(I)
   10 CONTINUE
      CALL TIMER(DSAVE(4))
      IF (ISAVE(1) .GE. 12) THEN
         TASK = 'STOP'
      ELSE
         TASK = 'FG'
      END IF
      END

      SUBROUTINE TIMER(T)
      DOUBLE PRECISION T
      REAL S
      CALL CPU_TIME(S)
      T = DBLE(S)
      END

      SUBROUTINE MINIM(N, P, X, F)
      INTEGER N, ISAVE(2), I
      DOUBLE PRECISION P(N), X(N), F, G(8), DSAVE(4)
      LOGICAL LSAVE(2)
      CHARACTER*8 TASK
      TASK = 'START'
   20 CALL STEPPER(N, X, F, G, TASK, LSAVE, ISAVE, DSAVE)
      IF (TASK(1:2) .EQ. 'FG') THEN
         F = 0.0D0
         DO 30 I = 1, N
            F = F + (X(I) - P(I))**2*(1.0D0 + 0.5D0*I) + 0.1D0*X(I)**4
            G(I) = 2.0D0*(X(I) - P(I))*(1.0D0 + 0.5D0*I)
     *             + 0.4D0*X(I)**3
   30    CONTINUE
         GO TO 20
      END IF
      END
