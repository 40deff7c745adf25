C=======================================================================
C     LEVEL-1 BLAS KERNELS IN THE STYLE OF LINPACK (DONGARRA ET AL.,
C     1978), AND A CONJUGATE-GRADIENT-LIKE STEP BUILT FROM THEM.
C     FEATURES: FIXED FORM, UPPER CASE, DOUBLE PRECISION, ASSUMED-SIZE
C     ARRAYS DX(*), UNROLLED LOOPS WITH MOD, LABELLED DO LOOPS CLOSED BY
C     CONTINUE, STRIDED ACCESS, A CONTINUATION LINE, EARLY RETURN.
C=======================================================================
      SUBROUTINE CGSTEP(N,X,R,P,ALPHA,RNORM)
      INTEGER N
      DOUBLE PRECISION X(N),R(N),P(N),ALPHA,RNORM
      DOUBLE PRECISION DDOT,RR,PP
C
C     ONE DAMPED STEP ALONG P, THEN THE NORM OF THE NEW RESIDUAL.
C
      RR = DDOT(N,R,1,R,1)
      PP = DDOT(N,P,1,P,1)
      ALPHA = RR/(PP + 1.0D0)
      CALL DAXPY(N,ALPHA,P,1,X,1)
      CALL DAXPY(N,-ALPHA,X,1,R,1)
      CALL DSCAL(N,0.5D0,R,1)
      RNORM = DSQRT(DDOT(N,R,1,R,1))
      RETURN
      END
C
      DOUBLE PRECISION FUNCTION DDOT(N,DX,INCX,DY,INCY)
C
C     FORMS THE DOT PRODUCT OF TWO VECTORS.
C     USES UNROLLED LOOPS FOR INCREMENTS EQUAL TO ONE.
C
      DOUBLE PRECISION DX(*),DY(*),DTEMP
      INTEGER I,INCX,INCY,IX,IY,M,MP1,N
C
      DDOT = 0.0D0
      DTEMP = 0.0D0
      IF (N.LE.0) RETURN
      IF (INCX.EQ.1 .AND. INCY.EQ.1) THEN
C
C        CODE FOR BOTH INCREMENTS EQUAL TO 1
C
         M = MOD(N,5)
         IF (M.NE.0) THEN
            DO 30 I = 1,M
               DTEMP = DTEMP + DX(I)*DY(I)
   30       CONTINUE
            IF (N.LT.5) THEN
               DDOT = DTEMP
               RETURN
            END IF
         END IF
         MP1 = M + 1
         DO 50 I = MP1,N,5
          DTEMP = DTEMP + DX(I)*DY(I) + DX(I+1)*DY(I+1) +
     $            DX(I+2)*DY(I+2) + DX(I+3)*DY(I+3) + DX(I+4)*DY(I+4)
   50    CONTINUE
      ELSE
C
C        CODE FOR UNEQUAL INCREMENTS OR EQUAL INCREMENTS
C        NOT EQUAL TO 1
C
         IX = 1
         IY = 1
         IF (INCX.LT.0) IX = (-N+1)*INCX + 1
         IF (INCY.LT.0) IY = (-N+1)*INCY + 1
         DO 10 I = 1,N
            DTEMP = DTEMP + DX(IX)*DY(IY)
            IX = IX + INCX
            IY = IY + INCY
   10    CONTINUE
      END IF
      DDOT = DTEMP
      RETURN
      END
C
      SUBROUTINE DAXPY(N,DA,DX,INCX,DY,INCY)
C
C     CONSTANT TIMES A VECTOR PLUS A VECTOR.
C     USES UNROLLED LOOPS FOR INCREMENTS EQUAL TO ONE.
C
      DOUBLE PRECISION DA
      INTEGER INCX,INCY,N
      DOUBLE PRECISION DX(*),DY(*)
      INTEGER I,IX,IY,M,MP1
C
      IF (N.LE.0) RETURN
      IF (DA.EQ.0.0D0) RETURN
      IF (INCX.EQ.1 .AND. INCY.EQ.1) THEN
         M = MOD(N,4)
         IF (M.NE.0) THEN
            DO 30 I = 1,M
               DY(I) = DY(I) + DA*DX(I)
   30       CONTINUE
         END IF
         IF (N.LT.4) RETURN
         MP1 = M + 1
         DO 50 I = MP1,N,4
            DY(I) = DY(I) + DA*DX(I)
            DY(I+1) = DY(I+1) + DA*DX(I+1)
            DY(I+2) = DY(I+2) + DA*DX(I+2)
            DY(I+3) = DY(I+3) + DA*DX(I+3)
   50    CONTINUE
      ELSE
         IX = 1
         IY = 1
         IF (INCX.LT.0) IX = (-N+1)*INCX + 1
         IF (INCY.LT.0) IY = (-N+1)*INCY + 1
         DO 10 I = 1,N
            DY(IY) = DY(IY) + DA*DX(IX)
            IX = IX + INCX
            IY = IY + INCY
   10    CONTINUE
      END IF
      RETURN
      END
C
      SUBROUTINE DSCAL(N,DA,DX,INCX)
C
C     SCALES A VECTOR BY A CONSTANT.
C
      DOUBLE PRECISION DA
      INTEGER INCX,N
      DOUBLE PRECISION DX(*)
      INTEGER I,NINCX
C
      IF (N.LE.0 .OR. INCX.LE.0) RETURN
      NINCX = N*INCX
      DO 10 I = 1,NINCX,INCX
         DX(I) = DA*DX(I)
   10 CONTINUE
      RETURN
      END
