/* student_t_interval.h - repetitions of a measurement and their Student-t confidence
 * interval (SPEC 8: a point is repeated until the interval's half-width
 * is within eps of the mean, as the profile-partitioning thesis does). */
#ifndef SM_STUDENT_T_INTERVAL_H
#define SM_STUDENT_T_INTERVAL_H

/* The regularised incomplete beta function I_x(a, b), a, b > 0, x in
 * [0, 1] (Lentz's continued fraction, as in Numerical Recipes 6.4). */
double sm_incbeta(double a, double b, double x);
/* P(T <= t) for Student's t with nu > 0 degrees of freedom. */
double sm_student_cdf(double t, double nu);
/* The t with P(T <= t) = p, 0 < p < 1 (bisection on the CDF, to 1e-12
 * relative); nu > 0 need not be whole. */
double sm_student_quantile(double p, double nu);

typedef struct sm_interval {
    int n;              /* repetitions */
    double mean, sd;    /* sample standard deviation (n - 1) */
    double half;        /* half-width of the interval at cl; inf for n < 2 */
    double low, high;   /* mean -+ half */
} sm_interval;

/* The interval of x[0..n-1] at confidence level cl (0 < cl < 1): mean
 * -+ t_{(1+cl)/2, n-1} s / sqrt(n). */
void sm_interval_of(const double *x, int n, double cl, sm_interval *out);
/* 1 when the half-width is within eps of the mean (half <= eps |mean|). */
int sm_interval_tight(const sm_interval *iv, double eps);

#endif
