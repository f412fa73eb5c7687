import { isRetryableTxError, retryTransaction } from '../../src/db/retry';
import { inOrder } from '../../src/db/in-order';

describe('retryTransaction', () => {
  it('recognises deadlocks and serialization failures however Prisma wraps them', () => {
    expect(isRetryableTxError({ code: 'P2034' })).toBe(true);
    expect(
      isRetryableTxError({
        code: 'P2010',
        meta: { driverAdapterError: { cause: { originalCode: '40P01', kind: 'postgres' } } },
      }),
    ).toBe(true);
    expect(isRetryableTxError({ cause: { code: '40001' } })).toBe(true);
    expect(isRetryableTxError(new Error('Raw query failed. Code: `40P01`. Message: `deadlock detected`'))).toBe(true);
    expect(isRetryableTxError({ code: 'P2002' })).toBe(false);
    expect(isRetryableTxError(new Error('unique constraint'))).toBe(false);
  });

  it('runs the transaction again after a retryable failure, and not after another one', async () => {
    let calls = 0;
    const retried: number[] = [];
    const out = await retryTransaction(
      async () => {
        calls++;
        if (calls < 3) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        return 'done';
      },
      { baseMs: 1, onRetry: (n) => retried.push(n) },
    );
    // two failures (attempts 1 and 2), the third attempt succeeds
    expect([out, calls, retried]).toEqual(['done', 3, [1, 2]]);

    let other = 0;
    await expect(
      retryTransaction(
        async () => {
          other++;
          throw new Error('boom');
        },
        { baseMs: 1 },
      ),
    ).rejects.toThrow('boom');
    expect(other).toBe(1);

    let always = 0;
    await expect(
      retryTransaction(
        async () => {
          always++;
          throw { code: '40001' };
        },
        { baseMs: 1, attempts: 4 },
      ),
    ).rejects.toEqual({ code: '40001' });
    expect(always).toBe(4);
  });

  it('inOrder starts each lazy query after the previous one finished', async () => {
    const log: string[] = [];
    const lazy = (name: string, ms: number) => ({
      then(resolve: (v: string) => void) {
        log.push(`start ${name}`);
        setTimeout(() => {
          log.push(`end ${name}`);
          resolve(name);
        }, ms);
      },
    });
    expect(await inOrder([lazy('a', 5), lazy('b', 1)])).toEqual(['a', 'b']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });
});
