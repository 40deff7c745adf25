C=======================================================================
C     CHOLESKY SOLUTION OF THE NORMAL EQUATIONS (W'W + MU I) X = W'Y,
C     WITH THE LINPACK DPOFA/DPOSL OF 1978 (DONGARRA, BUNCH, MOLER,
C     STEWART) AND THE BLAS DDOT/DAXPY THEY CALL: THE FACTORIZATION
C     LEAVES ITS COLUMN LOOP WITH A GO TO PAST 'INFO = 0' WHEN THE
C     MATRIX IS NOT POSITIVE DEFINITE, AND SKIPS EMPTY LOOPS WITH GO TO.
C=======================================================================
      SUBROUTINE RIDGE(M, N, W, Y, XMU, X, INFO)
      INTEGER M, N, INFO
      DOUBLE PRECISION W(M,N), Y(M), XMU, X(N)
      DOUBLE PRECISION A(10,10), DDOT
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, J
            A(I,J) = DDOT(M, W(1,I), 1, W(1,J), 1)
   10    CONTINUE
         A(J,J) = A(J,J) + XMU
         X(J) = DDOT(M, W(1,J), 1, Y, 1)
   20 CONTINUE
      CALL DPOFA(A, 10, N, INFO)
      IF (INFO .NE. 0) GO TO 30
      CALL DPOSL(A, 10, N, X)
   30 RETURN
      END

      SUBROUTINE DPOFA(A,LDA,N,INFO)
      INTEGER LDA,N,INFO
      DOUBLE PRECISION A(LDA,*)
C
      DOUBLE PRECISION DDOT,T
      DOUBLE PRECISION S
      INTEGER J,JM1,K
C     BEGIN BLOCK WITH ...EXITS TO 40
C
         DO 30 J = 1, N
            INFO = J
            S = 0.0D0
            JM1 = J - 1
            IF (JM1 .LT. 1) GO TO 20
            DO 10 K = 1, JM1
               T = A(K,J) - DDOT(K-1,A(1,K),1,A(1,J),1)
               T = T/A(K,K)
               A(K,J) = T
               S = S + T*T
   10       CONTINUE
   20       CONTINUE
            S = A(J,J) - S
C     ......EXIT
            IF (S .LE. 0.0D0) GO TO 40
            A(J,J) = DSQRT(S)
   30    CONTINUE
C     END BLOCK
         INFO = 0
   40 CONTINUE
      RETURN
      END

      SUBROUTINE DPOSL(A,LDA,N,B)
      INTEGER LDA,N
      DOUBLE PRECISION A(LDA,*),B(N)
C
      DOUBLE PRECISION DDOT,T
      INTEGER K,KB
C
C     SOLVE TRANS(R)*Y = B
C
      DO 10 K = 1, N
         T = DDOT(K-1,A(1,K),1,B(1),1)
         B(K) = (B(K) - T)/A(K,K)
   10 CONTINUE
C
C     SOLVE R*X = Y
C
      DO 20 KB = 1, N
         K = N + 1 - KB
         B(K) = B(K)/A(K,K)
         T = -B(K)
         CALL DAXPY(K-1,T,A(1,K),1,B(1),1)
   20 CONTINUE
      RETURN
      END

      DOUBLE PRECISION FUNCTION DDOT(N,DX,INCX,DY,INCY)
      INTEGER N,INCX,INCY
      DOUBLE PRECISION DX(*),DY(*)
      INTEGER I
      DDOT = 0.0D0
      IF (N .LE. 0) RETURN
      IF (INCX .NE. 1 .OR. INCY .NE. 1) GO TO 20
      DO 10 I = 1, N
         DDOT = DDOT + DX(I)*DY(I)
   10 CONTINUE
      RETURN
   20 DO 30 I = 1, N
         DDOT = DDOT + DX(1+(I-1)*INCX)*DY(1+(I-1)*INCY)
   30 CONTINUE
      RETURN
      END

      SUBROUTINE DAXPY(N,DA,DX,INCX,DY,INCY)
      INTEGER N,INCX,INCY
      DOUBLE PRECISION DX(*),DY(*),DA
      INTEGER I
      IF (N .LE. 0) RETURN
      IF (DA .EQ. 0.0D0) RETURN
      IF (INCX .NE. 1 .OR. INCY .NE. 1) GO TO 20
      DO 10 I = 1, N
         DY(I) = DY(I) + DA*DX(I)
   10 CONTINUE
      RETURN
   20 DO 30 I = 1, N
         DY(1+(I-1)*INCY) = DY(1+(I-1)*INCY) + DA*DX(1+(I-1)*INCX)
   30 CONTINUE
      RETURN
      END
