/**
 * The CPU part of the BPI V2 job (the fit and the held-out evaluation, src/domain/bpi-v2) in a
 * worker thread, so that the process running the job keeps serving requests and writing progress.
 * Started by bpi-v2.job.ts (`computeBpiV2`); messages: progress, then done (or error).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { computeBpiV2, type ComputeInput } from './bpi-v2.compute';

const port = parentPort!;
try {
  const result = computeBpiV2(workerData as ComputeInput, (phase, fraction) =>
    port.postMessage({ type: 'progress', phase, fraction }),
  );
  port.postMessage({ type: 'done', result });
} catch (err) {
  port.postMessage({ type: 'error', message: (err as Error).message });
}
