/* Negative log-likelihood of a logistic model, returned by value: a function root,
   data as a flattened row-major matrix, a static helper returning double. */
#include <math.h>

static double sigmoid(double z)
{
    return z >= 0.0 ? 1.0 / (1.0 + exp(-z)) : exp(z) / (1.0 + exp(z));
}

double nll(int n, int m, const double *x, const int *label, const double *w, double bias,
           double lambda)
{
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        double z = bias;
        for (int j = 0; j < m; j++)
            z += w[j] * x[i * m + j];
        const double p = sigmoid(z);
        if (label[i] == 1)
            total -= log(p);
        else
            total -= log(1.0 - p);
    }
    /* ridge penalty */
    double pen = 0.0;
    for (int j = 0; j < m; j++)
        pen += w[j] * w[j];
    /* (double)n: adgen writes the partial of total / n as 1/n, an integer division */
    return total / (double)n + 0.5 * lambda * pen;
}
