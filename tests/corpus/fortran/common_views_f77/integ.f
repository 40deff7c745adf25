C     ------------------------------------------------------------------
C     INTEG: Heun steps of a small nonlinear system, in ODEPACK's style:
C     the stepper's state lives in COMMON /STP01/, which the driver, the
C     stepper and the diagnostic function each declare with their own
C     variables (storage association by position). A local named SIZE
C     hides the intrinsic.
C     ------------------------------------------------------------------
      SUBROUTINE INTEG(Y, K, N, TOUT, S)
      INTEGER N
      DOUBLE PRECISION Y(N), K, TOUT, S
      DOUBLE PRECISION ROWNS(7), H, TN, PK, ENERGY
      INTEGER IOWNS(3), NST, NQ
      COMMON /STP01/ ROWNS, H, TN, PK, IOWNS, NST, NQ
      INTEGER NW
      COMMON /DIMS/ NW
      INTEGER I
      DOUBLE PRECISION SIZE
      EXTERNAL ENERGY
      NW = N
      H = 0.05D0
      TN = 0.0D0
      PK = K
      NST = 0
      NQ = 2
      DO 10 I = 1, 7
        ROWNS(I) = 0.0D0
 10   CONTINUE
 20   IF (TN .GE. TOUT) GO TO 30
      CALL STEP(Y, N)
      GO TO 20
 30   SIZE = DBLE(NST)
      S = ENERGY() + SIZE*1.0D-3
      END

C     One Heun step: EL holds f(y), ACC the old y, HOLD the step.
      SUBROUTINE STEP(Y, N)
      INTEGER N
      DOUBLE PRECISION Y(N)
      DOUBLE PRECISION EL(3), HOLD, ACC(3), H, TN, PK, F2(3)
      INTEGER IALTH, IPUP, MEO, NST, NQ, I
      COMMON /STP01/ EL, HOLD, ACC, H, TN, PK, IALTH, IPUP, MEO, NST, NQ
      HOLD = H
      DO 10 I = 1, N
        ACC(I) = Y(I)
 10   CONTINUE
      CALL RHS(Y, EL, PK)
      DO 20 I = 1, N
        Y(I) = ACC(I) + HOLD*EL(I)
 20   CONTINUE
      CALL RHS(Y, F2, PK)
      DO 30 I = 1, N
        Y(I) = ACC(I) + 0.5D0*HOLD*(EL(I) + F2(I))
 30   CONTINUE
      TN = TN + H
      NST = NST + 1
      IALTH = MOD(NST, NQ)
      IF (IALTH .EQ. 0) EL(2) = EL(2)*ACC(1)
      CALL SMOOTH(Y)
      END

C     W arrives without a size; the one ad.toml gives it is in COMMON.
      SUBROUTINE SMOOTH(W)
      DOUBLE PRECISION W(*)
      INTEGER NW, I
      COMMON /DIMS/ NW
      CALL DAMP(W, NW)
      DO 10 I = 2, NW
        W(I) = W(I) - 0.01D0*W(I-1)*W(I)
 10   CONTINUE
      END

      SUBROUTINE DAMP(V, M)
      INTEGER M, I
      DOUBLE PRECISION V(M)
      DO 10 I = 1, M
        V(I) = V(I)/(1.0D0 + 0.01D0*V(I)**2)
 10   CONTINUE
      END

      SUBROUTINE RHS(Y, F, PK)
      DOUBLE PRECISION Y(3), F(3), PK
      F(1) = -PK*Y(1) + 0.1D0*Y(2)*Y(3)
      F(2) = PK*Y(1) - 0.3D0*Y(2)**2
      F(3) = 0.2D0*Y(2)**2 - 0.05D0*Y(3)
      END

C     Reads what the last step left, under names of its own.
      DOUBLE PRECISION FUNCTION ENERGY()
      DOUBLE PRECISION R(7), H, TN, PK
      INTEGER IW(5)
      COMMON /STP01/ R, H, TN, PK, IW
      ENERGY = R(1)**2 + R(4)*R(5) + PK*R(2)*R(7) + DBLE(IW(4))*TN*R(3)
      END
