C-----------------------------------------------------------------------
C     SPLFIT -- natural cubic spline through fixed knots (the abscissae
C     are a table in DATA, copied into COMMON /KNOTS/ by KNTSET on the
C     first call), evaluated at M query points and integrated by
C     Simpson's rule.  After NR SPLINE/SPLINT; diagnostics to unit 6.
C-----------------------------------------------------------------------
      SUBROUTINE SPLFIT(YA, M, XQ, YQ, AREA)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      PARAMETER (NK = 8)
      INTEGER M
      DIMENSION YA(NK), XQ(M), YQ(M)
      COMMON /KNOTS/ XA(NK), XLO, XHI
      COMMON /SPLCNT/ NEVAL, NOUT
      SAVE /SPLCNT/
      DIMENSION Y2(NK)
C
      CALL KNTSET
      CALL SPLINE(XA, YA, NK, Y2)
      DO 10 J = 1, M
         CALL SPLINT(XA, YA, Y2, NK, XQ(J), YQ(J))
   10 CONTINUE
C     Simpson's rule on 2*NS panels over [XLO, XHI].
      NS = 20
      H = (XHI - XLO) / DBLE(2 * NS)
      CALL SPLINT(XA, YA, Y2, NK, XLO, F0)
      CALL SPLINT(XA, YA, Y2, NK, XHI, FN)
      AREA = F0 + FN
      DO 20 I = 1, 2 * NS - 1
         X = XLO + DBLE(I) * H
         CALL SPLINT(XA, YA, Y2, NK, X, FX)
         IF (MOD(I, 2) .EQ. 1) THEN
            AREA = AREA + 4.0D0 * FX
         ELSE
            AREA = AREA + 2.0D0 * FX
         END IF
   20 CONTINUE
      AREA = AREA * H / 3.0D0
      IF (NOUT .GT. 0) THEN
         WRITE (NOUT, 900) NEVAL, AREA
         NOUT = 0
      END IF
      RETURN
  900 FORMAT (' SPLFIT: ', I6, ' EVALUATIONS, AREA = ', F12.6)
      END

C     Knot table (non-uniform), first call only.
      SUBROUTINE KNTSET
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      PARAMETER (NK = 8)
      COMMON /KNOTS/ XA(NK), XLO, XHI
      COMMON /SPLCNT/ NEVAL, NOUT
      DIMENSION XTAB(NK)
      LOGICAL INIT
      SAVE INIT
      DATA INIT /.TRUE./
      DATA (XTAB(I), I = 1, 4) /0.0D0, 0.3D0, 0.7D0, 1.2D0/
      DATA (XTAB(I), I = 5, NK) /1.6D0, 2.1D0, 2.5D0, 3.0D0/
      IF (.NOT. INIT) RETURN
      DO 10 I = 1, NK
         XA(I) = XTAB(I)
   10 CONTINUE
      XLO = XA(1)
      XHI = XA(NK)
      NEVAL = 0
      NOUT = 6
      INIT = .FALSE.
      RETURN
      END

C     Second derivatives of the natural spline (tridiagonal sweep).
      SUBROUTINE SPLINE(X, Y, N, Y2)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION X(N), Y(N), Y2(N)
      PARAMETER (NMAX = 50)
      DIMENSION U(NMAX)
      Y2(1) = 0.0D0
      U(1) = 0.0D0
      DO 11 I = 2, N - 1
         SIG = (X(I) - X(I-1)) / (X(I+1) - X(I-1))
         P = SIG * Y2(I-1) + 2.0D0
         Y2(I) = (SIG - 1.0D0) / P
         U(I) = (6.0D0 * ((Y(I+1) - Y(I)) / (X(I+1) - X(I))
     *        - (Y(I) - Y(I-1)) / (X(I) - X(I-1)))
     *        / (X(I+1) - X(I-1)) - SIG * U(I-1)) / P
   11 CONTINUE
      Y2(N) = 0.0D0
      DO 12 K = N - 1, 1, -1
         Y2(K) = Y2(K) * Y2(K+1) + U(K)
   12 CONTINUE
      RETURN
      END

C     Spline value at X by bisection for the bracketing interval.
      SUBROUTINE SPLINT(XA, YA, Y2A, N, X, Y)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION XA(N), YA(N), Y2A(N)
      COMMON /SPLCNT/ NEVAL, NOUT
      NEVAL = NEVAL + 1
      KLO = 1
      KHI = N
   1  IF (KHI - KLO .GT. 1) THEN
         K = (KHI + KLO) / 2
         IF (XA(K) .GT. X) THEN
            KHI = K
         ELSE
            KLO = K
         END IF
         GO TO 1
      END IF
      H = XA(KHI) - XA(KLO)
      IF (H .EQ. 0.0D0) THEN
         PRINT *, 'SPLINT: BAD XA INPUT'
         Y = 0.0D0
         RETURN
      END IF
      A = (XA(KHI) - X) / H
      B = (X - XA(KLO)) / H
      Y = A * YA(KLO) + B * YA(KHI) + ((A**3 - A) * Y2A(KLO)
     *    + (B**3 - B) * Y2A(KHI)) * (H**2) / 6.0D0
      RETURN
      END
