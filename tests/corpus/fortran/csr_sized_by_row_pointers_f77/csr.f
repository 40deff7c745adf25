C     A compressed-row matrix passed as assumed-size arrays: the number
C     of nonzeros is IA(N+1) - 1, which the manifest gives as the size of
C     A and JA ([sizes.relax] a = "ia(n + 1) - 1").
      SUBROUTINE ROWS(N, IA, JA, A, D)
      INTEGER N, IA(*), JA(*), I, K
      DOUBLE PRECISION A(*), D(N)
      DO 20 I = 1, N
         DO 10 K = IA(I), IA(I + 1) - 1
            A(K) = A(K)*D(I) + 0.1D0*A(K)**2*D(JA(K))
   10    CONTINUE
   20 CONTINUE
      END

      SUBROUTINE RELAX(N, IA, JA, A, D)
      INTEGER N, IA(*), JA(*)
      DOUBLE PRECISION A(*), D(N)
C     The second call overwrites what the first one's adjoint re-reads:
C     A is saved whole before the first, which needs its size.
      CALL ROWS(N, IA, JA, A, D)
      CALL ROWS(N, IA, JA, A, D)
      END
