"""The register transpose's schedule (lib/Conversion/CoopToGPU/LoadStore.cpp,
roundsToBlocked and blockedToRounds) as a model over lane lists: for every
segment of L lanes owning V 16-byte vectors each (powers of two, V <= L),
coalesced rounds become blocked slots and back. The GPU test
test_full_tile_copy_every_element checks the lowering itself."""

import pytest


def _rotate(vectors, amount, left):
    """The lowering's rotation: result[i] = vectors[(i +- amount) mod n], one select stage
    per bit of amount."""
    n, step = len(vectors), 1
    while step < n:
        if amount & step:
            vectors = [vectors[(i + step) % n if left else (i - step) % n] for i in range(n)]
        step *= 2
    return vectors


def _rounds_to_blocked(rounds, lanes, n):
    """rounds[l][k] is vector k*lanes + l; returns blocked[o][s], vector o*n + s."""
    group = lanes // n
    sent = [_rotate(rounds[lane], lane % n, left=True) for lane in range(lanes)]
    blocked = []
    for lane in range(lanes):
        own = lane // group
        column = (lane % group) * n
        received = [sent[column + (own + n - j) % n][j] for j in range(n)]
        reversed_ = [received[(n - m) % n] for m in range(n)]
        blocked.append(_rotate(reversed_, own, left=False))
    return blocked


def _blocked_to_rounds(blocked, lanes, n):
    group = lanes // n
    sent = []
    for lane in range(lanes):
        rotated = _rotate(blocked[lane], lane // group, left=True)
        sent.append([rotated[(n - j) % n] for j in range(n)])
    rounds = []
    for lane in range(lanes):
        received = [sent[((lane % n + j) % n) * group + lane // n][j] for j in range(n)]
        rounds.append(_rotate(received, lane % n, left=False))
    return rounds


@pytest.mark.parametrize("lanes, n", [(lanes, n) for lanes in (4, 8, 16, 32)
                                      for n in (2, 4, 8, 16, 32) if n <= lanes])
def test_schedule_transposes_both_ways(lanes, n):
    rounds = [[k * lanes + lane for k in range(n)] for lane in range(lanes)]
    blocked = _rounds_to_blocked(rounds, lanes, n)
    assert blocked == [[o * n + s for s in range(n)] for o in range(lanes)]
    assert _blocked_to_rounds(blocked, lanes, n) == rounds
