/* Chomp test player that computes forever without answering. */
int main(void) {
    volatile unsigned long n = 0;
    for (;;) n++;
}
