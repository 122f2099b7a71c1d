/* student_t_interval.c - the Student-t interval of repeated measurements. */
#include "student_t_interval.h"

#include <float.h>
#include <math.h>

/* Continued fraction of I_x(a, b) (modified Lentz). */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 - qab * x / qap;
    if (fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 4 * DBL_EPSILON) break;
    }
    return h;
}

double sm_incbeta(double a, double b, double x)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    double bt = exp(lbt);
    /* The fraction converges fast for x below (a+1)/(a+b+2); use the
     * symmetry I_x(a,b) = 1 - I_{1-x}(b,a) above it. */
    if (x < (a + 1) / (a + b + 2)) return bt * betacf(a, b, x) / a;
    return 1 - bt * betacf(b, a, 1 - x) / b;
}

double sm_student_cdf(double t, double nu)
{
    double x = nu / (nu + t * t);
    double tail = 0.5 * sm_incbeta(nu / 2, 0.5, x); /* P(T > |t|) */
    return t >= 0 ? 1 - tail : tail;
}

double sm_student_quantile(double p, double nu)
{
    if (!(p > 0 && p < 1) || !(nu > 0)) return NAN;
    if (p == 0.5) return 0;
    if (p < 0.5) return -sm_student_quantile(1 - p, nu);
    /* Bracket, then bisect: the CDF is monotone and smooth. */
    double lo = 0, hi = 1;
    while (sm_student_cdf(hi, nu) < p && hi < 1e300) hi *= 2;
    for (int i = 0; i < 400 && hi - lo > 1e-13 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (sm_student_cdf(mid, nu) < p) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

void sm_interval_of(const double *x, int n, double cl, sm_interval *out)
{
    out->n = n;
    double sum = 0;
    for (int i = 0; i < n; i++) sum += x[i];
    out->mean = n ? sum / n : 0;
    double ss = 0;
    for (int i = 0; i < n; i++) ss += (x[i] - out->mean) * (x[i] - out->mean);
    out->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
    out->half = n > 1 ? sm_student_quantile((1 + cl) / 2, n - 1) * out->sd / sqrt(n) : INFINITY;
    out->low = out->mean - out->half;
    out->high = out->mean + out->half;
}

int sm_interval_tight(const sm_interval *iv, double eps)
{
    return iv->n > 1 && iv->half <= eps * fabs(iv->mean);
}
