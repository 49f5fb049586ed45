/* The compiled walker of exact_odds (see exact_odds/engine/walk.py for what it computes).
 *
 * walk(counts, start, leaves, cards, degree, bets, coefficients, maps, map_starts, binomials, weights,
 *      words, multipliers, grids, grid_starts, bucket_weights, bucket_counts, brackets, bracket_starts,
 *      sums, extremes, summing, bounded) -> bytes
 *   counts          int64 (K)        the shoe's count of each class, in walk order (F = K - 1 free classes)
 *   start           int64 (F)        the free counts of the first composition to weigh
 *   leaves          the compositions to weigh, from it on in lexicographic order of the free counts
 *   cards           n; a composition's last count is n less the free ones
 *   degree          D; each bet's numerator is a polynomial of degree <= D in the free counts
 *   coefficients    int64 (R, bets)  in the binomial basis, terms in graded order (polynomial.py)
 *   maps, map_starts  int32, int64   fixing the free class j at x: child[i] = sum_d C(x, d) parent[map[i]]
 *                                    over the map of (j, d): map_starts[j (D + 1) + d] ..
 *   binomials       int64 (X + 1, D + 1)  C(x, d)
 *   weights         uint64 (K, X + 1, words)  C(counts[k], x), little-endian words
 *   multipliers     int64 (bets)     numerator times multiplier: the expectation over a common denominator
 *   grids, grid_starts  int64        bet b's sorted thresholds: grids[grid_starts[b] .. grid_starts[b + 1]]
 *   bucket_weights  uint64 (T + bets, words + 1)  += the weight of bucket i of bet b (row grid_starts[b] + b + i:
 *   bucket_counts   int64 (T + bets)              t[i - 1] < a <= t[i]), and its compositions
 *   brackets, bracket_starts  int64 (Q, 2), int64  bet b's brackets (lo, hi]: compositions to return
 *   sums            uint64 (2 + 4 bets, words + 2)  += total weight, weight where the best bet is positive,
 *                                    per bet the weight where a > 0, sum of w a there, sum of w a, sum of w a
 *                                    where the bet is the best and positive (two's complement)
 *   extremes        int64 (bets, 2)  the least and largest numerator of each bet
 *   summing         false: only the buckets and brackets (sums and extremes are left as they are)
 *   bounded         true: a numerator at or below a grid's first threshold, or above its last, has no bucket
 *   returns the collected compositions: per composition and bet in a bracket, (bet, a, weight words)
 *
 * The walk fixes the free classes one at a time, each node holding the coefficients of the
 * polynomial in the classes not yet fixed and the product of the binomials C(c_j, x_j) so far (in
 * `words` words). The last free class is walked along a line: there each composition's weight is
 * the node's weight times u = C(c_{F-1}, x) C(c_K, n - ... - x), a 64-bit integer, and each line's
 * sums are kept in 128-bit integers. A level up, per plane (the last two free counts walked), each
 * line's sums times its binomial C(c_{F-2}, x_{F-2}) are added in 256-bit integers (the buckets'
 * weights, u times that binomial, in 128-bit ones), and multiplied by the plane's many-word weight
 * once, when the plane ends.
 * The caller checks the bounds that make every step exact: every coefficient and numerator below
 * 2^62 in size, u below 2^64, a line's sums and a plane's bucket weights below 2^127, the weights
 * within `words` words.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 16
#define MAX_BETS 64
#define MAX_FREE 16

typedef unsigned __int128 u128;
typedef __int128 s128;

typedef struct {
    Py_buffer view;
    int held;
} Array;

static int get(PyObject *object, Array *array, int writable, Py_ssize_t itemsize) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, &array->view, flags) < 0) return -1;
    array->held = 1;
    if (array->view.itemsize != itemsize) {
        PyErr_SetString(PyExc_TypeError, "walk: an array has the wrong item size");
        return -1;
    }
    return 0;
}

static void release(Array *array) {
    if (array->held) PyBuffer_Release(&array->view);
    array->held = 0;
}

static Py_ssize_t length(const Array *array) { return array->view.len / array->view.itemsize; }

/* Where to start looking for a numerator's bucket among a bet's sorted thresholds t[0 .. count - 1]:
 * the range t[0] .. t[count - 1] cut into `cells` equal cells, and for each the first threshold at
 * or above the cell's start. */
typedef struct {
    const int64_t *t;
    Py_ssize_t count, cells;
    double scale;
    Py_ssize_t *first;
} Finder;

typedef struct {
    int free, classes, degree, bets, words;
    int64_t cards, leaves, largest;
    const int64_t *counts, *start, *coefficients, *map_starts, *binomials, *multipliers;
    const int32_t *maps;
    const uint64_t *weights;
    const int64_t *grids, *grid_starts, *brackets, *bracket_starts;
    uint64_t *bucket_weights, *sums;
    int64_t *bucket_counts, *extremes;
    Py_ssize_t terms[MAX_FREE + 1]; /* terms[j]: coefficients of a node at depth j (per bet) */
    int64_t *collected;
    Py_ssize_t collected_length, collected_room;
    int seen, summing, bounded;
    Finder finders[MAX_BETS];
} Walk;

/* out = a * b modulo 2^(64 words) (out apart from a and b). */
static void multiply(uint64_t *out, const uint64_t *a, const uint64_t *b, int words) {
    memset(out, 0, sizeof(uint64_t) * words);
    for (int i = 0; i < words; i++) {
        if (!a[i]) continue;
        u128 carry = 0;
        for (int k = 0; i + k < words; k++) {
            u128 step = (u128)a[i] * b[k] + out[i + k] + carry;
            out[i + k] = (uint64_t)step;
            carry = step >> 64;
        }
    }
}

#define WIDE 4 /* words of a plane's sums: a line's 128-bit sum times a 64-bit binomial, over the lines of a plane */

/* total (width words) +=, or -= when negative, terms (width words), modulo 2^(64 width). */
static void add_words(uint64_t *total, const uint64_t *terms, int width, int negative) {
    u128 carry = 0;
    for (int k = 0; k < width; k++) {
        u128 step = negative ? (u128)total[k] - terms[k] - carry : (u128)total[k] + terms[k] + carry;
        total[k] = (uint64_t)step;
        carry = negative ? (step >> 64) != 0 : step >> 64;
    }
}

/* total (width words) += sign * weight (words words) * magnitude (WIDE words), modulo 2^(64 width). */
static void add_wide(uint64_t *total, int width, const uint64_t *weight, int words, const uint64_t *magnitude, int negative) {
    uint64_t product[MAX_WORDS + WIDE] = {0};
    int any = 0;
    for (int m = 0; m < WIDE && m < width; m++) {
        if (!magnitude[m]) continue;
        any = 1;
        u128 carry = 0;
        int k = 0;
        for (; k < words && m + k < width; k++) {
            u128 step = (u128)weight[k] * magnitude[m] + product[m + k] + carry;
            product[m + k] = (uint64_t)step;
            carry = step >> 64;
        }
        for (k += m; k < width && carry; k++) {
            u128 step = (u128)product[k] + carry;
            product[k] = (uint64_t)step;
            carry = step >> 64;
        }
    }
    if (any) add_words(total, product, width, negative);
}

/* total (width words) += sign * weight (words words) * magnitude, modulo 2^(64 width). */
static void add_product(uint64_t *total, int width, const uint64_t *weight, int words, u128 magnitude, int negative) {
    if (!magnitude) return;
    uint64_t wide[WIDE] = {(uint64_t)magnitude, (uint64_t)(magnitude >> 64), 0, 0};
    add_wide(total, width, weight, words, wide, negative);
}

/* A plane's sum (WIDE words, two's complement) += sign * magnitude * factor. */
static void plane_add(uint64_t *sum, u128 magnitude, uint64_t factor, int negative) {
    if (!magnitude) return;
    u128 low = (u128)(uint64_t)magnitude * factor, high = (u128)(uint64_t)(magnitude >> 64) * factor + (low >> 64);
    uint64_t terms[WIDE] = {(uint64_t)low, (uint64_t)high, (uint64_t)(high >> 64), 0};
    add_words(sum, terms, WIDE, negative);
}

static void plane_add_signed(uint64_t *sum, s128 value, uint64_t factor) {
    plane_add(sum, value < 0 ? (u128)0 - (u128)value : (u128)value, factor, value < 0);
}

/* The plane's sums (two's complement, WIDE words each) times its weight into the walk's sums, and zeroed. */
static void flush_sums(Walk *walk, uint64_t *plane, const uint64_t *plane_weight) {
    int width = walk->words + 2;
    for (int q = 0; q < 2 + 4 * walk->bets; q++) {
        uint64_t *sum = plane + q * WIDE, magnitude[WIDE];
        int negative = (int)(sum[WIDE - 1] >> 63);
        u128 carry = negative;
        for (int k = 0; k < WIDE; k++) {
            uint64_t word = negative ? ~sum[k] : sum[k];
            u128 step = (u128)word + carry;
            magnitude[k] = (uint64_t)step;
            carry = negative ? step >> 64 : 0;
        }
        add_wide(walk->sums + q * width, width, plane_weight, walk->words, magnitude, negative);
        memset(sum, 0, sizeof(uint64_t) * WIDE);
    }
}


static int finder_make(Finder *finder, const int64_t *t, Py_ssize_t count) {
    finder->t = t, finder->count = count, finder->cells = 4 * count + 1;
    finder->first = malloc(sizeof(Py_ssize_t) * (finder->cells + 1));
    if (!finder->first) return -1;
    double span = count ? (double)t[count - 1] - (double)t[0] : 0;
    finder->scale = span > 0 ? (double)finder->cells / span : 0;
    Py_ssize_t i = 0;
    for (Py_ssize_t cell = 0; cell <= finder->cells; cell++) {
        double low = count ? (double)t[0] + cell / (finder->scale ? finder->scale : 1) : 0;
        while (i < count && (double)t[i] < low) i++;
        finder->first[cell] = i;
    }
    return 0;
}

/* The bucket of a: the first i with t[i] >= a (count if none). The cell gives the start of a
 * branchless binary search over the thresholds of that cell and the next. */
static Py_ssize_t bucket_of(const Finder *finder, int64_t a) {
    const int64_t *t = finder->t;
    Py_ssize_t count = finder->count;
    if (a <= t[0]) return 0;
    if (a > t[count - 1]) return count;
    double place = ((double)a - (double)t[0]) * finder->scale;
    Py_ssize_t cell = place < 0 ? 0 : place >= (double)finder->cells ? finder->cells - 1 : (Py_ssize_t)place;
    Py_ssize_t low = finder->first[cell] > 0 ? finder->first[cell] - 1 : 0, high = finder->first[cell + 1] + 1;
    if (high > count) high = count;
    if (low > 0 && t[low - 1] >= a) low = 0; /* rounding put a below the cell: search everything */
    if (high < count && t[high - 1] < a) high = count;
    const int64_t *base = t + low;
    Py_ssize_t length = high - low;
    while (length > 1) {
        Py_ssize_t half = length / 2;
        base = base[half - 1] < a ? base + half : base;
        length -= half;
    }
    return (base - t) + (length == 1 && *base < a);
}

static int collect(Walk *walk, int bet, int64_t a, const uint64_t *node_weight, uint64_t u) {
    Py_ssize_t width = 2 + walk->words;
    if (walk->collected_length + width > walk->collected_room) {
        Py_ssize_t room = walk->collected_room ? 2 * walk->collected_room : 1024 * width;
        int64_t *grown = realloc(walk->collected, sizeof(int64_t) * room);
        if (!grown) return -1;
        walk->collected = grown;
        walk->collected_room = room;
    }
    int64_t *record = walk->collected + walk->collected_length;
    record[0] = bet;
    record[1] = a;
    uint64_t factor[MAX_WORDS] = {u};
    multiply((uint64_t *)(record + 2), node_weight, factor, walk->words);
    walk->collected_length += width;
    return 0;
}

typedef struct { /* per bet, the buckets the compositions below one plane node (all but the last two free counts fixed) touch */
    Py_ssize_t *bucket, *used, *slot, room;
    u128 *weight;
    int64_t *count;
    uint64_t *sums; /* the plane's sums (2 + 4 bets, WIDE words each) */
} Buckets;

/* The buckets touched since the last flush into the sums, each times the plane node's weight. */
static void flush_buckets(Walk *walk, Buckets *buckets, const uint64_t *plane_weight) {
    int words = walk->words;
    for (int b = 0; b < walk->bets; b++) {
        Py_ssize_t base = b * buckets->room, row0 = walk->grid_starts[b] + b;
        for (Py_ssize_t k = 0; k < buckets->used[b]; k++) {
            Py_ssize_t row = row0 + buckets->bucket[base + k];
            add_product(walk->bucket_weights + row * (words + 1), words + 1, plane_weight, words, buckets->weight[base + k], 0);
            walk->bucket_counts[row] += buckets->count[base + k];
            buckets->slot[row] = -1;
        }
        buckets->used[b] = 0;
    }
}

/* The compositions x = first .. last of the last free class on the line below a node (coefficients
 * `node` per bet, weight `node_weight`, `left` cards for the last two classes); the buckets are
 * kept per plane, each composition's weight there u times `factor` (the line's binomial below the plane). */
static int walk_line(Walk *walk, int64_t first, int64_t last, int64_t left, const int64_t *node, const uint64_t *node_weight, uint64_t factor,
                     Buckets *buckets) {
    int bets = walk->bets, degree = walk->degree, words = walk->words, last_free = walk->free - 1;
    const uint64_t *free_weights = walk->weights + (Py_ssize_t)last_free * (walk->largest + 1) * words;
    const uint64_t *final_weights = walk->weights + (Py_ssize_t)walk->free * (walk->largest + 1) * words;
    u128 total = 0, best_positive = 0, positive[MAX_BETS];
    s128 positive_sum[MAX_BETS], value_sum[MAX_BETS], best_sum[MAX_BETS];
    int64_t values[MAX_BETS];
    for (int b = 0; b < bets; b++) positive[b] = 0, positive_sum[b] = value_sum[b] = best_sum[b] = 0;
    for (int64_t x = first; x <= last; x++) {
        uint64_t u = free_weights[x * words] * final_weights[(left - x) * words];
        const int64_t *binomial = walk->binomials + x * (degree + 1);
        total += u;
        s128 best = 0;
        int best_bet = -1;
        for (int b = 0; b < bets; b++) {
            int64_t a = 0;
            for (int d = 0; d <= degree; d++) a += binomial[d] * node[d * bets + b];
            values[b] = a;
            if (walk->summing) {
                s128 weighted = (s128)u * a;
                value_sum[b] += weighted;
                if (a > 0) {
                    positive[b] += u;
                    positive_sum[b] += weighted;
                }
                s128 common = (s128)a * walk->multipliers[b];
                if (common > best) best = common, best_bet = b;
                if (!walk->seen || a < walk->extremes[2 * b]) walk->extremes[2 * b] = a;
                if (!walk->seen || a > walk->extremes[2 * b + 1]) walk->extremes[2 * b + 1] = a;
            }
            const Finder *finder = &walk->finders[b];
            if (finder->count && (!walk->bounded || (a > finder->t[0] && a <= finder->t[finder->count - 1]))) {
                Py_ssize_t bucket = bucket_of(finder, a);
                Py_ssize_t row = walk->grid_starts[b] + b + bucket, k = buckets->slot[row];
                if (k < 0) {
                    k = buckets->used[b]++;
                    buckets->slot[row] = k;
                    buckets->bucket[b * buckets->room + k] = bucket, buckets->weight[b * buckets->room + k] = 0, buckets->count[b * buckets->room + k] = 0;
                }
                buckets->weight[b * buckets->room + k] += (u128)u * factor;
                buckets->count[b * buckets->room + k] += 1;
            }
            for (int64_t q = walk->bracket_starts[b]; q < walk->bracket_starts[b + 1]; q++)
                if (walk->brackets[2 * q] < a && a <= walk->brackets[2 * q + 1]) {
                    if (collect(walk, b, a, node_weight, u)) return -1;
                    break;
                }
        }
        walk->seen = 1;
        if (best_bet >= 0) {
            best_positive += u;
            best_sum[best_bet] += (s128)u * values[best_bet];
        }
    }
    if (!walk->summing) return 0;
    uint64_t *plane = buckets->sums;
    plane_add(plane, total, factor, 0);
    plane_add(plane + WIDE, best_positive, factor, 0);
    for (int b = 0; b < bets; b++) {
        plane_add(plane + (2 + b) * WIDE, positive[b], factor, 0);
        plane_add_signed(plane + (2 + bets + b) * WIDE, positive_sum[b], factor);
        plane_add_signed(plane + (2 + 2 * bets + b) * WIDE, value_sum[b], factor);
        plane_add_signed(plane + (2 + 3 * bets + b) * WIDE, best_sum[b], factor);
    }
    return 0;
}

/* The child of the node at depth j when class j holds x: its coefficients. */
static void descend(const Walk *walk, int depth, int64_t x, const int64_t *parent, int64_t *child) {
    int bets = walk->bets, degree = walk->degree;
    memset(child, 0, sizeof(int64_t) * walk->terms[depth + 1] * bets);
    const int64_t *binomial = walk->binomials + x * (degree + 1);
    for (int d = 0; d <= degree && d <= x; d++) {
        int64_t factor = binomial[d];
        Py_ssize_t from = walk->map_starts[depth * (degree + 1) + d], to = walk->map_starts[depth * (degree + 1) + d + 1];
        const int32_t *map = walk->maps + from;
        for (Py_ssize_t i = 0; i < to - from; i++) {
            const int64_t *source = parent + (Py_ssize_t)map[i] * bets;
            int64_t *target = child + i * bets;
            for (int b = 0; b < bets; b++) target[b] += factor * source[b];
        }
    }
}

static int64_t lowest(const Walk *walk, int depth, int64_t left) {
    int64_t rest = 0;
    for (int k = depth + 1; k < walk->classes; k++) rest += walk->counts[k];
    return left > rest ? left - rest : 0;
}

static int64_t highest(const Walk *walk, int depth, int64_t left) { return walk->counts[depth] < left ? walk->counts[depth] : left; }

/* Fix class j at x[j]: the cards left after it, the weight so far, the coefficients below. */
static void step(const Walk *walk, int j, const int64_t *x, int64_t *left, uint64_t (*weight)[MAX_WORDS], int64_t **node) {
    left[j + 1] = left[j] - x[j];
    multiply(weight[j + 1], weight[j], walk->weights + ((Py_ssize_t)j * (walk->largest + 1) + x[j]) * walk->words, walk->words);
    descend(walk, j, x[j], node[j], node[j + 1]);
}

/* Walk `leaves` compositions from `start`; 0, -1 (out of memory) or -2 (past the last composition). */
static int run(Walk *walk) {
    int bets = walk->bets, last = walk->free - 1, plane = last > 0 ? last - 1 : 0, words = walk->words;
    int64_t left[MAX_FREE + 1], x[MAX_FREE];
    uint64_t weight[MAX_FREE][MAX_WORDS];
    int64_t *node[MAX_FREE];
    Py_ssize_t room = 0, rows = walk->grid_starts[bets] + bets;
    for (int j = 0; j <= last; j++) room += walk->terms[j] * bets;
    int64_t *buffer = malloc(sizeof(int64_t) * room);
    int64_t across = last > 0 ? (walk->counts[plane] < walk->cards ? walk->counts[plane] : walk->cards) + 1 : 1;
    Buckets buckets = {.room = across * (walk->largest + 1)};
    buckets.bucket = malloc(sizeof(Py_ssize_t) * bets * buckets.room);
    buckets.weight = malloc(sizeof(u128) * bets * buckets.room);
    buckets.count = malloc(sizeof(int64_t) * bets * buckets.room);
    buckets.slot = malloc(sizeof(Py_ssize_t) * rows);
    buckets.used = calloc(bets, sizeof(Py_ssize_t));
    buckets.sums = calloc((2 + 4 * bets) * WIDE, sizeof(uint64_t));
    int status = 0, made = 0;
    if (!buffer || !buckets.bucket || !buckets.weight || !buckets.count || !buckets.slot || !buckets.used || !buckets.sums) {
        status = -1;
        goto done;
    }
    for (; made < bets; made++)
        if (finder_make(&walk->finders[made], walk->grids + walk->grid_starts[made], walk->grid_starts[made + 1] - walk->grid_starts[made])) {
            status = -1;
            goto done;
        }
    for (Py_ssize_t row = 0; row < rows; row++) buckets.slot[row] = -1;
    node[0] = buffer;
    memcpy(node[0], walk->coefficients, sizeof(int64_t) * walk->terms[0] * bets);
    for (int j = 1; j <= last; j++) node[j] = node[j - 1] + walk->terms[j - 1] * bets;
    memset(weight[0], 0, sizeof(weight[0]));
    weight[0][0] = 1;
    left[0] = walk->cards;
    for (int j = 0; j < last; j++) {
        x[j] = walk->start[j];
        step(walk, j, x, left, weight, node);
    }
    int64_t first = walk->start[last], remaining = walk->leaves;
    for (;;) {
        int64_t end = highest(walk, last, left[last]);
        if (end - first + 1 > remaining) end = first + remaining - 1;
        uint64_t factor = last > 0 ? walk->weights[((Py_ssize_t)plane * (walk->largest + 1) + x[plane]) * words] : 1;
        if (walk_line(walk, first, end, left[last], node[last], weight[last], factor, &buckets)) {
            status = -1;
            goto done;
        }
        remaining -= end - first + 1;
        int j = last - 1;
        while (remaining && j >= 0 && x[j] >= highest(walk, j, left[j])) j--;
        if (!remaining || j < plane) {
            flush_buckets(walk, &buckets, weight[plane]);
            if (walk->summing) flush_sums(walk, buckets.sums, weight[plane]);
        }
        if (!remaining) break;
        if (j < 0) {
            status = -2;
            goto done;
        }
        x[j]++;
        step(walk, j, x, left, weight, node);
        for (j++; j < last; j++) {
            x[j] = lowest(walk, j, left[j]);
            step(walk, j, x, left, weight, node);
        }
        first = lowest(walk, last, left[last]);
    }
done:
    free(buffer);
    free(buckets.bucket);
    free(buckets.weight);
    free(buckets.count);
    free(buckets.slot);
    free(buckets.used);
    free(buckets.sums);
    for (int b = 0; b < made; b++) free(walk->finders[b].first);
    return status;
}

static PyObject *walk(PyObject *self, PyObject *args) {
    PyObject *objects[16];
    long long leaves, cards;
    int degree, bets, words, summing, bounded;
    if (!PyArg_ParseTuple(args, "OOLLiiOOOOOiOOOOOOOOOpp", &objects[0], &objects[1], &leaves, &cards, &degree, &bets, &objects[2], &objects[3], &objects[4],
                          &objects[5], &objects[6], &words, &objects[7], &objects[8], &objects[9], &objects[10], &objects[11], &objects[12], &objects[13],
                          &objects[14], &objects[15], &summing, &bounded))
        return NULL;
    /* counts start coefficients maps map_starts binomials weights multipliers grids grid_starts bucket_weights bucket_counts
       brackets bracket_starts sums extremes */
    static const Py_ssize_t sizes[16] = {8, 8, 8, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    static const int writable[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1};
    Array arrays[16];
    memset(arrays, 0, sizeof arrays);
    PyObject *result = NULL;
    Walk walk = {0};
    for (int index = 0; index < 16; index++)
        if (get(objects[index], &arrays[index], writable[index], sizes[index])) goto done;
    walk.classes = (int)length(&arrays[0]);
    walk.free = walk.classes - 1;
    walk.degree = degree, walk.bets = bets, walk.words = words, walk.cards = cards, walk.leaves = leaves;
    walk.counts = arrays[0].view.buf, walk.start = arrays[1].view.buf, walk.coefficients = arrays[2].view.buf;
    walk.maps = arrays[3].view.buf, walk.map_starts = arrays[4].view.buf, walk.binomials = arrays[5].view.buf;
    walk.weights = arrays[6].view.buf, walk.multipliers = arrays[7].view.buf, walk.grids = arrays[8].view.buf;
    walk.grid_starts = arrays[9].view.buf, walk.bucket_weights = arrays[10].view.buf, walk.bucket_counts = arrays[11].view.buf;
    walk.brackets = arrays[12].view.buf, walk.bracket_starts = arrays[13].view.buf, walk.sums = arrays[14].view.buf;
    walk.extremes = arrays[15].view.buf, walk.summing = summing, walk.bounded = bounded;
    if (walk.free < 1 || walk.free > MAX_FREE || bets < 1 || bets > MAX_BETS || words < 1 || words + 2 > MAX_WORDS || degree < 0 || leaves < 1) {
        PyErr_SetString(PyExc_ValueError, "walk: the shoe, bets or words are out of the walker's range");
        goto done;
    }
    walk.largest = length(&arrays[5]) / (degree + 1) - 1;
    /* terms per depth: C(D + k, k) for k = F - j free classes left */
    for (int j = 0; j <= walk.free; j++) {
        int k = walk.free - j;
        Py_ssize_t terms = 1;
        for (int i = 1; i <= k; i++) terms = terms * (degree + i) / i;
        walk.terms[j] = terms;
    }
    if (length(&arrays[1]) != walk.free || length(&arrays[2]) != walk.terms[0] * bets || length(&arrays[4]) != (Py_ssize_t)(walk.free - 1) * (degree + 1) + 1 ||
        length(&arrays[6]) != (Py_ssize_t)walk.classes * (walk.largest + 1) * words || length(&arrays[7]) != bets || length(&arrays[9]) != bets + 1 ||
        length(&arrays[13]) != bets + 1 || length(&arrays[14]) != (Py_ssize_t)(2 + 4 * bets) * (words + 2) || length(&arrays[15]) != 2 * bets ||
        length(&arrays[10]) != (length(&arrays[8]) + bets) * (words + 1) || length(&arrays[11]) != length(&arrays[8]) + bets ||
        length(&arrays[12]) != 2 * walk.bracket_starts[bets] || walk.grid_starts[bets] != length(&arrays[8]) ||
        walk.map_starts[(walk.free - 1) * (degree + 1)] != length(&arrays[3])) {
        PyErr_SetString(PyExc_ValueError, "walk: the arrays do not agree in size");
        goto done;
    }
    for (int j = 0; j < walk.free; j++)
        if (walk.start[j] < 0 || walk.start[j] > walk.largest) {
            PyErr_SetString(PyExc_ValueError, "walk: the first composition is out of range");
            goto done;
        }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run(&walk);
    Py_END_ALLOW_THREADS
    if (status == -1) PyErr_NoMemory();
    else if (status == -2) PyErr_SetString(PyExc_ValueError, "walk: the range runs past the last composition");
    else result = PyBytes_FromStringAndSize((const char *)walk.collected, sizeof(int64_t) * walk.collected_length);
done:
    free(walk.collected);
    for (int index = 0; index < 16; index++) release(&arrays[index]);
    return result;
}

static PyMethodDef methods[] = {
    {"walk", walk, METH_VARARGS,
     "walk(counts, start, leaves, cards, degree, bets, coefficients, maps, map_starts, binomials, weights, words, multipliers, grids, "
     "grid_starts, bucket_weights, bucket_counts, brackets, bracket_starts, sums, extremes, summing, bounded) -> bytes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_walk", "The compiled walker of compositions of exact_odds.", -1, methods};

PyMODINIT_FUNC PyInit__walk(void) { return PyModule_Create(&module); }
