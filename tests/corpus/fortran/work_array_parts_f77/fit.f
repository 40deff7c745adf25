C     A FORTRAN 77 work array cut into parts, as DE BOOR's spline codes and SLATEC do:
C     the caller passes its first part as the whole array or as its first element and
C     the other parts as elements (WORK(IQ)), and the callee writes one part with
C     values that depend on the inputs and another with values that do not. The root
C     calls FIT, whose summary must carry the dependence through the parts.
      SUBROUTINE MODEL(Y, N, S)
      INTEGER N
      DOUBLE PRECISION Y(N), S
      CALL FIT(Y, N, S)
      S = S + Y(1)
      END

      SUBROUTINE FIT(Y, N, S)
      INTEGER N
      DOUBLE PRECISION Y(N), S
      DOUBLE PRECISION WORK(40)
      INTEGER IQ, I
      IQ = 1 + N
      CALL PREP(Y, N, WORK(1), WORK(IQ))
      CALL SOLVE(WORK(IQ), N, WORK)
      S = 0
      DO 10 I = 1, N
         S = S + WORK(I)**2
   10 CONTINUE
      END

C     B gets the data, Q the weights (passive).
      SUBROUTINE PREP(Y, N, B, Q)
      INTEGER N
      DOUBLE PRECISION Y(N), B(N), Q(N)
      INTEGER I
      DO 10 I = 1, N
         B(I) = Y(I)
         Q(I) = 1 + 0.1D0*I
   10 CONTINUE
      END

C     B divided by the weights W, smoothed forwards.
      SUBROUTINE SOLVE(W, N, B)
      INTEGER N
      DOUBLE PRECISION W(N), B(N)
      INTEGER I
      B(1) = B(1)/W(1)
      DO 10 I = 2, N
         B(I) = B(I)/W(I) + 0.5D0*B(I - 1)
   10 CONTINUE
      END
