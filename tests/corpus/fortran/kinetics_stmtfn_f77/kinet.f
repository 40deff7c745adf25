C=======================================================================
C     IMPLICIT-EULER INTEGRATION OF A THREE-SPECIES ROBERTSON-LIKE
C     KINETICS SCHEME WITH ARRHENIUS RATES, ODEPACK STYLE: STATEMENT
C     FUNCTIONS FOR THE RATE LAW AND THE PRODUCTION TERMS, A COMPUTED
C     GO TO THAT PICKS THE TEMPERATURE PROFILE, A NEWTON ITERATION
C     WITH A BACKWARD GO TO, AND A 3X3 SOLVE BY CRAMER'S RULE.
C=======================================================================
      SUBROUTINE KINET(NSTEP, IPROF, DT, AK, EA, Y)
      INTEGER NSTEP, IPROF
      DOUBLE PRECISION DT, AK(3), EA(3), Y(3)
      DOUBLE PRECISION ARRH, T, TK, RGAS, A, E, F1, F2, F3, X1, X2, X3
      DOUBLE PRECISION R1, R2, R3, YN(3), G(3), AJ(3,3), DY(3), DET,
     *   DET3, C11, C12, C13, C21, C22, C23, C31, C32, C33
      DOUBLE PRECISION RK(3), ERR
      INTEGER K, I, ITER
      PARAMETER (RGAS = 8.314D-3)
C     STATEMENT FUNCTIONS: RATE LAW, PRODUCTION TERMS, 3X3 DETERMINANT.
      ARRH(A, E, TK) = A*EXP(-E/(RGAS*TK))
      F1(X1, X2, X3) = -RK(1)*X1 + RK(3)*X2*X3
      F2(X1, X2, X3) = RK(1)*X1 - RK(3)*X2*X3 - RK(2)*X2*X2
      F3(X2) = RK(2)*X2*X2
      DET3(C11, C12, C13, C21, C22, C23, C31, C32, C33) =
     *   C11*(C22*C33 - C23*C32) - C12*(C21*C33 - C23*C31)
     *   + C13*(C21*C32 - C22*C31)
      DO 100 K = 1, NSTEP
C        TEMPERATURE PROFILE: 1 CONSTANT, 2 RAMP, 3 PULSE.
         GO TO (10, 20, 30), IPROF
   10    T = 300.0D0
         GO TO 40
   20    T = 300.0D0 + 0.5D0*DBLE(K)
         GO TO 40
   30    T = 300.0D0 + 40.0D0*EXP(-(DBLE(K - NSTEP/2)/5.0D0)**2)
   40    DO 45 I = 1, 3
            RK(I) = ARRH(AK(I), EA(I), T)
   45    CONTINUE
         DO 50 I = 1, 3
            YN(I) = Y(I)
   50    CONTINUE
C        NEWTON ON G(Y) = Y - YN - DT*F(Y) = 0.
         ITER = 0
   60    ITER = ITER + 1
         R1 = F1(Y(1), Y(2), Y(3))
         R2 = F2(Y(1), Y(2), Y(3))
         R3 = F3(Y(2))
         G(1) = Y(1) - YN(1) - DT*R1
         G(2) = Y(2) - YN(2) - DT*R2
         G(3) = Y(3) - YN(3) - DT*R3
         AJ(1,1) = 1.0D0 + DT*RK(1)
         AJ(1,2) = -DT*RK(3)*Y(3)
         AJ(1,3) = -DT*RK(3)*Y(2)
         AJ(2,1) = -DT*RK(1)
         AJ(2,2) = 1.0D0 + DT*(RK(3)*Y(3) + 2.0D0*RK(2)*Y(2))
         AJ(2,3) = DT*RK(3)*Y(2)
         AJ(3,1) = 0.0D0
         AJ(3,2) = -2.0D0*DT*RK(2)*Y(2)
         AJ(3,3) = 1.0D0
         DET = DET3(AJ(1,1), AJ(1,2), AJ(1,3), AJ(2,1), AJ(2,2),
     *      AJ(2,3), AJ(3,1), AJ(3,2), AJ(3,3))
         DY(1) = DET3(G(1), AJ(1,2), AJ(1,3), G(2), AJ(2,2), AJ(2,3),
     *      G(3), AJ(3,2), AJ(3,3))/DET
         DY(2) = DET3(AJ(1,1), G(1), AJ(1,3), AJ(2,1), G(2), AJ(2,3),
     *      AJ(3,1), G(3), AJ(3,3))/DET
         DY(3) = DET3(AJ(1,1), AJ(1,2), G(1), AJ(2,1), AJ(2,2), G(2),
     *      AJ(3,1), AJ(3,2), G(3))/DET
         ERR = 0.0D0
         DO 70 I = 1, 3
            Y(I) = Y(I) - DY(I)
            ERR = MAX(ERR, ABS(DY(I)))
   70    CONTINUE
C        A FIXED NUMBER OF ITERATIONS PAST CONVERGENCE KEEPS THE
C        RESULT A SMOOTH FUNCTION OF THE DATA.
         IF (ITER .LT. 6) GO TO 60
  100 CONTINUE
      RETURN
      END
