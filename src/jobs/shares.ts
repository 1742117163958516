// How one worker's slots are divided among job kinds, so no kind can starve another: a slow kind (deliveries to a
// receiver that never answers) used to take every free slot and hold async runs back for its whole time-out.
//
// - Half the slots are reserved: each kind is guaranteed its share of them (by `share` weight, at least one slot
//   when there are at least two slots per kind). A kind may never take a slot that another kind's unused
//   reservation needs, so work of that kind arriving later starts at once.
// - The rest is handed out fairly: kinds are claimed for in order of how far below their share they run
//   (running / share, lowest first), each asking for its weighted part of what is still free; kinds that still
//   have work get another round until the slots are full.
// A kind's own `concurrency` bound still applies on top.

export interface KindSlots {
  kind: string;
  /** Relative weight (> 0). */
  share: number;
  /** Most jobs of this kind at once. */
  limit: number;
  running: number;
}

/** Slots kept for each kind. Their sum never exceeds the total, so every kind can always start something. */
export function reservations(total: number, kinds: readonly Omit<KindSlots, 'running'>[]): Map<string, number> {
  const reserved = Math.floor(total / 2);
  const shares = kinds.reduce((sum, k) => sum + k.share, 0);
  const atLeastOne = kinds.length * 2 <= total;
  return new Map(
    kinds.map((k) => {
      const slots = Math.floor((reserved * k.share) / shares);
      return [k.kind, Math.min(k.limit, atLeastOne ? Math.max(1, slots) : slots)];
    }),
  );
}

/** How many more jobs of `kind` may start now: within its limit, leaving other kinds' unused reservations free. */
export function headroom(total: number, kinds: readonly KindSlots[], reserved: Map<string, number>, kind: string): number {
  let free = total;
  let heldForOthers = 0;
  let own: KindSlots | undefined;
  for (const k of kinds) {
    free -= k.running;
    if (k.kind === kind) own = k;
    else heldForOthers += Math.max(0, (reserved.get(k.kind) ?? 0) - k.running);
  }
  if (!own) return 0;
  return Math.max(0, Math.min(free - heldForOthers, own.limit - own.running));
}

/** Kinds in claiming order: the furthest below their share first (ties keep the given order). */
export function claimOrder(kinds: readonly KindSlots[]): KindSlots[] {
  return [...kinds].sort((a, b) => a.running / a.share - b.running / b.share);
}

/**
 * How many jobs to ask for for `kind`, the first of `waiting` (the kinds still to be asked this round, in order):
 * its weighted part of the free slots, at least what its reservation still holds, at most its headroom.
 */
export function claimSize(
  total: number,
  kinds: readonly KindSlots[],
  reserved: Map<string, number>,
  waiting: readonly KindSlots[],
): number {
  const [own] = waiting;
  const room = headroom(total, kinds, reserved, own.kind);
  if (room === 0) return 0;
  const free = total - kinds.reduce((sum, k) => sum + k.running, 0);
  const part = Math.ceil((free * own.share) / waiting.reduce((sum, k) => sum + k.share, 0));
  const unusedReservation = Math.max(0, (reserved.get(own.kind) ?? 0) - own.running);
  return Math.min(room, Math.max(part, unusedReservation));
}
