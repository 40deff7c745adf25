C     Implicit diffusion with one work array for the whole solve, in the style of
C     1980s libraries: the diagonal, the right-hand side and the Thomas sweep's
C     modified coefficients are all views into W through EQUIVALENCE, and two
C     scalar names share storage. Features: EQUIVALENCE of whole arrays, of
C     array elements at offsets and of scalars, so that writing through one name
C     changes what another reads, also within one statement.
      SUBROUTINE IMPDIF(N, NSTEP, U, RK, E)
      INTEGER N, NSTEP
      DOUBLE PRECISION U(N), RK, E
      INTEGER MAXN
      PARAMETER (MAXN = 16)
      DOUBLE PRECISION W(3*MAXN), DIAG(MAXN), RHS(MAXN), CP(MAXN)
      DOUBLE PRECISION ACC, SUMSQ
      INTEGER I, K
      EQUIVALENCE (W(1), DIAG(1)), (W(MAXN+1), RHS(1))
      EQUIVALENCE (W(2*MAXN+1), CP(1)), (ACC, SUMSQ)
      DO 30 K = 1, NSTEP
C        Assemble: (1 + 2 RK) u_i - RK (u_{i-1} + u_{i+1}) = u_i^old
         DO 10 I = 1, N
            DIAG(I) = 1.0D0 + 2.0D0*RK + 0.1D0*U(I)**2
            RHS(I) = U(I)
   10    CONTINUE
         CALL THOMAS(N, RK, W, 3*MAXN, MAXN, U)
   30 CONTINUE
C     Energy through one name, read back through the other.
      ACC = 0.0D0
      DO 40 I = 1, N
         SUMSQ = SUMSQ + U(I)**2 + W(I)*1.0D-3
   40 CONTINUE
C     One storage written through one name from its value read through the other.
      SUMSQ = 0.5D0*ACC*ACC + ACC
      E = ACC
      END

C     Thomas algorithm for the constant off-diagonal -R; the work array holds
C     the diagonal, the right-hand side and the modified coefficients.
      SUBROUTINE THOMAS(N, R, WK, LW, M, X)
      INTEGER N, LW, M
      DOUBLE PRECISION R, WK(LW), X(N)
      DOUBLE PRECISION DEN
      INTEGER I
      WK(2*M+1) = -R/WK(1)
      WK(M+1) = WK(M+1)/WK(1)
      DO 10 I = 2, N
         DEN = WK(I) + R*WK(2*M+I-1)
         WK(2*M+I) = -R/DEN
         WK(M+I) = (WK(M+I) + R*WK(M+I-1))/DEN
   10 CONTINUE
      X(N) = WK(M+N)
      DO 20 I = N-1, 1, -1
         X(I) = WK(M+I) - WK(2*M+I)*X(I+1)
   20 CONTINUE
      END
