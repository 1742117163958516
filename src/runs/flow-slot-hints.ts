// Which slot numbers of a key this process holds, as a hint for the next take (flow-slots.ts): a run taking a slot
// tries the lowest number this process does not hold with a plain insert, and only when that number is taken (by
// another process, or a hint gone stale) goes the general way that looks for free numbers. With one process the hint
// is exact, so a take is a single index insert; with several it is a good first guess. A stale hint costs a second
// statement, never a wrong answer: the primary key of `flow_slots` decides who holds a number.

/** Past this many remembered slots the hints are dropped (a free this process never heard of leaves one behind). */
const MAX_REMEMBERED = 50_000;

export class SlotHints {
  private readonly byKey = new Map<string, Set<number>>();
  private readonly byExecution = new Map<string, { flowKey: string; slot: number }>();

  /** The lowest slot number below `limit` this process does not hold for the key, or undefined when it holds all. */
  guess(flowKey: string, limit: number, alsoTaken: ReadonlySet<number> | undefined): number | undefined {
    const held = this.byKey.get(flowKey);
    for (let slot = 0; slot < limit; slot++) {
      if (!held?.has(slot) && !alsoTaken?.has(slot)) return slot;
    }
    return undefined;
  }

  /** The slot this process took for the execution, as far as it knows. */
  slotOf(executionId: string): { flowKey: string; slot: number } | undefined {
    return this.byExecution.get(executionId);
  }

  held(executionId: string, flowKey: string, slot: number): void {
    if (this.byExecution.size >= MAX_REMEMBERED) this.clear();
    this.forget(executionId);
    this.byExecution.set(executionId, { flowKey, slot });
    let held = this.byKey.get(flowKey);
    if (!held) this.byKey.set(flowKey, (held = new Set()));
    held.add(slot);
  }

  forget(executionId: string): void {
    const entry = this.byExecution.get(executionId);
    if (!entry) return;
    this.byExecution.delete(executionId);
    const held = this.byKey.get(entry.flowKey);
    held?.delete(entry.slot);
    if (held?.size === 0) this.byKey.delete(entry.flowKey);
  }

  private clear(): void {
    this.byKey.clear();
    this.byExecution.clear();
  }
}

const hintsByDatabase = new WeakMap<object, SlotHints>();

/** This process's hints for takes on `db`. */
export function slotHintsOf(db: object): SlotHints {
  let hints = hintsByDatabase.get(db);
  if (!hints) hintsByDatabase.set(db, (hints = new SlotHints()));
  return hints;
}

/** Tells this process's hints that the runs' slots were freed (by their log's statement or freeSlot). */
export function slotsFreed(db: object, executionIds: readonly string[]): void {
  const hints = hintsByDatabase.get(db);
  if (hints) executionIds.forEach((id) => hints.forget(id));
}
