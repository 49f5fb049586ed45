/* A naive C enumerator of the same loops as exact_odds's plain enumerator, for the benchmark:
   every value sequence of a coup, exact counts of ordered 6-card sequences (8 decks fit in 64 bits).
   Usage: naive_enumerator DECKS REPEATS -> prints banker player tie and microseconds per shoe. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>

static const char TABLEAU[8][10] = {
    {1,1,1,1,1,1,1,1,1,1}, {1,1,1,1,1,1,1,1,1,1}, {1,1,1,1,1,1,1,1,1,1}, {1,1,1,1,1,1,1,1,0,1},
    {0,0,1,1,1,1,1,1,0,0}, {0,0,0,0,1,1,1,1,0,0}, {0,0,0,0,0,0,1,1,0,0}, {0,0,0,0,0,0,0,0,0,0}};
static uint64_t counts[10];
static uint64_t result[3];
static uint64_t size;

static void settle(int player, int banker, uint64_t weight) {
    result[player > banker ? 1 : banker > player ? 0 : 2] += weight;
}

static void enumerate(void) {
    for (int a = 0; a < 10; a++) { uint64_t wa = counts[a]; if (!wa) continue; counts[a]--;
    for (int b = 0; b < 10; b++) { uint64_t wb = wa * counts[b]; if (!wb) continue; counts[b]--;
    for (int c = 0; c < 10; c++) { uint64_t wc = wb * counts[c]; if (!wc) continue; counts[c]--;
    for (int d = 0; d < 10; d++) { uint64_t wd = wc * counts[d]; if (!wd) continue; counts[d]--;
        int player = (a + c) % 10, banker = (b + d) % 10;
        if (player >= 8 || banker >= 8) settle(player, banker, wd * (size - 4) * (size - 5));
        else if (player <= 5) {
            for (int e = 0; e < 10; e++) { uint64_t we = wd * counts[e]; if (!we) continue; counts[e]--;
                int player3 = (player + e) % 10;
                if (banker <= 7 && TABLEAU[banker][e]) {
                    for (int f = 0; f < 10; f++) { uint64_t wf = we * counts[f]; if (wf) settle(player3, (banker + f) % 10, wf); }
                } else settle(player3, banker, we * (size - 5));
                counts[e]++; }
        } else if (banker <= 5) {
            for (int e = 0; e < 10; e++) { uint64_t we = wd * counts[e]; if (we) settle(player, (banker + e) % 10, we * (size - 5)); }
        } else settle(player, banker, wd * (size - 4) * (size - 5));
    counts[d]++; } counts[c]++; } counts[b]++; } counts[a]++; }
}

int main(int argc, char **argv) {
    int decks = argc > 1 ? atoi(argv[1]) : 8, repeats = argc > 2 ? atoi(argv[2]) : 20;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int repeat = 0; repeat < repeats; repeat++) {
        for (int v = 0; v < 10; v++) counts[v] = (v == 0 ? 16 : 4) * decks;
        size = 52 * decks; result[0] = result[1] = result[2] = 0;
        enumerate();
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double micros = ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / 1e3 / repeats;
    printf("%llu %llu %llu %.1f\n", (unsigned long long)result[0], (unsigned long long)result[1], (unsigned long long)result[2], micros);
    return 0;
}
