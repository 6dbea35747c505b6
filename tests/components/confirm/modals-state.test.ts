import { describe, expect, it } from 'vitest';
import { modalsMounted, modalsWanted, setModalsMounted, whenModalsReady } from '@/components/confirm/modals-state';

describe("the dialogs' host state", () => {
  it('asks for the host, and holds a question until the host listens', async () => {
    setModalsMounted(false);
    let ready = false;
    const waiting = whenModalsReady().then(() => {
      ready = true;
    });
    expect(modalsWanted()).toBe(true);
    await Promise.resolve();
    expect(ready).toBe(false);
    expect(modalsMounted()).toBe(false);

    setModalsMounted(true);
    await waiting;
    expect(ready).toBe(true);
    // Once it listens, a question goes through at once.
    await expect(whenModalsReady()).resolves.toBeUndefined();
    setModalsMounted(false);
  });
});
