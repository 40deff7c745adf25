/* Pops from an empty tape: the runtime must abort with a message. */
#include <stdio.h>

#include "adgen_runtime.h"

int main(void) {
    double x = 1.0;
    adgen_push_real8(&x);
    adgen_pop_real8(&x);
    adgen_pop_real8(&x);
    printf("not reached\n");
    return 0;
}
