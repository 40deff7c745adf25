C     A reverse-communication descent driver in the style of the classic
C     FORTRAN 77 optimizers: the caller evaluates F and G whenever TASK
C     starts with 'FG', and the driver moves X when it starts with 'NEW_X'.
C     TASK is a CHARACTER*60 tested through substrings, and rewritten
C     after each call, so the adjoint must restore it.
      SUBROUTINE DSTEP(N, X, G, F, STP, TASK, NAMES)
      INTEGER N
      DOUBLE PRECISION X(N), G(N), F, STP
      CHARACTER*60 TASK
      CHARACTER*8 NAMES(3)
      INTEGER I, K
      IF (TASK(1:5) .EQ. 'START') THEN
         TASK = 'FG_START'
         RETURN
      END IF
      IF (TASK(1:2) .EQ. 'FG') THEN
C        Take the step; a line search would shrink STP on 'FG_LNSRCH'.
         K = INDEX(TASK, '_LN')
         IF (K .GT. 0 .AND. F .GT. 0.0D0) STP = 0.5D0*STP
         DO 10 I = 1, N
            X(I) = X(I) - STP*G(I)
   10    CONTINUE
         TASK = 'NEW_X' // TASK(3:LEN_TRIM(TASK))
         NAMES(2)(1:3) = 'new'
      ELSE IF (TASK(1:5) .EQ. 'NEW_X') THEN
         IF (NAMES(2)(1:3) .EQ. 'new') THEN
            TASK = 'FG_LNSRCH'
         ELSE
            TASK = 'FG'
         END IF
      END IF
      RETURN
      END

      SUBROUTINE QUADF(N, X, A, F, G)
      INTEGER N
      DOUBLE PRECISION X(N), A(N), F, G(N)
      INTEGER I
      F = 0.0D0
      DO 20 I = 1, N
         F = F + A(I)*X(I)**2 + SIN(X(I))
         G(I) = 2.0D0*A(I)*X(I) + COS(X(I))
   20 CONTINUE
      RETURN
      END

      SUBROUTINE OPTIM(N, A, X, FOUT)
      INTEGER N
      DOUBLE PRECISION A(N), X(N), FOUT
      DOUBLE PRECISION F, G(100), STP
      CHARACTER*60 TASK
      CHARACTER*8 NAMES(3)
      INTEGER IT
      NAMES(1) = 'x'
      NAMES(2) = 'old'
      NAMES(3) = 'f'
      TASK = 'START'
      STP = 0.1D0
      F = 0.0D0
      DO 30 IT = 1, 12
         CALL DSTEP(N, X, G, F, STP, TASK, NAMES)
         IF (TASK(1:2) .EQ. 'FG') CALL QUADF(N, X, A, F, G)
         IF (LEN_TRIM(TASK) .GT. 40) GO TO 40
   30 CONTINUE
   40 FOUT = F
      RETURN
      END
