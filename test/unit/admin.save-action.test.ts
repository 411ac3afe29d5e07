import { describe, expect, it } from 'vitest';
import { createSaveAction } from '../../client/admin/forms';

/** A promise the test settles by hand, so the state while a save is under way can be read. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('createSaveAction: the save-state admin forms and dialogs share', () => {
  it('is busy while the call runs, then says "saved" with no message', async () => {
    const save = createSaveAction();
    const call = deferred();
    const running = save.run(() => call.promise);
    expect(save.state()).toBe('saving');
    expect(save.busy()).toBe(true);
    call.resolve();
    await running;
    expect(save.state()).toBe('saved');
    expect(save.busy()).toBe(false);
    expect(save.error()).toBeNull();
  });

  it('a second run while one is under way does nothing (the button is only aria-disabled)', async () => {
    const save = createSaveAction();
    const call = deferred();
    let calls = 0;
    const first = save.run(() => {
      calls += 1;
      return call.promise;
    });
    await save.run(() => {
      calls += 1;
      return Promise.resolve();
    });
    expect(calls).toBe(1);
    call.resolve();
    await first;
  });

  it('a refusal fails with the sentence the describer gives, and the next run clears it', async () => {
    const save = createSaveAction(() => 'default words');
    await save.run(() => Promise.reject(new Error('no')));
    expect(save.state()).toBe('failed');
    expect(save.error()).toBe('default words');
    await save.run(
      () => Promise.reject(new Error('no')),
      (err) => `this form: ${(err as Error).message}`,
    );
    expect(save.error()).toBe('this form: no');
    await save.run(() => Promise.resolve());
    expect(save.error()).toBeNull();
  });

  it('a describer answering null leaves no message (the form shows the problems at their fields)', async () => {
    const save = createSaveAction();
    await save.run(
      () => Promise.reject(new Error('field')),
      () => null,
    );
    expect(save.state()).toBe('failed');
    expect(save.error()).toBeNull();
  });

  it('fail() refuses before anything is sent; reset() says nothing again', () => {
    const save = createSaveAction();
    save.fail('Choose an event');
    expect(save.state()).toBe('failed');
    expect(save.error()).toBe('Choose an event');
    save.reset();
    expect(save.state()).toBe('idle');
    expect(save.error()).toBeNull();
  });
});
