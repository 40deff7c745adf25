C=======================================================================
C     ROMBERG INTEGRATION AFTER NUMERICAL RECIPES (QROMB, TRAPZD AND
C     POLINT, 1986) OF A DAMPED OSCILLATION WITH ACTIVE PARAMETERS:
C     TRAPEZOIDAL REFINEMENTS, THEN NEVILLE EXTRAPOLATION TO H = 0 OF
C     THE LAST K ESTIMATES.  POLINT CHOOSES ITS PATH THROUGH THE
C     TABLEAU WITH AN ARITHMETIC IF; THE REFINEMENT LOOP IS A BACKWARD
C     GO TO, AS IN THE FORTRAN 66 ORIGINALS.
C=======================================================================
      SUBROUTINE QROMB(A, B, P, NREF, SS)
      INTEGER NREF
      DOUBLE PRECISION A, B, P(3), SS
      INTEGER K, J, KM
      PARAMETER (K = 5)
      DOUBLE PRECISION S(25), H(25), DSS
      H(1) = 1.0D0
      J = 1
   10 CALL TRAPZD(A, B, P, S(J), J)
      IF (J .LT. K) GO TO 20
      KM = J - K + 1
      CALL POLINT(H(KM), S(KM), K, 0.0D0, SS, DSS)
   20 S(J+1) = S(J)
      H(J+1) = 0.25D0*H(J)
      J = J + 1
      IF (J .LE. NREF) GO TO 10
      RETURN
      END

C     THE N-TH REFINEMENT OF THE TRAPEZOIDAL RULE: S IS IN AND OUT.
      SUBROUTINE TRAPZD(A, B, P, S, N)
      INTEGER N
      DOUBLE PRECISION A, B, P(3), S
      DOUBLE PRECISION FUNC, DEL, X, SUM, TNM
      INTEGER IT, J
      IF (N .NE. 1) GO TO 10
      S = 0.5D0*(B - A)*(FUNC(A, P) + FUNC(B, P))
      RETURN
   10 IT = 2**(N-2)
      TNM = DBLE(IT)
      DEL = (B - A)/TNM
      X = A + 0.5D0*DEL
      SUM = 0.0D0
      DO 11 J = 1, IT
         SUM = SUM + FUNC(X, P)
         X = X + DEL
   11 CONTINUE
      S = 0.5D0*(S + (B - A)*SUM/TNM)
      RETURN
      END

      DOUBLE PRECISION FUNCTION FUNC(X, P)
      DOUBLE PRECISION X, P(3)
      FUNC = P(1)*EXP(-P(2)*X)*COS(P(3)*X)
      RETURN
      END

C     NEVILLE'S ALGORITHM: THE VALUE Y AT X OF THE POLYNOMIAL THROUGH
C     (XA(I), YA(I)), AND AN ERROR ESTIMATE DY.
      SUBROUTINE POLINT(XA, YA, N, X, Y, DY)
      INTEGER N
      DOUBLE PRECISION XA(N), YA(N), X, Y, DY
      INTEGER NMAX, NS, I, M
      PARAMETER (NMAX = 10)
      DOUBLE PRECISION C(NMAX), D(NMAX), DIF, DIFT, HO, HP, W, DEN
      NS = 1
      DIF = ABS(X - XA(1))
      DO 11 I = 1, N
         DIFT = ABS(X - XA(I))
         IF (DIFT .GE. DIF) GO TO 10
         NS = I
         DIF = DIFT
   10    C(I) = YA(I)
         D(I) = YA(I)
   11 CONTINUE
      Y = YA(NS)
      NS = NS - 1
      DO 13 M = 1, N - 1
         DO 12 I = 1, N - M
            HO = XA(I) - X
            HP = XA(I+M) - X
            W = C(I+1) - D(I)
            DEN = HO - HP
            DEN = W/DEN
            D(I) = HP*DEN
            C(I) = HO*DEN
   12    CONTINUE
C        UP OR DOWN THE TABLEAU, WHICHEVER STAYS CENTRED.
         IF (2*NS - (N - M)) 20, 30, 30
   20    DY = C(NS+1)
         GO TO 40
   30    DY = D(NS)
         NS = NS - 1
   40    Y = Y + DY
   13 CONTINUE
      RETURN
      END
