C     A forward jump out of a nested IF: the statements it skips are copied
C     into the IF's nested arm and into its ELSE, and they hold a loop with an
C     exit, whose adjoint numbers its exits by statement.
      SUBROUTINE STEP(X, Y)
      DOUBLE PRECISION X, Y
      INTEGER K
      IF (X .GT. 1.0D0) THEN
         Y = Y*X
         IF (Y .GT. 4.0D0) GO TO 20
      ELSE
         Y = Y + X
      END IF
      DO 10 K = 1, 5
         Y = Y*1.5D0 + 0.2D0*X
         IF (Y .GT. 3.0D0) GO TO 15
   10 CONTINUE
   15 CONTINUE
      Y = Y - 0.5D0*X
   20 CONTINUE
      Y = Y*Y
      END

      SUBROUTINE RUN(X, Y)
      DOUBLE PRECISION X, Y, Z
      Z = X
      CALL STEP(Z, Y)
      Z = 0.7D0*X
      CALL STEP(Z, Y)
      Z = 1.9D0*X
      CALL STEP(Z, Y)
      END
