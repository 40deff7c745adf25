C     A chain of well-mixed boxes exchanging heat, F77 style: the state
C     lives in COMMON /BOXST/ (INCLUDEd), the forcing in blank COMMON.
      SUBROUTINE BOXINI(T0, RATE)
      INCLUDE 'boxcom.inc'
      DOUBLE PRECISION T0(NBOX), RATE
      DOUBLE PRECISION FORCE
      COMMON FORCE
      INTEGER I
      DO 10 I = 1, NBOX
         TBOX(I) = T0(I)
   10 CONTINUE
      DO 20 I = 1, NBOX - 1
         XCH(I) = RATE*DBLE(I)/(1.0D0 + DBLE(I))
   20 CONTINUE
      HEAT = 0.0D0
      NSTEP = 0
      FORCE = 0.5D0*RATE
      END

      SUBROUTINE BOXSTP(DT)
      INCLUDE 'boxcom.inc'
      DOUBLE PRECISION DT
      DOUBLE PRECISION FORCE
      COMMON FORCE
      DOUBLE PRECISION FLUX(NBOX-1)
      INTEGER I
      DO 10 I = 1, NBOX - 1
         FLUX(I) = XCH(I)*(TBOX(I+1) - TBOX(I))
   10 CONTINUE
      TBOX(1) = TBOX(1) + DT*(FLUX(1) + FORCE*SIN(TBOX(1))
     &          /DBLE(NSTEP + 1))
      DO 20 I = 2, NBOX - 1
         TBOX(I) = TBOX(I) + DT*(FLUX(I) - FLUX(I-1))
   20 CONTINUE
      TBOX(NBOX) = TBOX(NBOX) - DT*FLUX(NBOX-1)
      HEAT = HEAT + DT*FORCE*TBOX(1)**2
      NSTEP = NSTEP + 1
      END

      SUBROUTINE BOXOUT(COST)
      INCLUDE 'boxcom.inc'
      DOUBLE PRECISION COST
      INTEGER I
      COST = HEAT
      DO 10 I = 1, NBOX
         COST = COST + TBOX(I)**2/DBLE(NSTEP)
   10 CONTINUE
      END

C     The root does not declare the COMMON blocks: only the routines it
C     calls do.
      SUBROUTINE BOXRUN(T0, RATE, DT, NT, COST)
      DOUBLE PRECISION T0(4), RATE, DT, COST
      INTEGER NT, K
      CALL BOXINI(T0, RATE)
      DO 10 K = 1, NT
         CALL BOXSTP(DT)
   10 CONTINUE
      CALL BOXOUT(COST)
      END
