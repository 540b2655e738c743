#include <pthread.h>
static void *spin(void *arg) { (void)arg; for (;;) {} return 0; }
int main(void) { pthread_t t; for (;;) pthread_create(&t, 0, spin, 0); }
