"""Benchmarks of `baccarat-odds serve` on localhost (prints figures, asserts nothing).

    python benchmarks/serve_bench.py [--quick]

1. Server start to first answer.
2. Card entry on a warm server: an 8-deck shoe shuffled (seed 1) and dealt by the tableau to 14 cards
   from its end, each card one POST .../cards; milliseconds to the answer over HTTP and on the
   server's side (its Server-Timing header), p50 and p95 after the first 10 cards, for every catalog
   bet by rank, every catalog bet with suits, and the 3 main bets (target: 20 ms p95 warm).
   Beside it, the server's time per card after 300 cards over its time at the start (p50 of 40 cards
   each, every catalog bet by rank): two sessions of the same shoe, one at its start and one 300 cards
   in, fed a card in turn, so that the machine's load weighs on both alike (target: within 1.2x).
3. Two sessions fed at once against two one after the other (each 150 cards, every catalog bet by
   rank, shoes of their own so that no answer is cached), on a server that has already fed two
   sessions at once (so that each server process has made the session's table: that first time is printed too): the ratio
   of their wall times (target on 2 cores: at once at least 1.6x as fast), the median of 7 paired
   rounds and their range; beside it, the yardstick, the same ratio for two CPU-bound processes run
   at the start of each round (what the cores free at the time allow). One round moves by a third
   from the next on a shared machine.
4. A bounded load: 20 sessions entering 200 cards each at once (every catalog bet by rank): errors,
   p50 and p99 (--quick: 5 sessions of 50 cards; 3. 3 rounds of 40 cards).
The server listens on 127.0.0.1 only and is stopped at the end; its database is a temporary file.
"""

import http.client
import json
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Client:
    """One keep-alive HTTP connection to the server; each answer's time on the server's side is kept."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.server_ms = 0.0

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        self.connection.request(method, path, body=None if body is None else json.dumps(body), headers={"Content-Type": "application/json"})
        response = self.connection.getresponse()
        data = json.loads(response.read())
        self.server_ms = float((response.getheader("server-timing") or "app;dur=0").split("dur=")[1])
        return response.status, data


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def deal_shoe(client: Client, settings: dict, cards: list[str]) -> tuple[list[float], list[float], int]:
    """Enter ``cards`` into a new session, closing each coup the tableau settles: (HTTP ms, server ms, errors)."""
    status, state = client.call("POST", "/api/v1/sessions", settings)
    return feed(client, state["id"], cards)


def feed(client: Client, session: str, cards: list[str]) -> tuple[list[float], list[float], int]:
    """Enter ``cards`` into ``session``, closing each coup the tableau settles: (HTTP ms, server ms, errors)."""
    http_ms, server_ms, errors = [], [], 0
    for card in cards:
        started = time.perf_counter()
        status, state = client.call("POST", f"/api/v1/sessions/{session}/cards", {"card": card})
        http_ms.append(1000 * (time.perf_counter() - started))
        server_ms.append(client.server_ms)
        if status != 200:
            errors += 1
        elif state["coup_in_progress"]["complete"]:
            client.call("POST", f"/api/v1/sessions/{session}/coups")
    return http_ms, server_ms, errors


def median(values: list[float]) -> float:
    return quantile(values, .5)


def drift(port: int, cards: list[str]) -> None:
    """The server's time per card 300 cards into a shoe over its time at the start, two sessions fed in turn."""
    settings = {"decks": 8, "burn": "none", "bets": "all"}
    late, early = Client(port), Client(port)
    late_session = late.call("POST", "/api/v1/sessions", settings)[1]["id"]
    feed(late, late_session, cards[:300])
    early_session = early.call("POST", "/api/v1/sessions", settings)[1]["id"]
    late_ms: list[float] = []
    early_ms: list[float] = []
    for place in range(50):
        early_ms += feed(early, early_session, cards[place:place + 1])[1]
        late_ms += feed(late, late_session, cards[300 + place:301 + place])[1]
    start, after = median(early_ms[10:]), median(late_ms[10:])
    print(f"   server time per card after 300 cards {after:.1f} ms, at the start {start:.1f} ms (fed in turn): {after / start:.2f}x (target <= 1.2x)")


def cores_free() -> float:
    """How much faster two CPU-bound processes run at once than one after the other, now."""
    work = [sys.executable, "-c", "sum(i * i for i in range(3_000_000))"]
    begun = time.perf_counter()
    for _ in range(2):
        subprocess.run(work, check=True)
    apart = time.perf_counter() - begun
    begun = time.perf_counter()
    for process in [subprocess.Popen(work) for _ in range(2)]:
        process.wait()
    return apart / (time.perf_counter() - begun)


def two_sessions(port: int, count: int, rounds: int) -> None:
    """``rounds`` paired rounds, each: the yardstick, two sessions one after the other, two others at
    once (every session a shoe of its own); the median of the rounds' ratios, and their range."""
    def shoe(seed: int) -> list[str]:
        cards = list("A23456789TJQK") * 32
        random.Random(seed).shuffle(cards)
        return cards[:count]

    def feed(seed: int) -> None:
        deal_shoe(Client(port), {"decks": 8, "bets": "all", "burn": "none"}, shoe(seed))

    def at_once(seeds: tuple[int, int]) -> float:
        begun = time.perf_counter()
        workers = [threading.Thread(target=feed, args=(seed,)) for seed in seeds]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return time.perf_counter() - begun

    warming = at_once((99, 100))  # each server process makes the table of its first session (a warm server)
    ratios, yardsticks, seed = [], [], 101
    for _ in range(rounds):
        yardsticks.append(cores_free())
        begun = time.perf_counter()
        feed(seed)
        feed(seed + 1)
        apart = time.perf_counter() - begun
        ratios.append(apart / at_once((seed + 2, seed + 3)))
        seed += 4
    print(f"3. two sessions x {count} cards, {rounds} rounds: at once {median(ratios):.2f}x as fast as one after the other "
          f"(median; {min(ratios):.2f}x to {max(ratios):.2f}x; target >= 1.6x on 2 cores); two CPU-bound processes at once: "
          f"{median(yardsticks):.2f}x ({min(yardsticks):.2f}x to {max(yardsticks):.2f}x) (at once on a cold server, before: {warming:.2f} s)")


def main() -> None:
    quick = "--quick" in sys.argv
    folder = tempfile.mkdtemp(prefix="serve-bench-")
    port = free_port()
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "exact_odds", "serve", "--port", str(port), "--db", str(Path(folder) / "sessions.sqlite")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                Client(port).call("GET", "/api/v1/health")
                break
            except OSError:
                if server.poll() is not None or time.perf_counter() - started > 60:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.02)
        print(f"1. server start to first answer: {1000 * (time.perf_counter() - started):.0f} ms")
        suited = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC"] * 8
        random.Random(1).shuffle(suited)
        suited = suited[: 100 if quick else -14]
        ranks = [card[0] for card in suited]
        for label, settings, cards in (("every catalog bet, by rank", {"bets": "all"}, ranks),
                                       ("every catalog bet, with suits", {"bets": "all", "suits": True}, suited),
                                       ("banker, player, tie", {}, ranks)):
            http_ms, server_ms, errors = deal_shoe(Client(port), {"decks": 8, "burn": "none", **settings}, cards)
            warm, inside = http_ms[10:], server_ms[10:]
            print(f"2. {label}: {len(cards)} cards, {errors} errors; over HTTP p50 {quantile(warm, .5):.1f} ms, p95 {quantile(warm, .95):.1f} ms; "
                  f"server side p50 {quantile(inside, .5):.1f} ms, p95 {quantile(inside, .95):.1f} ms")
            if label == "every catalog bet, by rank" and not quick:
                drift(port, ranks)
        two_sessions(port, 40 if quick else 150, 3 if quick else 7)
        sessions, count = (5, 50) if quick else (20, 200)
        times: list[float] = []
        failures = [0]
        lock = threading.Lock()

        def one(seed: int) -> None:
            shoe = list("A23456789TJQK") * 32
            random.Random(seed).shuffle(shoe)
            http_ms, _, errors = deal_shoe(Client(port), {"decks": 8, "bets": "all", "burn": "none"}, shoe[:count])
            with lock:
                times.extend(http_ms)
                failures[0] += errors

        begun = time.perf_counter()
        workers = [threading.Thread(target=one, args=(seed,)) for seed in range(sessions)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        print(f"4. {sessions} sessions x {count} cards at once: {len(times)} answers, {failures[0]} errors in {time.perf_counter() - begun:.1f} s; "
              f"p50 {quantile(times, .5):.1f} ms, p99 {quantile(times, .99):.1f} ms")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
