/* With -DADGEN_TAPE_CHECK, a pop that does not match its push aborts with both named. */
#include <stdio.h>

#include "adgen_runtime.h"

int main(void) {
    double x = 1.0;
    int k;
    int32_t i;
    adgen_push_real8(&x);
    adgen_push_control(2);
    adgen_pop_control(&k);
    printf("control %d\n", k);
    fflush(stdout);
    adgen_pop_integer4(&i);
    printf("not reached\n");
    return 0;
}
