// Divisors of any positive int64. A sqrt loop would take seconds for a d_out near 2^63 typed into
// the GUI, so factor with Miller-Rabin and Pollard's rho and build the divisors from the primes.
#include "call/config.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace attnlab {

namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

u64 mul_mod(u64 a, u64 b, u64 m)
{
    return static_cast<u64>(static_cast<u128>(a) * b % m);
}

u64 pow_mod(u64 base, u64 exp, u64 m)
{
    u64 result = 1 % m;
    base %= m;
    for (; exp > 0; exp >>= 1) {
        if (exp & 1)
            result = mul_mod(result, base, m);
        base = mul_mod(base, base, m);
    }
    return result;
}

// Deterministic for every 64-bit n with these bases.
bool is_prime(u64 n)
{
    if (n < 2)
        return false;
    for (u64 p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
        if (n % p == 0)
            return n == p;
    }
    u64 d = n - 1;
    int r = 0;
    for (; d % 2 == 0; d /= 2)
        ++r;
    for (u64 a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
        u64 x = pow_mod(a, d, n);
        if (x == 1 || x == n - 1)
            continue;
        bool composite = true;
        for (int i = 1; i < r && composite; ++i) {
            x = mul_mod(x, x, n);
            composite = x != n - 1;
        }
        if (composite)
            return false;
    }
    return true;
}

u64 gcd(u64 a, u64 b)
{
    while (b != 0) {
        const u64 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

// A non-trivial factor of an odd composite n.
u64 rho_factor(u64 n)
{
    for (u64 c = 1;; ++c) {
        u64 x = 2, y = 2, d = 1;
        auto step = [&](u64 v) { return (mul_mod(v, v, n) + c) % n; };
        while (d == 1) {
            x = step(x);
            y = step(step(y));
            d = gcd(x > y ? x - y : y - x, n);
        }
        if (d != n)
            return d;
    }
}

void factor(u64 n, std::map<u64, int>& primes)
{
    if (n == 1)
        return;
    if (is_prime(n)) {
        ++primes[n];
        return;
    }
    const u64 d = rho_factor(n);
    factor(d, primes);
    factor(n / d, primes);
}

} // namespace

std::vector<std::int64_t> divisors(std::int64_t n)
{
    if (n <= 0)
        return {};
    std::map<u64, int> primes;
    u64 rest = static_cast<u64>(n);
    // Small primes by trial division keep rho for the rare large factors.
    for (u64 p = 2; p < 1000 && p * p <= rest; ++p)
        for (; rest % p == 0; rest /= p)
            ++primes[p];
    factor(rest, primes);

    std::vector<std::int64_t> out = {1};
    for (const auto& [p, count] : primes) {
        const std::size_t size = out.size();
        u64 power = 1;
        for (int k = 0; k < count; ++k) {
            power *= p;
            for (std::size_t i = 0; i < size; ++i)
                out.push_back(out[i] * static_cast<std::int64_t>(power));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace attnlab
