// Dividing a worker's slots among job kinds: reservations keep room for every kind, the rest goes to the kinds
// furthest below their share.
import { describe, expect, it } from 'vitest';
import { claimOrder, claimSize, headroom, reservations, type KindSlots } from '../../src/jobs/shares.js';

const kinds = (total: number, running: number[] = [0, 0, 0]): KindSlots[] => [
  { kind: 'delivery', share: 1, limit: total, running: running[0] },
  { kind: 'execution', share: 1, limit: Math.ceil(total / 2), running: running[1] },
  { kind: 'tick', share: 1, limit: Math.ceil(total / 2), running: running[2] },
];

describe('job kind shares', () => {
  it('reserves half the slots split by share, at least one each when there are two slots per kind', () => {
    expect(reservations(32, kinds(32))).toEqual(new Map([['delivery', 5], ['execution', 5], ['tick', 5]]));
    expect(reservations(6, kinds(6))).toEqual(new Map([['delivery', 1], ['execution', 1], ['tick', 1]]));
    expect(reservations(4, kinds(4))).toEqual(new Map([['delivery', 0], ['execution', 0], ['tick', 0]]));
    const weighted = [
      { kind: 'a', share: 3, limit: 20 },
      { kind: 'b', share: 1, limit: 2 },
    ];
    expect(reservations(20, weighted)).toEqual(new Map([['a', 7], ['b', 2]]));
  });

  it('never reserves more than there is, and lets each kind alone use at least half the slots', () => {
    for (let total = 1; total <= 64; total++) {
      for (let count = 1; count <= 5; count++) {
        const some = Array.from({ length: count }, (_, i) => ({ kind: `k${i}`, share: 1 + (i % 3), limit: total, running: 0 }));
        const reserved = reservations(total, some);
        expect([...reserved.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(total);
        for (const k of some) expect(headroom(total, some, reserved, k.kind)).toBeGreaterThanOrEqual(Math.floor(total / 2));
      }
    }
  });

  it('keeps the other kinds\' unused reservations free, and respects each kind\'s own limit', () => {
    const reserved = reservations(32, kinds(32));
    // Deliveries alone: everything but the 5 + 5 kept for executions and ticks.
    expect(headroom(32, kinds(32), reserved, 'delivery')).toBe(22);
    expect(headroom(32, kinds(32, [22, 0, 0]), reserved, 'delivery')).toBe(0);
    // An execution arriving then has its reservation at once.
    expect(headroom(32, kinds(32, [22, 0, 0]), reserved, 'execution')).toBe(5);
    // Executions alone: the other reservations, and their own bound of 16.
    expect(headroom(32, kinds(32, [0, 0, 0]), reserved, 'execution')).toBe(16);
    expect(headroom(32, kinds(32, [0, 16, 0]), reserved, 'execution')).toBe(0);
  });

  it('asks first for the kind furthest below its share, for its part of the free slots (at least its reservation)', () => {
    const before = kinds(32, [20, 2, 0]);
    expect(claimOrder(before).map((k) => k.kind)).toEqual(['tick', 'execution', 'delivery']);
    const reserved = reservations(32, before);
    // 10 free among three kinds: a third would be 4, but ticks still have 5 reserved.
    expect(claimSize(32, before, reserved, [before[2], before[1], before[0]])).toBe(5);
    // Then executions: half of the 5 left (rounded up), which also covers their unused reservation of 3.
    const afterTicks = kinds(32, [20, 2, 5]);
    expect(claimSize(32, afterTicks, reserved, [afterTicks[1], afterTicks[0]])).toBe(3);
    // Deliveries get what is left.
    const afterExecutions = kinds(32, [20, 5, 5]);
    expect(claimSize(32, afterExecutions, reserved, [afterExecutions[0]])).toBe(2);
  });
});
