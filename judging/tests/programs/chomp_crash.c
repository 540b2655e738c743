/* Chomp test player that dies of a segmentation fault on its first move. */
int main(void) {
    volatile int *p = 0;
    return *p;
}
