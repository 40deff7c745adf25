C=======================================================================
C     MONOTONE PIECEWISE CUBIC HERMITE INTERPOLATION, AFTER SLATEC
C     PCHIM/PCHST/PCHFE (FRITSCH AND CARLSON, 1980-82): DERIVATIVES AT
C     THE KNOTS BY THE BRODLIE-BUTLAND WEIGHTED HARMONIC MEAN, ZERO AT
C     A SIGN CHANGE (THE ORIGINAL'S ARITHMETIC IF ON PCHST), THEN THE
C     INTERPOLANT AT NE POINTS.  A COMPUTED GO TO PICKS THE END
C     CONDITION.  THE DATA G ARE THE INDEPENDENTS.
C=======================================================================
      SUBROUTINE PCHINT(N, G, IEND, NE, FE, TOTAL)
      INTEGER N, IEND, NE
      DOUBLE PRECISION G(N), FE(NE), TOTAL
      INTEGER IERR, I, J
      DOUBLE PRECISION D(50), F(50), X(50), XE(50)
C     THE DATA, WITH A FLAT PIECE BETWEEN KNOTS 4 AND 5 (SLOPE EXACTLY
C     ZERO: PCHST IS ZERO THERE).
      DO 4 I = 1, N
         F(I) = G(I)
    4 CONTINUE
      F(5) = F(4)
C     UNEVEN KNOTS ON (0, N) AND EVALUATION POINTS INSIDE THEM.
      DO 5 I = 1, N
         X(I) = DBLE(I) + 0.3D0*SIN(DBLE(3*I))
    5 CONTINUE
      DO 6 J = 1, NE
         XE(J) = X(1) + (X(N) - X(1))*(DBLE(J) - 0.5D0)/DBLE(NE)
    6 CONTINUE
      CALL PCHIM(N, X, F, D, IEND, IERR)
      CALL PCHFE(N, X, F, D, NE, XE, FE)
      TOTAL = 0.0D0
      DO 10 J = 1, NE
         TOTAL = TOTAL + FE(J)**2
   10 CONTINUE
      RETURN
      END

      SUBROUTINE PCHIM(N, X, F, D, IEND, IERR)
      INTEGER N, IEND, IERR
      DOUBLE PRECISION X(N), F(N), D(N)
      INTEGER I, NLESS1
      DOUBLE PRECISION DEL1, DEL2, DMAX, DMIN, DRAT1, DRAT2, DSAVE,
     *   H1, H2, HSUM, HSUMT3, W1, W2, ZERO, THREE
      DOUBLE PRECISION PCHST
      PARAMETER (ZERO = 0.0D0, THREE = 3.0D0)
      IERR = 0
      NLESS1 = N - 1
      H1 = X(2) - X(1)
      DEL1 = (F(2) - F(1))/H1
      DSAVE = DEL1
      IF (NLESS1 .GT. 1) GO TO 10
C     TWO POINTS: LINEAR INTERPOLATION.
      D(1) = DEL1
      D(N) = DEL1
      GO TO 5000
   10 H2 = X(3) - X(2)
      DEL2 = (F(3) - F(2))/H2
      HSUM = H1 + H2
C     END CONDITION: 1 = SHAPE-PRESERVING 3-POINT, 2 = ONE-SIDED.
      GO TO (15, 20), IEND
   15 W1 = (H1 + HSUM)/HSUM
      W2 = -H1/HSUM
      D(1) = W1*DEL1 + W2*DEL2
      IF (PCHST(D(1),DEL1) .LE. ZERO) D(1) = ZERO
      GO TO 25
   20 D(1) = DEL1
   25 CONTINUE
      DO 50 I = 2, NLESS1
         IF (I .EQ. 2) GO TO 40
         H1 = H2
         H2 = X(I+1) - X(I)
         HSUM = H1 + H2
         DEL1 = DEL2
         DEL2 = (F(I+1) - F(I))/H2
   40    CONTINUE
         D(I) = ZERO
         IF (PCHST(DEL1,DEL2)) 42, 41, 45
C        COUNT THE CHANGES OF MONOTONICITY.
   41    CONTINUE
         IF (DEL2 .EQ. ZERO) GO TO 50
         IF (PCHST(DSAVE,DEL2) .LT. ZERO) IERR = IERR + 1
         DSAVE = DEL2
         GO TO 50
   42    CONTINUE
         IERR = IERR + 1
         DSAVE = DEL2
         GO TO 50
C        SAME SIGNS: BRODLIE MODIFICATION OF BUTLAND'S FORMULA.
   45    CONTINUE
         HSUMT3 = HSUM + HSUM + HSUM
         W1 = (HSUM + H1)/HSUMT3
         W2 = (HSUM + H2)/HSUMT3
         DMAX = MAX(ABS(DEL1), ABS(DEL2))
         DMIN = MIN(ABS(DEL1), ABS(DEL2))
         DRAT1 = DEL1/DMAX
         DRAT2 = DEL2/DMAX
         D(I) = DMIN/(W1*DRAT1 + W2*DRAT2)
   50 CONTINUE
      GO TO (55, 60), IEND
   55 W1 = -H2/HSUM
      W2 = (H2 + HSUM)/HSUM
      D(N) = W1*DEL1 + W2*DEL2
      IF (PCHST(D(N),DEL2) .LE. ZERO) D(N) = ZERO
      GO TO 5000
   60 D(N) = DEL2
 5000 CONTINUE
      RETURN
      END

      DOUBLE PRECISION FUNCTION PCHST(ARG1, ARG2)
      DOUBLE PRECISION ARG1, ARG2
      PCHST = SIGN(1.0D0, ARG1)*SIGN(1.0D0, ARG2)
      IF ((ARG1 .EQ. 0.0D0) .OR. (ARG2 .EQ. 0.0D0)) PCHST = 0.0D0
      RETURN
      END

C     EVALUATE THE HERMITE CUBIC AT XE (SORTED OR NOT): FIND THE
C     INTERVAL WITH A JUMP OUT OF THE SEARCH LOOP.
      SUBROUTINE PCHFE(N, X, F, D, NE, XE, FE)
      INTEGER N, NE
      DOUBLE PRECISION X(N), F(N), D(N), XE(NE), FE(NE)
      INTEGER I, J
      DOUBLE PRECISION H, T, DEL, C2, C3
      DO 30 J = 1, NE
         DO 10 I = 1, N - 2
            IF (XE(J) .LT. X(I+1)) GO TO 20
   10    CONTINUE
         I = N - 1
   20    H = X(I+1) - X(I)
         T = XE(J) - X(I)
         DEL = (F(I+1) - F(I))/H
         C2 = -(2.0D0*D(I) - 3.0D0*DEL + D(I+1))/H
         C3 = (D(I) - 2.0D0*DEL + D(I+1))/H**2
         FE(J) = F(I) + T*(D(I) + T*(C2 + T*C3))
   30 CONTINUE
      RETURN
      END
