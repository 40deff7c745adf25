C     An explicit integrator whose state lives in COMMON and is passed
C     to the routines that also declare the block, as F77 codes do.
      SUBROUTINE RHS(Z, F)
      DOUBLE PRECISION Z(3), F(3)
      DOUBLE PRECISION Y(3), RK
      COMMON /STATE/ Y, RK
      F(1) = -RK*Z(1)*Y(2)
      F(2) = RK*Z(1)*Y(2) - Y(3)*Z(2)
      F(3) = Z(2)*Y(3)
      END

      SUBROUTINE UPDATE(Z, F, H)
      DOUBLE PRECISION Z(3), F(3), H
      DOUBLE PRECISION S(3), RK
      COMMON /STATE/ S, RK
      INTEGER I
C     Z is S: the second loop reads what the first wrote.
      DO 10 I = 1, 3
         Z(I) = Z(I) + H*F(I)
   10 CONTINUE
      DO 20 I = 1, 3
         S(I) = S(I)*(1.0D0 + 0.01D0*Z(I)*Z(I))
   20 CONTINUE
      END

      SUBROUTINE EULER(Y0, K, T)
      DOUBLE PRECISION Y0(3), K, T
      DOUBLE PRECISION Y(3), RK, F(3)
      COMMON /STATE/ Y, RK
      INTEGER I, N
      DO 5 I = 1, 3
         Y(I) = Y0(I)
    5 CONTINUE
      RK = K
      N = 8
      DO 30 I = 1, N
         CALL RHS(Y, F)
         CALL UPDATE(Y, F, 0.05D0)
   30 CONTINUE
      T = Y(1)*Y(1) + Y(2) + Y(3)**3
      END
