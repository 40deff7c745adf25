C     The statements after the IF block are copied into both arms that
C     fall through to them, and with them the loop left from its inner
C     loop (a named loop once restructured): each copy needs its own name.
      SUBROUTINE SCAN(N, M, X, Y)
      INTEGER N, M, J, K
      DOUBLE PRECISION X(N), Y
      IF (M .GT. 0) THEN
         Y = X(1)
         IF (M .GT. 5) GO TO 10
      ELSE
         Y = X(2)
      END IF
      DO 5 J = 1, N
         DO 4 K = 1, 2
            IF (X(J) .LT. 0.1D0*K) GO TO 6
    4    CONTINUE
         Y = Y + X(J)**2
    5 CONTINUE
      Y = Y + 1
    6 CONTINUE
      Y = Y*X(N)
   10 Y = Y*2
      END
