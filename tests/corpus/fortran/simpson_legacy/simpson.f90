! Composite Simpson quadrature of exp(-q(x)**2), q a polynomial with coefficients P,
! written in FORTRAN 77 style within free form.
! Features: upper-case keywords, IMPLICIT DOUBLE PRECISION (A-H, O-Z), labelled DO
! loops closed by CONTINUE (step 2, and a negative step), DIMENSION statements, an
! implicitly typed external function, explicit RETURN.
      SUBROUTINE SIMPSN(N, A, B, P, NP, RES)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION P(NP)
      H = (B - A) / DBLE(N)
      S = F(A, P, NP) + F(B, P, NP)
      DO 10 I = 1, N - 1, 2
        X = A + DBLE(I) * H
        S = S + 4.0D0 * F(X, P, NP)
   10 CONTINUE
      DO 20 I = 2, N - 2, 2
        S = S + 2.0D0 * F(A + DBLE(I) * H, P, NP)
   20 CONTINUE
      RES = S * H / 3.0D0
      RETURN
      END

      DOUBLE PRECISION FUNCTION F(X, P, NP)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION P(NP)
      Q = 0.0D0
      DO 10 K = NP, 1, -1
        Q = Q * X + P(K)
   10 CONTINUE
      F = EXP(-Q * Q)
      RETURN
      END
