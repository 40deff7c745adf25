C     Fixed form written for a 132-column line (compiled with
C     gfortran -ffixed-line-length-132): statements and a continuation
C     line run past column 72.
      SUBROUTINE WIDE(N, X, P, COST)
      INTEGER N, I
      DOUBLE PRECISION X(N), P(3), COST, T
      COST = 0.0D0
      DO 10 I = 1, N
         T = P(1)*X(I) + P(2)*X(I)**2                         + P(3)*SIN(X(I))*DBLE(I)/DBLE(N)
         COST = COST + T*T
     1          + 0.5D0*X(I)*P(3)                                        + 1.0D-2*X(I)**3
   10 CONTINUE
      END
