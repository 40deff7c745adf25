C=======================================================================
C     LEAST SQUARES BY GIVENS ROTATIONS: THE M BY N MATRIX A AND THE
C     RIGHT-HAND SIDE B ARE REDUCED TO TRIANGULAR FORM, ROTATION BY
C     ROTATION, WITH THE EISPACK PYTHAG (MOLER-MORRISON ITERATION FOR
C     SQRT(A**2+B**2) WITHOUT OVERFLOW: A BACKWARD GO TO LOOP LEFT BY A
C     FORWARD GO TO), THEN BACK SUBSTITUTION.  RNORM IS THE RESIDUAL.
C=======================================================================
      SUBROUTINE GIVLSQ(M, N, A, B, X, RNORM)
      INTEGER M, N
      DOUBLE PRECISION A(M,N), B(M), X(N), RNORM
      INTEGER I, J, K
      DOUBLE PRECISION C, S, R, T, PYTHAG
      DO 30 J = 1, N
         DO 20 I = J + 1, M
C           A ZERO BELOW THE DIAGONAL NEEDS NO ROTATION.
            IF (A(I,J) .EQ. 0.0D0) GO TO 20
            R = PYTHAG(A(J,J), A(I,J))
            C = A(J,J)/R
            S = A(I,J)/R
            DO 10 K = J, N
               T = C*A(J,K) + S*A(I,K)
               A(I,K) = -S*A(J,K) + C*A(I,K)
               A(J,K) = T
   10       CONTINUE
            T = C*B(J) + S*B(I)
            B(I) = -S*B(J) + C*B(I)
            B(J) = T
   20    CONTINUE
   30 CONTINUE
C     BACK SUBSTITUTION, ROW BY ROW FROM THE BOTTOM.
      DO 50 I = N, 1, -1
         T = B(I)
         IF (I .EQ. N) GO TO 45
         DO 40 K = I + 1, N
            T = T - A(I,K)*X(K)
   40    CONTINUE
   45    X(I) = T/A(I,I)
   50 CONTINUE
      RNORM = 0.0D0
      DO 60 I = N + 1, M
         RNORM = PYTHAG(RNORM, B(I))
   60 CONTINUE
      RETURN
      END

      DOUBLE PRECISION FUNCTION PYTHAG(A,B)
      DOUBLE PRECISION A,B
C
C     FINDS DSQRT(A**2+B**2) WITHOUT OVERFLOW OR DESTRUCTIVE UNDERFLOW
C
      DOUBLE PRECISION P,R,S,T,U
      P = DMAX1(DABS(A),DABS(B))
      IF (P .EQ. 0.0D0) GO TO 20
      R = (DMIN1(DABS(A),DABS(B))/P)**2
   10 CONTINUE
         T = 4.0D0 + R
         IF (T .EQ. 4.0D0) GO TO 20
         S = R/T
         U = 1.0D0 + 2.0D0*S
         P = U*P
         R = (S/U)**2 * R
      GO TO 10
   20 PYTHAG = P
      RETURN
      END
