C     A damping law chosen by a mode string, as old FORTRAN 77 codes do. Features:
C     character constants continued across fixed-form lines, which hold the
C     first line padded with blanks to column 72 (gfortran's -fpad-source): the
C     tests below look at columns past the first line's text, so a derivative
C     that joined the lines without the padding would take the other branch.
      subroutine damp(n, x, y)
      integer n, i
      double precision x(n), y(n)
      character*200 mode
      character*80 tag
      mode = 'quadratic
     &cubic
     &fourth'
      tag = 'a
     &b'
      do 10 i = 1, n
        if (mode(59:63) .eq. 'cubic') then
          y(i) = x(i)**3
        else
          y(i) = x(i)**2
        end if
        if (tag(60:60) .eq. 'b') then
          y(i) = y(i) + sin(x(i))
        end if
        if (mode(125:130) .eq. 'fourth') y(i) = y(i) + x(i)**4
   10 continue
      end
