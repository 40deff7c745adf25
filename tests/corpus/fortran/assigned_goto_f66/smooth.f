C     FORTRAN 66 style: a local "subroutine" at label 100 (one smoothing
C     sweep) reached by GO TO, which returns through the label ASSIGNed to
C     IRET; and a scan whose next state is an ASSIGNed label.
      SUBROUTINE SMOOTH(N, X, S)
      INTEGER N, I, IRET, NEXT
      DOUBLE PRECISION X(N), S, T
      ASSIGN 20 TO IRET
      GO TO 100
   20 ASSIGN 30 TO IRET
      GO TO 100
   30 S = 0.0D0
      I = 1
      ASSIGN 40 TO NEXT
   35 GO TO NEXT, (40, 50)
   40 IF (X(I) .GT. 1.0D0) ASSIGN 50 TO NEXT
      IF (X(I) .GT. 9.0D0) GO TO 50
      S = S + X(I)**2
      GO TO 60
   50 S = S + 2.0D0*X(I)
   60 I = I + 1
      IF (I .LE. N) GO TO 35
      RETURN
C     one sweep of a three-point average, then back to IRET
  100 T = X(1)
      DO 110 I = 2, N - 1
         X(I) = 0.25D0*T + 0.5D0*X(I) + 0.25D0*X(I+1)
         T = X(I)
  110 CONTINUE
      X(1) = X(1)*1.1D0
      GO TO IRET, (20, 30)
      END
