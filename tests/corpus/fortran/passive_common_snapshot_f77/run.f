C     A step size kept in a COMMON block that only the called routines
C     declare (as DOPRI5 keeps XOLD, HOUT in /CONDO5/): passive, read and
C     halved by every step. The adjoint re-runs each step from a snapshot,
C     so the root's adjoint must declare the block to save and restore H,
C     though the root never names it.
      SUBROUTINE RUN(Y, A)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      CALL INIT
      CALL STEP(Y, A)
      CALL STEP(Y, A)
      CALL STEP(Y, A)
      END

      SUBROUTINE INIT
      DOUBLE PRECISION H
      COMMON /CNT/ H
      H = 0.8D0
      END

      SUBROUTINE STEP(Y, A)
      DOUBLE PRECISION Y, A, H
      COMMON /CNT/ H
      Y = Y + H*SIN(A*Y)
      H = H*0.5D0
      END
