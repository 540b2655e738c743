char huge[3000000000L] = {1};
int main(void) { return huge[12345]; }
