C     ------------------------------------------------------------------
C     KINRUN: explicit Euler integration of a small reaction network
C     A -> B -> C, A + B -> D with Arrhenius rates.  The rate data live
C     in COMMON /RATES/, set once by RINIT from DATA tables (a SAVEd
C     first-call flag); RSTEP counts its calls in COMMON /STATS/.
C     ------------------------------------------------------------------
      SUBROUTINE KINRUN(NSTEP, Y0, TEMP, Y, YSUM)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NSP = 4, NRX = 3)
      INTEGER NSTEP
      DIMENSION Y0(NSP), Y(NSP)
      COMMON /RATES/ A(NRX), EA(NRX), DT
      COMMON /STATS/ NCALL
      CALL RINIT
      DO 10 I = 1, NSP
         Y(I) = Y0(I)
   10 CONTINUE
      DO 20 K = 1, NSTEP
         CALL RSTEP(TEMP, Y)
   20 CONTINUE
      YSUM = 0.0D0
      DO 30 I = 1, NSP
         YSUM = YSUM + DBLE(I) * Y(I)
   30 CONTINUE
      RETURN
      END

C     Fills COMMON /RATES/ on the first call only.
      SUBROUTINE RINIT
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NRX = 3)
      COMMON /RATES/ A(NRX), EA(NRX), DT
      COMMON /STATS/ NCALL
      DIMENSION A0(NRX), E0(NRX)
      LOGICAL FIRST
      SAVE FIRST
      DATA FIRST /.TRUE./
      DATA A0 /1.2D0, 0.8D0, 2.5D0/, E0 /3.0D0, 1.5D0, 4.0D0/
      IF (FIRST) THEN
         DO 10 I = 1, NRX
            A(I) = A0(I)
            EA(I) = E0(I)
   10    CONTINUE
         DT = 0.01D0
         NCALL = 0
         FIRST = .FALSE.
      ENDIF
      RETURN
      END

C     One Euler step of the network at temperature TEMP.
      SUBROUTINE RSTEP(TEMP, Y)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NSP = 4, NRX = 3)
      DIMENSION Y(NSP), R(NRX), F(NSP)
      COMMON /RATES/ A(NRX), EA(NRX), DT
      COMMON /STATS/ NCALL
      NCALL = NCALL + 1
      DO 10 J = 1, NRX
         R(J) = A(J) * DEXP(-EA(J) / TEMP)
   10 CONTINUE
      F(1) = -R(1)*Y(1) - R(3)*Y(1)*Y(2)
      F(2) = R(1)*Y(1) - R(2)*Y(2) - R(3)*Y(1)*Y(2)
      F(3) = R(2)*Y(2)
      F(4) = R(3)*Y(1)*Y(2)
      DO 20 I = 1, NSP
         Y(I) = Y(I) + DT * F(I)
   20 CONTINUE
      RETURN
      END
