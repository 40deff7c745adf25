C     A step size kept in COMMON, which the driver does not declare and
C     whose name its own local takes: the adjoint declares the block under
C     another name for the variable, to save and restore the block's.
      SUBROUTINE STEP(Y, K)
      DOUBLE PRECISION Y, K, H
      COMMON /STP/ H
      Y = Y - H*K*Y**2
      H = H*(1.0D0 + 0.2D0*Y)
      END

      SUBROUTINE RESET(H0)
      DOUBLE PRECISION H0, H
      COMMON /STP/ H
      H = H0
      END

      SUBROUTINE RUN(Y, K, H0, F)
      DOUBLE PRECISION Y, K, H0, F, H
      INTEGER I
      H = 2.0D0*H0
      CALL RESET(H0)
      DO 10 I = 1, 4
         CALL STEP(Y, K)
   10 CONTINUE
      F = Y + H
      END
