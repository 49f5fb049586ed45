/* The weighing kernel of exact_odds (see exact_odds/engine/kernel.py for what it computes).
 *
 * weigh(factors, entry_start, entry_target, entry_weight, vectors, out, mode)
 *   factors       int64 (M, F)   indices into a shoe's factor vector, per multiset
 *   entry_start   int64 (M + 1)  entries of multiset m are entry_start[m] .. entry_start[m + 1] - 1
 *   entry_target  int64 (E)      the target (row or event) of each entry
 *   entry_weight  int64 (E)      its weighted orderings
 *   vectors       int64 (S, P)   each shoe's factor vector
 *   out           (S, T)         mode 0: float64 sums, exact while every count < 2^53;
 *                                mode 1: int64 sums, exact while every count < 2^63;
 *                                mode 2: out is int64 high words, out_low uint64 low words of
 *                                        128-bit sums, exact while every count < 2^127.
 * The caller chooses the mode from a bound on every product and sum (a multiset's factors multiply
 * to at most N^6, every partial sum is at most the shoe's weighted total, all terms being
 * non-negative), so each mode is exact where it is used.
 *
 * Shoes are taken in blocks: within a block the loops run across shoes, which compilers
 * vectorise; a multiset's weight is computed once per block and added into each of its targets.
 * Multisets come sorted by their factor indices, so each weight reuses the product of the factors
 * it shares with the previous one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SMALL 16

/* Where the compiler can, one copy of the blocked loops for AVX2 machines, chosen at run time. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VECTORISED __attribute__((target_clones("avx2", "default")))
#else
#define VECTORISED
#endif

typedef struct {
    Py_buffer view;
    int held;
} Array;

static int get(PyObject *object, Array *array, int writable, Py_ssize_t itemsize, int dims) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, &array->view, flags) < 0) return -1;
    array->held = 1;
    if (array->view.itemsize != itemsize || array->view.ndim != dims) {
        PyErr_SetString(PyExc_TypeError, "kernel: an array has the wrong item size or shape");
        return -1;
    }
    return 0;
}

static void release(Array *array) {
    if (array->held) PyBuffer_Release(&array->view);
    array->held = 0;
}

/* Many shoes: blocks of BLOCK shoes, loops across the shoes of a block (vectorised). */
#define BLOCKED(NAME, TYPE, BLOCK)                                                                                 \
    VECTORISED static int NAME(const int64_t *factor, Py_ssize_t multisets, Py_ssize_t width, const int64_t *start,       \
                    const int64_t *target, const int64_t *weight, const int64_t *vector, Py_ssize_t shoes,     \
                    Py_ssize_t size, TYPE *result, Py_ssize_t columns) {                                        \
        TYPE *table = calloc((size_t)size * BLOCK, sizeof(TYPE)), *sums = calloc((size_t)columns * BLOCK, sizeof(TYPE)); \
        TYPE *prefix = malloc(sizeof(TYPE) * (width + 1) * BLOCK);                                            \
        if (!table || !sums || !prefix) { free(table); free(sums); free(prefix); return 1; }                   \
        for (Py_ssize_t s = 0; s < BLOCK; s++) prefix[s] = 1;                                                 \
        for (Py_ssize_t first = 0; first < shoes; first += BLOCK) {                                           \
            Py_ssize_t count = shoes - first < BLOCK ? shoes - first : BLOCK;                                 \
            if (count < BLOCK) memset(table, 0, sizeof(TYPE) * size * BLOCK);                                 \
            for (Py_ssize_t s = 0; s < count; s++)                                                            \
                for (Py_ssize_t p = 0; p < size; p++) table[p * BLOCK + s] = (TYPE)vector[(first + s) * size + p]; \
            memset(sums, 0, sizeof(TYPE) * columns * BLOCK);                                                  \
            const int64_t *previous = NULL;                                                                   \
            for (Py_ssize_t m = 0; m < multisets; m++) {                                                      \
                if (start[m] == start[m + 1]) continue;                                                       \
                const int64_t *f = factor + m * width;                                                        \
                Py_ssize_t shared = 0; /* multisets come sorted by their factors: reuse the common prefix */  \
                if (previous)                                                                                 \
                    while (shared < width && f[shared] == previous[shared]) shared++;                         \
                for (Py_ssize_t k = shared; k < width; k++) {                                                 \
                    const TYPE *column = table + f[k] * BLOCK, *below = prefix + k * BLOCK;                   \
                    TYPE *above = prefix + (k + 1) * BLOCK;                                                   \
                    for (Py_ssize_t s = 0; s < BLOCK; s++) above[s] = below[s] * column[s];                   \
                }                                                                                             \
                previous = f;                                                                                 \
                const TYPE *w = prefix + width * BLOCK;                                                       \
                for (int64_t e = start[m]; e < start[m + 1]; e++) {                                           \
                    TYPE c = (TYPE)weight[e], *sum = sums + target[e] * BLOCK;                                \
                    for (Py_ssize_t s = 0; s < BLOCK; s++) sum[s] += c * w[s];                                \
                }                                                                                             \
            }                                                                                                 \
            for (Py_ssize_t s = 0; s < count; s++)                                                            \
                for (Py_ssize_t t = 0; t < columns; t++) result[(first + s) * columns + t] = sums[t * BLOCK + s]; \
        }                                                                                                     \
        free(table);                                                                                          \
        free(sums);                                                                                           \
        free(prefix);                                                                                         \
        return 0;                                                                                             \
    }

/* A few shoes: one at a time, each multiset's weight once, then its entries. */
#define SINGLE(NAME, TYPE)                                                                                    \
    static int NAME(const int64_t *factor, Py_ssize_t multisets, Py_ssize_t width, const int64_t *start,       \
                    const int64_t *target, const int64_t *weight, const int64_t *vector, Py_ssize_t shoes,     \
                    Py_ssize_t size, TYPE *result, Py_ssize_t columns) {                                        \
        for (Py_ssize_t s = 0; s < shoes; s++) {                                                              \
            const int64_t *v = vector + s * size;                                                             \
            TYPE *sums = result + s * columns;                                                                \
            for (Py_ssize_t m = 0; m < multisets; m++) {                                                      \
                if (start[m] == start[m + 1]) continue;                                                       \
                const int64_t *f = factor + m * width;                                                        \
                TYPE w = (TYPE)v[f[0]];                                                                       \
                for (Py_ssize_t k = 1; k < width; k++) w *= (TYPE)v[f[k]];                                    \
                if (w == 0) continue;                                                                         \
                for (int64_t e = start[m]; e < start[m + 1]; e++) sums[target[e]] += (TYPE)weight[e] * w;    \
            }                                                                                                 \
        }                                                                                                     \
        return 0;                                                                                             \
    }

/* Blocks of 64 shoes; of 32 in float64 when there are many targets, so that a block's sums (targets x
   shoes x 8 bytes) stay within 128 KiB, in the core's cache. */
BLOCKED(blocked_double, double, 64)
BLOCKED(blocked_double_narrow, double, 32)
BLOCKED(blocked_int64, int64_t, 64)
#define NARROW_ABOVE 256
SINGLE(single_double, double)
SINGLE(single_int64, int64_t)

static int single_int128(const int64_t *factor, Py_ssize_t multisets, Py_ssize_t width, const int64_t *start, const int64_t *target,
                         const int64_t *weight, const int64_t *vector, Py_ssize_t shoes, Py_ssize_t size, int64_t *high,
                         uint64_t *low, Py_ssize_t columns) {
    __int128 *sums = calloc((size_t)columns, sizeof(__int128));
    if (!sums) return 1;
    for (Py_ssize_t s = 0; s < shoes; s++) {
        const int64_t *v = vector + s * size;
        memset(sums, 0, sizeof(__int128) * columns);
        for (Py_ssize_t m = 0; m < multisets; m++) {
            if (start[m] == start[m + 1]) continue;
            const int64_t *f = factor + m * width;
            __int128 w = v[f[0]];
            for (Py_ssize_t k = 1; k < width; k++) w *= v[f[k]];
            if (w == 0) continue;
            for (int64_t e = start[m]; e < start[m + 1]; e++) sums[target[e]] += (__int128)weight[e] * w;
        }
        for (Py_ssize_t t = 0; t < columns; t++) {
            unsigned __int128 bits = (unsigned __int128)sums[t];
            high[s * columns + t] = (int64_t)(bits >> 64);
            low[s * columns + t] = (uint64_t)bits;
        }
    }
    free(sums);
    return 0;
}

static PyObject *weigh(PyObject *self, PyObject *args) {
    PyObject *objects[7];
    PyObject *low_object = NULL;
    int mode;
    if (!PyArg_ParseTuple(args, "OOOOOOi|O", &objects[0], &objects[1], &objects[2], &objects[3], &objects[4], &objects[5], &mode, &low_object))
        return NULL;
    Array factors = {0}, starts = {0}, targets = {0}, weights = {0}, vectors = {0}, out = {0}, low = {0};
    PyObject *result = NULL;
    if (get(objects[0], &factors, 0, 8, 2) || get(objects[1], &starts, 0, 8, 1) || get(objects[2], &targets, 0, 8, 1) ||
        get(objects[3], &weights, 0, 8, 1) || get(objects[4], &vectors, 0, 8, 2) || get(objects[5], &out, 1, 8, 2))
        goto done;
    if (mode == 2 && (low_object == NULL || get(low_object, &low, 1, 8, 2))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "kernel: mode 2 needs the low words");
        goto done;
    }
    Py_ssize_t multisets = factors.view.shape[0], width = factors.view.shape[1];
    Py_ssize_t shoes = vectors.view.shape[0], size = vectors.view.shape[1], columns = out.view.shape[1];
    if (starts.view.shape[0] != multisets + 1 || out.view.shape[0] != shoes || weights.view.shape[0] != targets.view.shape[0]) {
        PyErr_SetString(PyExc_ValueError, "kernel: the arrays do not agree in size");
        goto done;
    }
    const int64_t *factor = factors.view.buf, *start = starts.view.buf, *target = targets.view.buf, *weight = weights.view.buf;
    const int64_t *vector = vectors.view.buf;
    /* The indices themselves (factors below the vector's width, targets below the columns, starts in
       order) are checked by exact_odds.engine.kernel once per set of entries: a pass over them here would
       cost as much as the weighing of one shoe. This module is private to it. */

    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    if (mode == 0 && shoes >= SMALL && columns > NARROW_ABOVE)
        failed = blocked_double_narrow(factor, multisets, width, start, target, weight, vector, shoes, size, out.view.buf, columns);
    else if (mode == 0 && shoes >= SMALL) failed = blocked_double(factor, multisets, width, start, target, weight, vector, shoes, size, out.view.buf, columns);
    else if (mode == 0) failed = single_double(factor, multisets, width, start, target, weight, vector, shoes, size, out.view.buf, columns);
    else if (mode == 1 && shoes >= SMALL) failed = blocked_int64(factor, multisets, width, start, target, weight, vector, shoes, size, out.view.buf, columns);
    else if (mode == 1) failed = single_int64(factor, multisets, width, start, target, weight, vector, shoes, size, out.view.buf, columns);
    else failed = single_int128(factor, multisets, width, start, target, weight, vector, shoes, size, out.view.buf, low.view.buf, columns);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    release(&factors); release(&starts); release(&targets); release(&weights); release(&vectors); release(&out); release(&low);
    return result;
}

/* The copy of the blocked loops this machine runs: "avx2" where the build carries one and the CPU has
   AVX2, else "generic". */
static PyObject *instruction_set(PyObject *self, PyObject *unused) {
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return PyUnicode_FromString("avx2");
#endif
    return PyUnicode_FromString("generic");
}

static PyMethodDef methods[] = {
    {"weigh", weigh, METH_VARARGS, "weigh(factors, entry_start, entry_target, entry_weight, vectors, out, mode[, out_low])"},
    {"instruction_set", instruction_set, METH_NOARGS, "instruction_set(): the copy of the loops this CPU runs (avx2 or generic)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The compiled weighing kernel of exact_odds.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
