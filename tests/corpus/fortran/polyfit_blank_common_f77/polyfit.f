*=======================================================================
*     POLFIT -- weighted least-squares polynomial of degree NDEG
*     through NPTS points: normal equations assembled in blank COMMON
*     work space, solved by Cholesky (CHOLDC/CHOLSL); the sampling
*     abscissae and weights are fixed by DATA in PFINIT.  The residual
*     norm is returned; the coefficients are printed once.
*=======================================================================
      SUBROUTINE POLFIT(NDEG, YOBS, COEF, RNORM)
      IMPLICIT NONE
      INTEGER NDEG, MAXP, MAXD
      PARAMETER (MAXP = 12, MAXD = 6)
      DOUBLE PRECISION YOBS(MAXP), COEF(NDEG+1), RNORM
      DOUBLE PRECISION XS, WS
      INTEGER NPTS, IPRINT
      COMMON XS(MAXP), WS(MAXP), NPTS, IPRINT
      DOUBLE PRECISION A(MAXD, MAXD), B(MAXD), P(MAXD), DIAG(MAXD)
      DOUBLE PRECISION R, FIT
      INTEGER I, J, K, N
*
      CALL PFINIT
      N = NDEG + 1
      DO 20 J = 1, N
         B(J) = 0.0D0
         DO 10 K = 1, N
            A(J, K) = 0.0D0
   10    CONTINUE
   20 CONTINUE
      DO 50 I = 1, NPTS
         P(1) = 1.0D0
         DO 30 J = 2, N
            P(J) = P(J-1) * XS(I)
   30    CONTINUE
         DO 45 J = 1, N
            B(J) = B(J) + WS(I) * P(J) * YOBS(I)
            DO 40 K = 1, N
               A(J, K) = A(J, K) + WS(I) * P(J) * P(K)
   40       CONTINUE
   45    CONTINUE
   50 CONTINUE
      CALL CHOLDC(A, MAXD, N, DIAG)
      CALL CHOLSL(A, MAXD, N, DIAG, B, COEF)
      RNORM = 0.0D0
      DO 70 I = 1, NPTS
         FIT = COEF(N)
         DO 60 J = N - 1, 1, -1
            FIT = FIT * XS(I) + COEF(J)
   60    CONTINUE
         R = YOBS(I) - FIT
         RNORM = RNORM + WS(I) * R * R
   70 CONTINUE
      RNORM = SQRT(RNORM)
      IF (IPRINT .NE. 0) THEN
         WRITE (*, '(A, I2, A)') ' POLFIT: DEGREE ', NDEG,
     &      ' COEFFICIENTS'
         WRITE (*, '(4X, 1P, 4E14.6)') (COEF(J), J = 1, N)
         IPRINT = 0
      END IF
      RETURN
      END

*     Abscissae (Chebyshev-like, on [-1, 1]) and weights, once.
      SUBROUTINE PFINIT
      IMPLICIT NONE
      INTEGER MAXP
      PARAMETER (MAXP = 12)
      DOUBLE PRECISION XS, WS
      INTEGER NPTS, IPRINT
      COMMON XS(MAXP), WS(MAXP), NPTS, IPRINT
      DOUBLE PRECISION X0(MAXP), W0(MAXP)
      INTEGER I, NCALL
      SAVE NCALL
      DATA NCALL /0/
      DATA X0 /-0.99D0, -0.91D0, -0.76D0, -0.56D0, -0.33D0, -0.11D0,
     &          0.11D0, 0.33D0, 0.56D0, 0.76D0, 0.91D0, 0.99D0/
      DATA W0 /2*0.5D0, 8*1.0D0, 2*0.5D0/
      IF (NCALL .EQ. 0) THEN
         NPTS = MAXP
         DO 10 I = 1, NPTS
            XS(I) = X0(I)
            WS(I) = W0(I)
   10    CONTINUE
         IPRINT = 1
      END IF
      NCALL = NCALL + 1
      RETURN
      END

*     Cholesky factor of the SPD matrix A (lower triangle, NR CHOLDC).
      SUBROUTINE CHOLDC(A, NP, N, P)
      IMPLICIT NONE
      INTEGER NP, N, I, J, K
      DOUBLE PRECISION A(NP, NP), P(N), SUM
      DO 30 I = 1, N
         DO 20 J = I, N
            SUM = A(I, J)
            DO 10 K = I - 1, 1, -1
               SUM = SUM - A(I, K) * A(J, K)
   10       CONTINUE
            IF (I .EQ. J) THEN
               P(I) = SQRT(SUM)
            ELSE
               A(J, I) = SUM / P(I)
            END IF
   20    CONTINUE
   30 CONTINUE
      RETURN
      END

*     Solves A x = b with the factor from CHOLDC.
      SUBROUTINE CHOLSL(A, NP, N, P, B, X)
      IMPLICIT NONE
      INTEGER NP, N, I, K
      DOUBLE PRECISION A(NP, NP), P(N), B(N), X(N), SUM
      DO 20 I = 1, N
         SUM = B(I)
         DO 10 K = I - 1, 1, -1
            SUM = SUM - A(I, K) * X(K)
   10    CONTINUE
         X(I) = SUM / P(I)
   20 CONTINUE
      DO 40 I = N, 1, -1
         SUM = X(I)
         DO 30 K = I + 1, N
            SUM = SUM - A(K, I) * X(K)
   30    CONTINUE
         X(I) = SUM / P(I)
   40 CONTINUE
      RETURN
      END
