C     The work array and its integer view, EQUIVALENCEd, passed together.
      SUBROUTINE RANK(N, X, S)
      INTEGER N, I
      DOUBLE PRECISION X(N), S, W(40)
      INTEGER IW(80)
      EQUIVALENCE (W, IW)
      CALL SORTSC(N, W, IW, X)
      S = 0.0D0
      DO 10 I = 1, N
         S = S + SIN(X(I))*W(N + I)
   10 CONTINUE
      CALL SORTSC(N, W, IW, X)
      S = S + X(1)*X(N)
      END
