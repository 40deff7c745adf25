C=======================================================================
C     ONE-DIMENSIONAL SCALAR CONSERVATION LAW U_T + (C U)_X = 0 ON A
C     PERIODIC GRID, SECOND-ORDER MUSCL WITH A SLOPE LIMITER CHOSEN BY
C     NAME (SELECT CASE ON A CHARACTER SELECTOR) AND A TIME INTEGRATOR
C     CHOSEN BY NUMBER (SELECT CASE WITH A RANGE, A LIST AND DEFAULT).
C     FIXED-FORM FORTRAN 90 AS MANY CODES WERE WRITTEN IN THE 1990S.
C=======================================================================
      SUBROUTINE MUSCL(N, NSTEP, METH, LIM, CFL, U)
      INTEGER N, NSTEP, METH, LIM
      DOUBLE PRECISION CFL, U(N)
      DOUBLE PRECISION U1(200), R(200)
      CHARACTER*8 LNAME
      INTEGER I, K
      SELECT CASE (LIM)
      CASE (1)
         LNAME = 'MINMOD'
      CASE (2)
         LNAME = 'VANLEER'
      CASE DEFAULT
         LNAME = 'SMOOTH'
      END SELECT
      DO 40 K = 1, NSTEP
         CALL RHS(N, LNAME, CFL, U, R)
         SELECT CASE (METH)
C        FORWARD EULER
         CASE (:1)
            DO 10 I = 1, N
               U(I) = U(I) + R(I)
   10       CONTINUE
C        HEUN AND SSP-RK2 ARE THE SAME SCHEME
         CASE (2, 3)
            DO 20 I = 1, N
               U1(I) = U(I) + R(I)
   20       CONTINUE
            CALL RHS(N, LNAME, CFL, U1, R)
            DO 30 I = 1, N
               U(I) = 0.5D0*(U(I) + U1(I) + R(I))
   30       CONTINUE
         CASE (4:)
            CALL SSPRK3(N, LNAME, CFL, U, U1, R)
         END SELECT
   40 CONTINUE
      RETURN
      END

      SUBROUTINE SSPRK3(N, LNAME, CFL, U, U1, R)
      INTEGER N
      CHARACTER*(*) LNAME
      DOUBLE PRECISION CFL, U(N), U1(N), R(N)
      INTEGER I
      DO 10 I = 1, N
         U1(I) = U(I) + R(I)
   10 CONTINUE
      CALL RHS(N, LNAME, CFL, U1, R)
      DO 20 I = 1, N
         U1(I) = 0.75D0*U(I) + 0.25D0*(U1(I) + R(I))
   20 CONTINUE
      CALL RHS(N, LNAME, CFL, U1, R)
      DO 30 I = 1, N
         U(I) = U(I)/3.0D0 + 2.0D0*(U1(I) + R(I))/3.0D0
   30 CONTINUE
      RETURN
      END

C     UPWIND FLUX DIFFERENCES OF THE LIMITED RECONSTRUCTION, TIMES -CFL.
      SUBROUTINE RHS(N, LNAME, CFL, U, R)
      INTEGER N
      CHARACTER*(*) LNAME
      DOUBLE PRECISION CFL, U(N), R(N)
      DOUBLE PRECISION F(0:200), DL, DR, S
      INTEGER I, IM, IP
      DO 10 I = 1, N
         IM = I - 1
         IF (IM .LT. 1) IM = N
         IP = I + 1
         IF (IP .GT. N) IP = 1
         DL = U(I) - U(IM)
         DR = U(IP) - U(I)
         SELECT CASE (LNAME)
         CASE ('MINMOD')
            IF (DL*DR .LE. 0.0D0) THEN
               S = 0.0D0
            ELSE
               S = SIGN(MIN(ABS(DL), ABS(DR)), DL)
            END IF
         CASE ('VANLEER')
            IF (DL*DR .LE. 0.0D0) THEN
               S = 0.0D0
            ELSE
               S = 2.0D0*DL*DR/(DL + DR)
            END IF
         CASE DEFAULT
            S = 0.5D0*(DL + DR)*DL*DR/(DL*DL + DR*DR + 1.0D-2)
         END SELECT
         F(I) = U(I) + 0.5D0*(1.0D0 - CFL)*S
   10 CONTINUE
      F(0) = F(N)
      DO 20 I = 1, N
         R(I) = -CFL*(F(I) - F(I-1))
   20 CONTINUE
      RETURN
      END
