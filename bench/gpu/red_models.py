#!/usr/bin/env python3
"""Rules for a global reduction's sectors, tried against ncu's counts.

Reads atomics_results/red_probe.txt (300 one-warp patterns) and
red_mutations.txt (228 mutated ones), both measured on the H200, and prints,
per rule, how many patterns it counts as ncu does and its total over the 300.
Offsets are int indices (4 bytes): a sector is 8 of them, a line 32.

Usage: python3 bench/gpu/red_models.py
"""
import collections
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "atomics_results")


def patterns(name, first):
    out = []
    with open(os.path.join(HERE, name)) as f:
        for line in f:
            fields = line.split()
            if not fields or line.startswith("#"):
                continue
            out.append((int(fields[3]), [int(x) for x in fields[first:]]))
    return out


def rule(offsets):
    """ThreadMap's rule: per sector, the most lanes on one of its words."""
    words = collections.defaultdict(collections.Counter)
    for x in offsets:
        words[x // 8][x] += 1
    return sum(max(c.values()) for c in words.values())


def split_at_coincidence(modulo, between):
    """The rule, plus one sector each time a later lane of a sector shares its
    word place (offset % modulo) with an earlier lane of another sector."""
    def count(offsets):
        lanes = collections.defaultdict(list)
        for lane, x in enumerate(offsets):
            lanes[x // 8].append(lane)
        extra = 0
        for sector, members in lanes.items():
            first = members[0]
            for m in members[1:]:
                if offsets[m] == offsets[first]:
                    continue
                before = range(first + 1, m) if between else range(m)
                if any(offsets[c] % modulo == offsets[m] % modulo and offsets[c] // 8 != sector for c in before):
                    extra += 1
                    break
        return rule(offsets) + extra
    return count


def groups_at_coincidence(window, modulo):
    """Lanes in lane order in groups, a new group where a lane's word place
    was taken by another line's lane (or its own word) within `window`
    lanes of the group; each group counts its distinct sectors."""
    def count(offsets):
        groups, start = [set()], 0
        for i, x in enumerate(offsets):
            if any(y % modulo == x % modulo and (y // 32 != x // 32 or y == x)
                   for y in offsets[max(start, i - window):i]):
                groups.append(set())
                start = i
            groups[-1].add(x // 8)
        return sum(len(g) for g in groups)
    return count


def main():
    probe = patterns("red_probe.txt", 4)
    mutations = patterns("red_mutations.txt", 4)
    rules = [("ThreadMap's rule", rule)]
    for modulo in (16, 32, 64, 128):
        for between in (True, False):
            rules.append((f"split at a coincidence, modulo {modulo}, {'between' if between else 'before'}",
                          split_at_coincidence(modulo, between)))
    for window in (1, 2, 4, 8, 16, 32):
        for modulo in (8, 32, 128, 1024):
            rules.append((f"new group at a coincidence, window {window}, modulo {modulo}",
                          groups_at_coincidence(window, modulo)))
    ncu_total = sum(n for n, _ in probe)
    print(f"| rule | of {len(probe)} equal | of {len(mutations)} mutated equal | total (ncu {ncu_total}) |")
    print("|---|---|---|---|")
    for name, f in rules:
        print(f"| {name} | {sum(f(o) == n for n, o in probe)} | {sum(f(o) == n for n, o in mutations)} "
              f"| {sum(f(o) for _, o in probe)} |")


if __name__ == "__main__":
    main()
