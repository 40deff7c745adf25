C     A running integral kept in SAVE, of a function passed as an
C     argument: derivative code runs a copy of the specialized function,
C     which its callers must declare with its type.
      DOUBLE PRECISION FUNCTION ACCUM(G, X, START)
      EXTERNAL G
      DOUBLE PRECISION G, X, S
      LOGICAL START
      SAVE S
      IF (START) S = 0.0D0
      S = S + G(X)*0.5D0
      ACCUM = S
      RETURN
      END

      DOUBLE PRECISION FUNCTION SQ(X)
      DOUBLE PRECISION X
      SQ = X*X + SIN(X)
      RETURN
      END

      SUBROUTINE TOTAL(N, X, F)
      INTEGER N, I
      DOUBLE PRECISION X(N), F, ACCUM, SQ
      EXTERNAL SQ
      F = ACCUM(SQ, X(1), .TRUE.)
      DO 10 I = 2, N
         F = F + X(I)*ACCUM(SQ, X(I), .FALSE.)
   10 CONTINUE
      RETURN
      END
