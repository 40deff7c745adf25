C     A reverse-communication integrator in the manner of DVERK: the caller
C     re-enters it in the middle of its step loop (IND = 4 at 1111, IND = 5
C     at 2222), so the loop from 100 has three entries and no structured form.
      SUBROUTINE INTEG(IND, N, Y, H, NSTEP, W)
      INTEGER IND, N, NSTEP, K, ISTEP
      DOUBLE PRECISION Y(N), H, W(N)
      ISTEP = 0
      IF (IND .LT. 1 .OR. IND .GT. 5) GO TO 500
      IF (IND .EQ. 4) GO TO 1111
      IF (IND .EQ. 5) GO TO 2222
C     stage 1: the slope
  100 CONTINUE
      DO 10 K = 1, N
         W(K) = -Y(K)**2 + SIN(Y(K))
   10 CONTINUE
C     stage 2: a correction, skipped for negative components
 1111 CONTINUE
      DO 20 K = 1, N
         IF (Y(K) .LT. 0.0D0) GO TO 20
         W(K) = W(K) + 0.5D0*H*Y(K)*W(K)
   20 CONTINUE
C     stage 3: the update
 2222 CONTINUE
      DO 30 K = 1, N
         Y(K) = Y(K) + H*W(K)
   30 CONTINUE
      ISTEP = ISTEP + 1
      IF (ISTEP .GE. NSTEP) GO TO 90
      GO TO 100
   90 IND = 3
      RETURN
C     abort: no step taken
  500 IND = -1
      END

C     A loop entered in its middle, inside a DO loop whose own CYCLE must
C     still mean the outer loop once the inner jumps have a dispatcher.
      SUBROUTINE RELAX(MODE, Y, H)
      INTEGER MODE, IT
      DOUBLE PRECISION Y(2), H
      DO 50 IT = 1, 3
         IF (IT .EQ. 2 .AND. Y(2) .GT. 0.0D0) CYCLE
         IF (MODE .EQ. 1) GO TO 41
   40    Y(1) = Y(1) + 0.5D0*H
   41    Y(1) = Y(1)*(1.0D0 + H*Y(2))
         IF (Y(1) .LT. 0.5D0) GO TO 40
         Y(2) = Y(2) + 0.25D0*Y(1)**2
   50 CONTINUE
      END

      SUBROUTINE RUN(N, Y, H, S)
      INTEGER N, IND, K
      DOUBLE PRECISION Y(N), H, S, W(8)
      DO 5 K = 1, N
         W(K) = 0.1D0*Y(K)
    5 CONTINUE
      IND = 4
      CALL INTEG(IND, N, Y, H, 2, W)
      IND = 5
      CALL INTEG(IND, N, Y, H, 1, W)
      IND = 1
      CALL INTEG(IND, N, Y, H, 3, W)
      CALL RELAX(1, Y, H)
      CALL RELAX(2, Y, H)
      S = 0.0D0
      DO 60 K = 1, N
         S = S + Y(K)**2
   60 CONTINUE
      END
