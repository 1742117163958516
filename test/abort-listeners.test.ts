// Waiters on one signal share a listener (src/abort-listeners.ts); each must still hear the abort exactly once, and
// one that stopped waiting must not hear it at all.
import { describe, expect, it } from 'vitest';
import { whenAborted } from '../src/abort-listeners.js';

describe('whenAborted', () => {
  it('calls every waiter once when the signal aborts, and none that stopped waiting', () => {
    const controller = new AbortController();
    const heard: string[] = [];
    whenAborted(controller.signal, () => heard.push('a'));
    const stopB = whenAborted(controller.signal, () => heard.push('b'));
    whenAborted(controller.signal, () => heard.push('c'));
    stopB();
    controller.abort();
    controller.abort();
    expect(heard).toEqual(['a', 'c']);
  });

  it('still calls the other waiters when one throws, and reports the error', async () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const reported = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    whenAborted(controller.signal, () => {
      throw new Error('listener fault');
    });
    whenAborted(controller.signal, () => heard.push('after'));
    controller.abort();
    expect(heard).toEqual(['after']);
    expect(await reported).toMatchObject({ message: 'listener fault' });
  });
});
