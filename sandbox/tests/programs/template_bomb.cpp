#include <utility>
template <int N, class T> struct X {
    static const long v = X<N - 1, std::pair<T, int>>::v + X<N - 1, std::pair<T, char>>::v;
};
template <class T> struct X<0, T> { static const long v = 1; };
int main() { return (int)X<26, int>::v; }
