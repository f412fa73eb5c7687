/**
 * LockedRuns (src/cluster/lock.ts) on the in-process lock: one run at a time; with `again` (the
 * recompute job) a start during a run, or a change seen after it, makes the run go once more.
 */
import { LocalLock, LockedRuns } from '../../src/cluster/lock';

/** A run that waits until the test lets it end; counts its runs. */
function gatedRun() {
  let runs = 0;
  const gates: (() => void)[] = [];
  let entered: () => void = () => {};
  return {
    get runs() {
      return runs;
    },
    /** resolves when the next run has started */
    next: () => new Promise<void>((r) => (entered = r)),
    /** lets the current run end */
    open: () => gates.shift()?.(),
    run: async (started: () => void) => {
      runs++;
      started();
      await new Promise<void>((r) => {
        gates.push(r);
        entered();
      });
    },
  };
}

describe('LockedRuns', () => {
  it('without `again`: a start while a run goes on answers false and adds nothing (the BPI V2 fit)', async () => {
    const runs = new LockedRuns(new LocalLock(), () => {});
    const job = gatedRun();
    const inside = job.next();
    expect(await runs.start(job.run)).toBe(true);
    await inside;
    expect(await runs.start(job.run)).toBe(false);
    job.open();
    await runs.wait();
    expect([job.runs, runs.running]).toEqual([1, false]);
  });

  it('with `again`: a start while a run goes on answers false, and the run goes once more (wait() covers both)', async () => {
    const runs = new LockedRuns(new LocalLock(), () => {});
    const job = gatedRun();
    let checks = 0;
    const again = async () => (checks++, false);
    let inside = job.next();
    expect(await runs.start(job.run, again)).toBe(true);
    await inside;
    // two starts during the run: one more run, not two
    expect(await runs.start(job.run, again)).toBe(false);
    expect(await runs.start(job.run, again)).toBe(false);
    inside = job.next();
    job.open();
    await inside;
    expect(job.runs).toBe(2);
    expect(runs.running).toBe(true);
    job.open();
    await runs.wait();
    // `again` is asked after the last run only (the first went again without asking)
    expect([job.runs, checks, runs.running]).toEqual([2, 1, false]);
  });

  it('with `again`: a run whose `again()` says what it derived from changed goes once more', async () => {
    const runs = new LockedRuns(new LocalLock(), () => {});
    const job = gatedRun();
    const answers = [true, false];
    const again = async () => answers.shift()!;
    let inside = job.next();
    expect(await runs.start(job.run, again)).toBe(true);
    await inside;
    inside = job.next();
    job.open();
    await inside;
    job.open();
    await runs.wait();
    expect([job.runs, answers.length]).toEqual([2, 0]);
  });

  it('with `again`: the lock held elsewhere answers false and runs nothing (its holder checks `again`)', async () => {
    const lock = new LocalLock();
    const release = (await lock.tryAcquire())!;
    const runs = new LockedRuns(lock, () => {});
    const job = gatedRun();
    expect(await runs.start(job.run, async () => true)).toBe(false);
    await runs.wait();
    expect([job.runs, runs.running]).toEqual([0, false]);
    await release();
  });
});
