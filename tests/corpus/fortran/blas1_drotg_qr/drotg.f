C=======================================================================
C     QR FACTORIZATION OF AN M BY N MATRIX BY GIVENS ROTATIONS BUILT
C     FROM THE REFERENCE BLAS LEVEL 1 (LAWSON, HANSON, KINCAID, KROGH
C     1979): DROTG CONSTRUCTS EACH ROTATION, DROT APPLIES IT TO TWO
C     ROWS, IDAMAX FINDS THE LARGEST DIAGONAL ENTRY.  THE ROUTINES KEEP
C     THEIR GO TOS: TO THE UNIT-STRIDE CODE, OVER THE ZERO CASE, PAST
C     SMALLER ELEMENTS AND OUT OF THE ROTATION LOOP ON A ZERO COLUMN.
C=======================================================================
      SUBROUTINE GQR(M, N, A, RMAX, IMAX)
      INTEGER M, N, IMAX
      DOUBLE PRECISION A(M,N), RMAX
      DOUBLE PRECISION C, S, R, Z, DIAG(20)
      INTEGER I, J, IDAMAX
      DO 20 J = 1, N
         DO 10 I = M, J + 1, -1
            IF (A(I,J) .EQ. 0.0D0) GO TO 10
            R = A(I-1,J)
            Z = A(I,J)
            CALL DROTG(R, Z, C, S)
            CALL DROT(N-J+1, A(I-1,J), M, A(I,J), M, C, S)
   10    CONTINUE
         DIAG(J) = A(J,J)
   20 CONTINUE
      IMAX = IDAMAX(N, DIAG, 1)
      RMAX = ABS(DIAG(IMAX))
      RETURN
      END

      SUBROUTINE DROTG(DA,DB,C,S)
C
C     CONSTRUCT GIVENS PLANE ROTATION.
C     JACK DONGARRA, LINPACK, 3/11/78.
C
      DOUBLE PRECISION DA,DB,C,S,ROE,SCALE,R,Z
C
      ROE = DB
      IF( DABS(DA) .GT. DABS(DB) ) ROE = DA
      SCALE = DABS(DA) + DABS(DB)
      IF( SCALE .NE. 0.0D0 ) GO TO 10
         C = 1.0D0
         S = 0.0D0
         R = 0.0D0
         Z = 0.0D0
         GO TO 20
   10 R = SCALE*DSQRT((DA/SCALE)**2 + (DB/SCALE)**2)
      R = DSIGN(1.0D0,ROE)*R
      C = DA/R
      S = DB/R
      Z = 1.0D0
      IF( DABS(DA) .GT. DABS(DB) ) Z = S
      IF( DABS(DB) .GE. DABS(DA) .AND. C .NE. 0.0D0 ) Z = 1.0D0/C
   20 DA = R
      DB = Z
      RETURN
      END

      SUBROUTINE DROT(N,DX,INCX,DY,INCY,C,S)
C
C     APPLIES A PLANE ROTATION.
C     JACK DONGARRA, LINPACK, 3/11/78.
C
      INTEGER N,INCX,INCY
      DOUBLE PRECISION DX(*),DY(*),DTEMP,C,S
      INTEGER I,IX,IY
C
      IF(N.LE.0)RETURN
      IF(INCX.EQ.1.AND.INCY.EQ.1)GO TO 20
C
C       CODE FOR UNEQUAL INCREMENTS OR EQUAL INCREMENTS NOT EQUAL
C         TO 1
C
      IX = 1
      IY = 1
      IF(INCX.LT.0)IX = (-N+1)*INCX + 1
      IF(INCY.LT.0)IY = (-N+1)*INCY + 1
      DO 10 I = 1,N
        DTEMP = C*DX(IX) + S*DY(IY)
        DY(IY) = C*DY(IY) - S*DX(IX)
        DX(IX) = DTEMP
        IX = IX + INCX
        IY = IY + INCY
   10 CONTINUE
      RETURN
C
C       CODE FOR BOTH INCREMENTS EQUAL TO 1
C
   20 DO 30 I = 1,N
        DTEMP = C*DX(I) + S*DY(I)
        DY(I) = C*DY(I) - S*DX(I)
        DX(I) = DTEMP
   30 CONTINUE
      RETURN
      END

      INTEGER FUNCTION IDAMAX(N,DX,INCX)
C
C     FINDS THE INDEX OF ELEMENT HAVING MAX. ABSOLUTE VALUE.
C     JACK DONGARRA, LINPACK, 3/11/78.
C
      DOUBLE PRECISION DX(*),DMAX
      INTEGER I,INCX,IX,N
C
      IDAMAX = 0
      IF( N .LT. 1 ) RETURN
      IDAMAX = 1
      IF(N.EQ.1)RETURN
      IF(INCX.EQ.1)GO TO 20
C
C        CODE FOR INCREMENT NOT EQUAL TO 1
C
      IX = 1
      DMAX = DABS(DX(1))
      IX = IX + INCX
      DO 10 I = 2,N
         IF(DABS(DX(IX)).LE.DMAX) GO TO 5
         IDAMAX = I
         DMAX = DABS(DX(IX))
    5    IX = IX + INCX
   10 CONTINUE
      RETURN
C
C        CODE FOR INCREMENT EQUAL TO 1
C
   20 DMAX = DABS(DX(1))
      DO 30 I = 2,N
         IF(DABS(DX(I)).LE.DMAX) GO TO 30
         IDAMAX = I
         DMAX = DABS(DX(I))
   30 CONTINUE
      RETURN
      END
