C     ------------------------------------------------------------------
C     ADV: a Nordsieck-like history array advanced in ODEPACK's style:
C     the stepper receives the same storage twice, as the 2-D history
C     YH(NYH,*) and as its flat view YH1(*), and writes through both.
C     ------------------------------------------------------------------
      SUBROUTINE ADV(Y, N, NSTEP, S)
      INTEGER N, NSTEP
      DOUBLE PRECISION Y(N), S
      DOUBLE PRECISION WORK(60)
      INTEGER I, K, LYH
      LYH = 1
      DO 10 I = 1, N
        WORK(I) = Y(I)
        WORK(N+I) = 0.1D0*Y(I)
        WORK(2*N+I) = 0.01D0*Y(I)**2
 10   CONTINUE
      DO 20 K = 1, NSTEP
        CALL STEPH(WORK(LYH), N, WORK(LYH), 3*N)
 20   CONTINUE
      S = 0.0D0
      DO 30 I = 1, N
        Y(I) = WORK(I)
        S = S + WORK(N+I)*WORK(2*N+I)
 30   CONTINUE
      END

      SUBROUTINE STEPH(YH, NYH, YH1, L)
      INTEGER NYH, L
      DOUBLE PRECISION YH(NYH,*), YH1(*)
      INTEGER I, J
C     Predict: the Pascal triangle on the flat view.
      DO 20 J = 1, 2
        DO 10 I = 1, L - J*NYH
          YH1(I) = YH1(I) + YH1(I+NYH)
 10     CONTINUE
 20   CONTINUE
C     Correct through the 2-D view; the last line reads through one name
C     the element it writes through the other.
      DO 30 I = 1, NYH
        YH(I,1) = YH(I,1) - 0.1D0*YH(I,2)*YH(I,1)
        YH(I,2) = YH(I,2) + 0.05D0*SIN(YH(I,1))
        YH(I,3) = 0.5D0*YH1(I+2*NYH)*YH1(I)
 30   CONTINUE
      END
