/* The weighing kernel of exact_odds (see exact_odds/engine/kernel.py for what it computes).
 *
 * weigh(factors, entry_start, entry_target, entry_weight, vectors, out, mode[, out_low])
 *   A few shoes, one at a time.
 *   factors       int64 (M, F)   indices into a shoe's factor vector, per multiset
 *   entry_start   int64 (M + 1)  entries of multiset m are entry_start[m] .. entry_start[m + 1] - 1
 *   entry_target  int64 (E)      the target (row or event) of each entry
 *   entry_weight  int64 (E)      its weighted orderings
 *   vectors       int64 (S, P)   each shoe's factor vector
 *   out           (S, T)         mode 0: float64 sums, exact while every count < 2^53;
 *                                mode 1: int64 sums, exact while every count < 2^63;
 *                                mode 2: out is int64 high words, out_low uint64 low words of
 *                                        128-bit sums, exact while every count < 2^127.
 *
 * weigh_blocks(node_parent, node_factor, chunk_nodes, chunk_runs, run_target, run_end, entry_node,
 *              entry_weight, known, source, offset, pay_start, pay_target, pay_value, out, targets,
 *              mode, variant, layer_start, layer_factor, slot_layer, slot_target)
 *   Many shoes, BLOCK at a time, one shoe per SIMD lane: mode 0 (float64) or 1 (int64).
 *   The multisets are taken in chunks; within a chunk each distinct prefix of a multiset's factors
 *   is a node, the product of its parent node and one factor (node 0 is 1):
 *   node_parent    int32 (N)     each node's parent, numbered within its chunk
 *   node_factor    int32 (N)     its last factor, an index into the block's factor table
 *   chunk_nodes    int64 (C + 1) nodes of chunk c: chunk_nodes[c] .. chunk_nodes[c + 1] - 1 (slots 1, 2, ...)
 *   chunk_runs     int64 (C + 1) runs of chunk c: chunk_runs[c] .. chunk_runs[c + 1] - 1
 *   run_target     int32 (R)     the target of each run (a chunk's entries of one target)
 *   run_end        int64 (R)     entries of run r: run_end[r - 1] (0 for the first) .. run_end[r] - 1
 *   entry_node     int32 (E)     the node (slot in its chunk) of an entry's multiset
 *   entry_weight   (E)           its weighted orderings: float64 in mode 0, int64 in mode 1
 *   known          int64 (S, K)  per shoe, the counts its factors are read from
 *   source, offset int64 (P)     factor p of a shoe is known[source[p]] - offset[p]
 *   pay_start      int64 (B + 1) empty: out holds the counts (S, targets), float64 in mode 0;
 *                                else out (S, B) int64 holds, for each column b, the sum over
 *                                pay_start[b] .. pay_start[b + 1] - 1 of pay_value times the count
 *                                of pay_target (target number `targets`: the sum of all counts),
 *                                added modulo 2^64 (the caller ensures that the result fits)
 *   variant        int           -1: the best this CPU runs; else 0 generic, 1 avx2, 2 avx512
 *   layer_start    int64 (L + 1) the factors of layer l: layer_factor[layer_start[l] ..] (indices
 *   layer_factor   int32         into the block's factor table)
 *   slot_layer     int32 (X)     the runs add into X >= targets slots of sums, each of one layer;
 *   slot_target    int32 (X - targets)  after the chunks, each slot is multiplied by its layer's
 *                                factors, and slot targets + k is added into target slot_target[k]
 *                                (a factor many multisets share is applied once per slot, after
 *                                the sums, instead of once per multiset)
 *   Within a block, a chunk's nodes are computed (the parent held in registers while its children
 *   follow one another), then each run adds its entries into one target's
 *   sums held in registers (two sets, so that twice as many additions are in flight): the block's
 *   factor table, the chunk's nodes and the sums stay in the core's caches, and every operation
 *   runs on a block's lanes at once. The generic copy uses 16-byte vectors (SSE2 on x86-64), the
 *   others AVX2 and AVX-512 ones, chosen at run time.
 *
 * The caller chooses the mode from a bound on every product and sum (a multiset's factors multiply
 * to at most N^6, every partial sum is at most the shoe's weighted total, all terms being
 * non-negative; a layer's sum times its factors is a count too), so each mode is exact where it is used. The indices (factors below the factor
 * table's width, targets below the columns, nodes within their chunk, runs and chunks in order)
 * are made and checked by exact_odds.engine.kernel once per set of entries; this module is
 * private to it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define X86_VARIANTS 1
#define AVX512 __attribute__((target("avx512f,avx512dq")))
#define AVX2 __attribute__((target("avx2,fma")))
#endif

#define BLOCK 32 /* shoes per block: 4 AVX-512 registers, 8 AVX2 ones, 16 SSE2 ones */

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

typedef struct {
    const int32_t *node_parent, *node_factor;
    const int64_t *chunk_nodes, *chunk_runs;
    Py_ssize_t chunks, largest_chunk;
    const int32_t *run_target;
    const int64_t *run_end;
    const int32_t *entry_node;
    const void *entry_weight;
    const int64_t *known;
    Py_ssize_t known_width;
    const int64_t *source, *offset;
    Py_ssize_t factors, shoes, columns;
    const int64_t *pay_start, *pay_value;
    const int32_t *pay_target;
    Py_ssize_t paid;
    void *out;
    const int64_t *layer_start;
    const int32_t *layer_factor, *slot_layer, *slot_target;
    Py_ssize_t slots;
} Job;

static void *aligned(size_t bytes) { return aligned_alloc(64, (bytes + 63) / 64 * 64); }

/* The blocked loops for one vector type: TYPE lanes, LANES per vector, BLOCK / LANES vectors a block.
   A run's entries go alternately into two sets of sums, so that twice as many additions are in flight. */
#define BLOCKED(NAME, ATTRIBUTES, TYPE, VECTOR, WHOLE, LANES)                                                  \
    ATTRIBUTES static int NAME(const Job *job) {                                                               \
        enum { V = BLOCK / LANES };                                                                            \
        const Py_ssize_t columns = job->columns;                                                               \
        VECTOR *table = aligned(sizeof(VECTOR) * V * (job->factors + 1));                                      \
        VECTOR *nodes = aligned(sizeof(VECTOR) * V * (job->largest_chunk + 1));                                \
        VECTOR *sums = aligned(sizeof(VECTOR) * V * (job->slots + 1));                                            \
        WHOLE *whole = aligned(sizeof(WHOLE) * V * (columns + 1));                                             \
        for (int v = 0; v < V; v++) sums[job->slots * V + v] = (VECTOR){0};                                       \
        const TYPE *entry_weight = job->entry_weight;                                                          \
        if (!table || !nodes || !sums || !whole) { free(table); free(nodes); free(sums); free(whole); return 1; } \
        for (int v = 0; v < V; v++) nodes[v] = (VECTOR){0} + 1;                                                \
        for (Py_ssize_t first = 0; first < job->shoes; first += BLOCK) {                                       \
            Py_ssize_t count = job->shoes - first < BLOCK ? job->shoes - first : BLOCK;                        \
            TYPE *flat = (TYPE *)table;                                                                        \
            for (Py_ssize_t p = 0; p < job->factors; p++) {                                                    \
                const int64_t *known = job->known + first * job->known_width + job->source[p];                \
                for (Py_ssize_t s = 0; s < BLOCK; s++)                                                         \
                    flat[p * BLOCK + s] = s < count ? (TYPE)(known[s * job->known_width] - job->offset[p]) : 0; \
            }                                                                                                  \
            memset(sums, 0, sizeof(VECTOR) * V * job->slots);                                                     \
            for (Py_ssize_t c = 0; c < job->chunks; c++) {                                                     \
                VECTOR *node = nodes + V;                                                                      \
                int32_t held = 0;                                                                              \
                VECTOR parent[V];                                                                              \
                for (int v = 0; v < V; v++) parent[v] = nodes[v];                                              \
                for (int64_t j = job->chunk_nodes[c]; j < job->chunk_nodes[c + 1]; j++, node += V) {           \
                    if (job->node_parent[j] != held) {                                                         \
                        held = job->node_parent[j];                                                            \
                        for (int v = 0; v < V; v++) parent[v] = nodes[(Py_ssize_t)held * V + v];               \
                    }                                                                                          \
                    const VECTOR *column = table + (Py_ssize_t)job->node_factor[j] * V;                        \
                    for (int v = 0; v < V; v++) node[v] = parent[v] * column[v];                               \
                }                                                                                              \
                for (int64_t r = job->chunk_runs[c]; r < job->chunk_runs[c + 1]; r++) {                        \
                    VECTOR *sum = sums + (Py_ssize_t)job->run_target[r] * V, even[V], odd[V];                  \
                    for (int v = 0; v < V; v++) even[v] = sum[v], odd[v] = (VECTOR){0};                        \
                    int64_t e = r ? job->run_end[r - 1] : 0;                                                   \
                    for (; e + 1 < job->run_end[r]; e += 2) {                                                  \
                        const VECTOR *one = nodes + (Py_ssize_t)job->entry_node[e] * V;                        \
                        const VECTOR *two = nodes + (Py_ssize_t)job->entry_node[e + 1] * V;                    \
                        const TYPE first_times = entry_weight[e], second_times = entry_weight[e + 1];          \
                        for (int v = 0; v < V; v++) even[v] += one[v] * first_times, odd[v] += two[v] * second_times; \
                    }                                                                                          \
                    if (e < job->run_end[r]) {                                                                 \
                        const VECTOR *one = nodes + (Py_ssize_t)job->entry_node[e] * V;                        \
                        const TYPE times = entry_weight[e];                                                    \
                        for (int v = 0; v < V; v++) even[v] += one[v] * times;                                 \
                    }                                                                                          \
                    for (int v = 0; v < V; v++) sum[v] = even[v] + odd[v];                                     \
                }                                                                                              \
            }                                                                                                  \
            for (Py_ssize_t x = 0; x < job->slots; x++) {                                                      \
                VECTOR *slot = sums + x * V;                                                                   \
                const int32_t layer = job->slot_layer[x];                                                      \
                for (int64_t q = job->layer_start[layer]; q < job->layer_start[layer + 1]; q++) {              \
                    const VECTOR *column = table + (Py_ssize_t)job->layer_factor[q] * V;                       \
                    for (int v = 0; v < V; v++) slot[v] *= column[v];                                          \
                }                                                                                              \
                if (x >= columns) {                                                                            \
                    VECTOR *sum = sums + (Py_ssize_t)job->slot_target[x - columns] * V;                        \
                    for (int v = 0; v < V; v++) sum[v] += slot[v];                                             \
                }                                                                                              \
            }                                                                                                  \
            if (!job->pay_start) {                                                                             \
                const TYPE *flat_sums = (const TYPE *)sums;                                                    \
                TYPE *out = job->out;                                                                          \
                for (Py_ssize_t s = 0; s < count; s++)                                                         \
                    for (Py_ssize_t t = 0; t < columns; t++) out[(first + s) * columns + t] = flat_sums[t * BLOCK + s]; \
                continue;                                                                                      \
            }                                                                                                  \
            for (int v = 0; v < V; v++) whole[columns * V + v] = (WHOLE){0};                                   \
            for (Py_ssize_t t = 0; t < columns; t++)                                                           \
                for (int v = 0; v < V; v++) {                                                                  \
                    whole[t * V + v] = __builtin_convertvector(sums[t * V + v], WHOLE);                        \
                    whole[columns * V + v] += whole[t * V + v];                                                \
                }                                                                                              \
            int64_t *out = job->out;                                                                           \
            for (Py_ssize_t b = 0; b < job->paid; b++) {                                                       \
                WHOLE total[V];                                                                                \
                for (int v = 0; v < V; v++) total[v] = (WHOLE){0};                                             \
                for (int64_t k = job->pay_start[b]; k < job->pay_start[b + 1]; k++) {                          \
                    const uint64_t pay = (uint64_t)job->pay_value[k];                                          \
                    const WHOLE *count = whole + (Py_ssize_t)job->pay_target[k] * V;                           \
                    for (int v = 0; v < V; v++) total[v] += count[v] * pay;                                    \
                }                                                                                              \
                const uint64_t *flat_total = (const uint64_t *)total;                                          \
                for (Py_ssize_t s = 0; s < count; s++) out[(first + s) * job->paid + b] = (int64_t)flat_total[s]; \
            }                                                                                                  \
        }                                                                                                      \
        free(table);                                                                                           \
        free(nodes);                                                                                           \
        free(sums);                                                                                            \
        free(whole);                                                                                           \
        return 0;                                                                                              \
    }

typedef double double2 __attribute__((vector_size(16)));
typedef int64_t int2 __attribute__((vector_size(16)));
typedef uint64_t unsigned2 __attribute__((vector_size(16)));
BLOCKED(generic_double, , double, double2, unsigned2, 2)
BLOCKED(generic_int64, , int64_t, int2, unsigned2, 2)
#ifdef X86_VARIANTS
typedef double double4 __attribute__((vector_size(32)));
typedef int64_t int4 __attribute__((vector_size(32)));
typedef uint64_t unsigned4 __attribute__((vector_size(32)));
typedef double double8 __attribute__((vector_size(64)));
typedef int64_t int8 __attribute__((vector_size(64)));
typedef uint64_t unsigned8 __attribute__((vector_size(64)));
BLOCKED(avx2_double, AVX2, double, double4, unsigned4, 4)
BLOCKED(avx2_int64, AVX2, int64_t, int4, unsigned4, 4)
BLOCKED(avx512_double, AVX512, double, double8, unsigned8, 8)
BLOCKED(avx512_int64, AVX512, int64_t, int8, unsigned8, 8)
#endif

enum { GENERIC, WITH_AVX2, WITH_AVX512 };
static const char *VARIANTS[] = {"generic", "avx2", "avx512"};

/* The best copy of the blocked loops this CPU runs. */
static int best_variant(void) {
#ifdef X86_VARIANTS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) return WITH_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return WITH_AVX2;
#endif
    return GENERIC;
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
    if (starts.view.shape[0] != multisets + 1 || out.view.shape[0] != shoes || weights.view.shape[0] != targets.view.shape[0] ||
        (mode == 2 && (low.view.shape[0] != shoes || low.view.shape[1] != columns))) {
        PyErr_SetString(PyExc_ValueError, "kernel: the arrays do not agree in size");
        goto done;
    }
    const int64_t *factor = factors.view.buf, *start = starts.view.buf, *target = targets.view.buf, *weight = weights.view.buf;
    const int64_t *vector = vectors.view.buf;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    if (mode == 0) failed = single_double(factor, multisets, width, start, target, weight, vector, shoes, size, out.view.buf, columns);
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

static PyObject *weigh_blocks(PyObject *self, PyObject *args) {
    enum { COUNT = 19 };
    PyObject *objects[COUNT];
    int mode, variant;
    Py_ssize_t columns;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOniiOOOO", &objects[0], &objects[1], &objects[2], &objects[3], &objects[4], &objects[5], &objects[6],
                          &objects[7], &objects[8], &objects[9], &objects[10], &objects[11], &objects[12], &objects[13], &objects[14], &columns, &mode,
                          &variant, &objects[15], &objects[16], &objects[17], &objects[18]))
        return NULL;
    Array arrays[COUNT];
    memset(arrays, 0, sizeof arrays);
    static const Py_ssize_t sizes[COUNT] = {4, 4, 8, 8, 4, 8, 4, 8, 8, 8, 8, 8, 4, 8, 8, 8, 4, 4, 4};
    static const int dims[COUNT] = {1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1};
    enum { OUT = 14 };
    PyObject *result = NULL;
    for (int index = 0; index < COUNT; index++)
        if (get(objects[index], &arrays[index], index == OUT, sizes[index], dims[index])) goto done;
    if (mode != 0 && mode != 1) {
        PyErr_SetString(PyExc_ValueError, "kernel: blocks are weighed in mode 0 or 1");
        goto done;
    }
    int best = best_variant();
    if (variant < 0) variant = best;
    if (variant > best) {
        PyErr_Format(PyExc_ValueError, "kernel: this CPU does not run the %s loops", variant <= WITH_AVX512 ? VARIANTS[variant] : "requested");
        goto done;
    }
    Job job = {
        .node_parent = arrays[0].view.buf, .node_factor = arrays[1].view.buf,
        .chunk_nodes = arrays[2].view.buf, .chunk_runs = arrays[3].view.buf, .chunks = arrays[2].view.shape[0] - 1,
        .run_target = arrays[4].view.buf, .run_end = arrays[5].view.buf, .entry_node = arrays[6].view.buf,
        .entry_weight = arrays[7].view.buf, .known = arrays[8].view.buf, .known_width = arrays[8].view.shape[1],
        .source = arrays[9].view.buf, .offset = arrays[10].view.buf, .factors = arrays[9].view.shape[0],
        .shoes = arrays[8].view.shape[0], .columns = columns, .out = arrays[14].view.buf,
        .layer_start = arrays[15].view.buf, .layer_factor = arrays[16].view.buf, .slot_layer = arrays[17].view.buf,
        .slot_target = arrays[18].view.buf, .slots = arrays[17].view.shape[0],
    };
    Py_ssize_t paid = arrays[11].view.shape[0] - 1;
    if (paid >= 0) job.pay_start = arrays[11].view.buf, job.pay_target = arrays[12].view.buf, job.pay_value = arrays[13].view.buf, job.paid = paid;
    if (job.chunks < 0 || arrays[1].view.shape[0] != arrays[0].view.shape[0] || arrays[3].view.shape[0] != job.chunks + 1 ||
        arrays[5].view.shape[0] != arrays[4].view.shape[0] || arrays[7].view.shape[0] != arrays[6].view.shape[0] ||
        arrays[10].view.shape[0] != job.factors || arrays[14].view.shape[0] != job.shoes ||
        arrays[12].view.shape[0] != arrays[13].view.shape[0] || arrays[14].view.shape[1] != (paid >= 0 ? paid : columns) || arrays[15].view.shape[0] < 1 ||
        arrays[16].view.shape[0] != job.layer_start[arrays[15].view.shape[0] - 1] || job.slots < columns || arrays[18].view.shape[0] != job.slots - columns) {
        PyErr_SetString(PyExc_ValueError, "kernel: the arrays do not agree in size");
        goto done;
    }
    for (Py_ssize_t c = 0; c < job.chunks; c++)
        if (job.chunk_nodes[c + 1] - job.chunk_nodes[c] > job.largest_chunk) job.largest_chunk = job.chunk_nodes[c + 1] - job.chunk_nodes[c];
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
#ifdef X86_VARIANTS
    if (variant == WITH_AVX512) failed = mode == 0 ? avx512_double(&job) : avx512_int64(&job);
    else if (variant == WITH_AVX2) failed = mode == 0 ? avx2_double(&job) : avx2_int64(&job);
    else
#endif
        failed = mode == 0 ? generic_double(&job) : generic_int64(&job);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (int index = 0; index < COUNT; index++) release(&arrays[index]);
    return result;
}

/* target[i + steps] = (target[i + steps] + source[i]) mod prime for every index i whose shifted index
   lies within the shape: residues below prime < 2^31 (uint32), both arrays of one C-contiguous shape of
   at most 16 axes. A layer of the shoe studies plus some cards (exact_odds/studies/shoe_layers.py);
   the axes after the last one shifted make one contiguous run of every row. */
#define MOST_AXES 16
static PyObject *shifted_add(PyObject *self, PyObject *args) {
    PyObject *target_object, *source_object, *steps_object;
    unsigned long long prime;
    if (!PyArg_ParseTuple(args, "OOOK", &target_object, &source_object, &steps_object, &prime)) return NULL;
    Py_ssize_t axes = PySequence_Size(steps_object);
    if (axes < 1 || axes > MOST_AXES || prime < 2 || prime >= (1ULL << 31)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kernel: shifted_add takes 1 to 16 axes and a prime below 2^31");
        return NULL;
    }
    Py_ssize_t steps[MOST_AXES];
    for (Py_ssize_t axis = 0; axis < axes; axis++) {
        PyObject *item = PySequence_GetItem(steps_object, axis);
        if (!item) return NULL;
        steps[axis] = PyLong_AsSsize_t(item);
        Py_DECREF(item);
        if (steps[axis] < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kernel: shifted_add steps are from 0");
            return NULL;
        }
    }
    Array target = {0}, source = {0};
    PyObject *result = NULL;
    if (get(target_object, &target, 1, 4, (int)axes) || get(source_object, &source, 0, 4, (int)axes)) goto done;
    Py_ssize_t counts[MOST_AXES], strides[MOST_AXES], last = -1, run = 1;
    for (Py_ssize_t axis = axes - 1; axis >= 0; axis--) {
        if (target.view.shape[axis] != source.view.shape[axis]) {
            PyErr_SetString(PyExc_ValueError, "kernel: shifted_add arrays differ in shape");
            goto done;
        }
        strides[axis] = axis == axes - 1 ? 1 : strides[axis + 1] * target.view.shape[axis + 1];
        counts[axis] = target.view.shape[axis] - steps[axis];
        if (counts[axis] <= 0) goto nothing;
        if (steps[axis] && last < 0) last = axis;
    }
    /* a row: the run of the last axis shifted and every axis after it */
    Py_ssize_t outer_axes = last < 0 ? 0 : last;
    run = last < 0 ? strides[0] * target.view.shape[0] : counts[last] * strides[last];
    Py_ssize_t shift = 0;
    for (Py_ssize_t axis = 0; axis < axes; axis++) shift += steps[axis] * strides[axis];
    uint32_t *into = target.view.buf;
    const uint32_t *from = source.view.buf;
    const uint32_t modulus = (uint32_t)prime;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t index[MOST_AXES] = {0}, at = 0;
    for (;;) {
        uint32_t *row = into + at + shift;
        const uint32_t *read = from + at;
        for (Py_ssize_t cell = 0; cell < run; cell++) {
            uint32_t sum = row[cell] + read[cell];
            row[cell] = sum >= modulus ? sum - modulus : sum;
        }
        Py_ssize_t axis = outer_axes - 1;  /* the next row: an odometer over the axes before the last one shifted */
        for (; axis >= 0; axis--) {
            at += strides[axis];
            if (++index[axis] < counts[axis]) break;
            at -= counts[axis] * strides[axis];
            index[axis] = 0;
        }
        if (axis < 0) break;
    }
    Py_END_ALLOW_THREADS
nothing:
    result = Py_None;
    Py_INCREF(result);
done:
    release(&target); release(&source);
    return result;
}

/* The copies of the blocked loops this CPU runs, best first ("avx512", "avx2", "generic"). */
static PyObject *variants(PyObject *self, PyObject *unused) {
    int best = best_variant();
    PyObject *names = PyTuple_New(best + 1);
    if (!names) return NULL;
    for (int variant = best; variant >= 0; variant--) {
        PyObject *name = PyUnicode_FromString(VARIANTS[variant]);
        if (!name) { Py_DECREF(names); return NULL; }
        PyTuple_SET_ITEM(names, best - variant, name);
    }
    return names;
}

/* The copy of the blocked loops this CPU runs unless told otherwise. */
static PyObject *instruction_set(PyObject *self, PyObject *unused) { return PyUnicode_FromString(VARIANTS[best_variant()]); }

static PyMethodDef methods[] = {
    {"weigh", weigh, METH_VARARGS, "weigh(factors, entry_start, entry_target, entry_weight, vectors, out, mode[, out_low])"},
    {"weigh_blocks", weigh_blocks, METH_VARARGS,
     "weigh_blocks(node_parent, node_factor, chunk_nodes, chunk_runs, run_target, run_end, entry_node, entry_weight, known, source, offset, "
     "pay_start, pay_target, pay_value, out, targets, mode, variant, layer_start, layer_factor, slot_layer, slot_target)"},
    {"shifted_add", shifted_add, METH_VARARGS, "shifted_add(target, source, steps, prime): target[i + steps] = (target[i + steps] + source[i]) mod prime (uint32)"},
    {"instruction_set", instruction_set, METH_NOARGS, "instruction_set(): the copy of the blocked loops this CPU runs (avx512, avx2 or generic)"},
    {"variants", variants, METH_NOARGS, "variants(): the copies of the blocked loops this CPU runs, best first"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The compiled weighing kernel of exact_odds.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
