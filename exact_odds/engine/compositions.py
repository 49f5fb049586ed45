"""The compositions of n cards drawn from a shoe: how many of each class of card they hold.

With n cards left, the cards are a uniformly random n-subset of the shoe's N, so a composition
that holds k_i of the c_i cards of each class i has the hypergeometric weight prod C(c_i, k_i),
and the weights of all compositions add up to C(N, n). The classes are taken in *walk order*
(the most numerous first; a class the shoe lacks is left out): the last class's count is n less
the others', and the compositions are ranked in lexicographic order of the others' counts, so that
a range of ranks (two integers) is a piece of work a worker can unrank and walk alone.

>>> shoe = Compositions((3, 2, 1), (9, 0, 4), 3)  # 3 tens, 2 aces, 1 five; 3 cards left
>>> shoe.count, [shoe.unrank(rank) for rank in range(shoe.count)]
(6, [(0, 2), (1, 1), (1, 2), (2, 0), (2, 1), (3, 0)])
>>> [shoe.weight(shoe.unrank(rank)) for rank in range(shoe.count)], shoe.total_weight  # C(6, 3)
([1, 6, 3, 3, 6, 1], 20)
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from math import comb, prod


@dataclass(frozen=True)
class Compositions:
    """The compositions of ``cards`` cards from a shoe holding ``counts[i]`` cards of class i (walk
    order, every count positive), ``ranks[i]`` naming a rank of each class (0 = A .. 12 = K) for
    the batch path."""

    counts: tuple[int, ...]
    ranks: tuple[int, ...]
    cards: int

    @property
    def free(self) -> int:
        """The classes whose counts are walked: all but the last."""
        return len(self.counts) - 1

    @cached_property
    def completions(self) -> tuple[tuple[int, ...], ...]:
        """completions[j][r]: the ways to hold r cards in classes j, j + 1, ... (r from 0 to n)."""
        table = [tuple(int(r <= self.counts[-1]) for r in range(self.cards + 1))]
        for count in reversed(self.counts[:-1]):
            running = list(accumulate(table[0], initial=0))  # running[r] = after[0] + ... + after[r - 1]
            table.insert(0, tuple(running[r + 1] - running[max(0, r - count)] for r in range(self.cards + 1)))
        return tuple(table)

    @property
    def count(self) -> int:
        """How many compositions there are."""
        return self.completions[0][self.cards]

    @property
    def total_weight(self) -> int:
        """C(N, n): the n-subsets of the shoe."""
        return comb(sum(self.counts), self.cards)

    def bounds(self, depth: int, left: int) -> tuple[int, int]:
        """The counts class ``depth`` may hold when ``left`` cards remain for it and those after it."""
        rest = sum(self.counts[depth + 1 :])
        return max(0, left - rest), min(self.counts[depth], left)

    def unrank(self, rank: int) -> tuple[int, ...]:
        """The free counts of the composition of lexicographic rank ``rank``."""
        if not 0 <= rank < self.count:
            raise ValueError(f"rank {rank} is outside the {self.count} compositions")
        counts, left = [], self.cards
        for depth in range(self.free):
            low, high = self.bounds(depth, left)
            for held in range(low, high + 1):
                ways = self.completions[depth + 1][left - held]
                if rank < ways:
                    break
                rank -= ways
            counts.append(held)
            left -= held
        return tuple(counts)

    def walk(self, start: int, stop: int) -> Iterator[tuple[int, ...]]:
        """The free counts of the compositions of ranks start .. stop - 1, in order."""
        if start >= stop:
            return
        counts = list(self.unrank(start))
        for _ in range(stop - start):
            yield tuple(counts)
            self._advance(counts)

    def _advance(self, counts: list[int]) -> None:
        """The next composition's free counts (in place); past the last, the counts are left as they are."""
        lefts = [self.cards]
        for held in counts:
            lefts.append(lefts[-1] - held)
        for depth in range(self.free - 1, -1, -1):
            if counts[depth] < self.bounds(depth, lefts[depth])[1]:
                counts[depth] += 1
                left = lefts[depth] - counts[depth]
                for deeper in range(depth + 1, self.free):
                    counts[deeper] = self.bounds(deeper, left)[0]
                    left -= counts[deeper]
                return

    def full(self, free: Sequence[int]) -> tuple[int, ...]:
        """Every class's count of a composition given by its free counts."""
        return (*free, self.cards - sum(free))

    def weight(self, free: Sequence[int]) -> int:
        """The composition's hypergeometric weight: the n-subsets of the shoe that hold it."""
        return prod(comb(count, held) for count, held in zip(self.counts, self.full(free)))

    def rank_counts(self, free: Sequence[int]) -> list[int]:
        """The composition as 13 per-rank counts, each class's cards on its rank (for the batch path)."""
        counts = [0] * 13
        for rank, held in zip(self.ranks, self.full(free)):
            counts[rank] += held
        return counts
