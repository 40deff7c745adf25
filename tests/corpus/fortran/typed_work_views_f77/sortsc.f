C     One work array seen as reals and as integers, as ODEPACK's DLSODES
C     passes RWORK(LWM) as WK and as IWK: the integer view holds an
C     ordering, the real view the values. The integer view carries no
C     derivative; the two views use disjoint parts of the array.
      SUBROUTINE SORTSC(N, WK, IWK, X)
      INTEGER N, IWK(*), I, J, T
      DOUBLE PRECISION WK(*), X(N)
      DO 10 I = 1, N
         IWK(I) = I
         WK(N + I) = X(I)**2 + 0.5D0*X(N + 1 - I)
   10 CONTINUE
      DO 30 I = 1, N - 1
         DO 20 J = 1, N - I
            IF (WK(N + IWK(J)) .GT. WK(N + IWK(J + 1))) THEN
               T = IWK(J)
               IWK(J) = IWK(J + 1)
               IWK(J + 1) = T
            END IF
   20    CONTINUE
   30 CONTINUE
      CALL GATHER(N, IWK, WK(N + 1), X)
      END

      SUBROUTINE GATHER(N, IP, V, X)
      INTEGER N, IP(N), I
      DOUBLE PRECISION V(N), X(N)
      DO 10 I = 1, N
         X(I) = V(IP(I))*DBLE(I)
   10 CONTINUE
      END
