/**
 * The fit and the held-out evaluation of the BPI V2 job (pure: src/domain/bpi-v2), in a worker
 * thread when the process can start one on its own sources (compiled JavaScript, or TypeScript
 * through @swc-node/register) — else (the test runner) in the calling thread.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  evaluateBpiV2,
  fitBpiV2,
  type BpiV2Evaluation,
  type BpiV2Fit,
  type ChartInfo,
  type ScoreMatrix,
} from '../../domain/bpi-v2';

export interface ComputeInput {
  matrix: ScoreMatrix;
  charts: ChartInfo[];
  minPlayersPerChart: number;
  evaluate: boolean;
}

/** The fit, and the evaluation without its own fit (only its figures are kept). */
export interface ComputeResult {
  fit: BpiV2Fit;
  evaluation: Omit<BpiV2Evaluation, 'fit'> | null;
}

export type ComputePhase = 'prepare' | 'fit' | 'anchor' | 'evaluate';

export function computeBpiV2(
  input: ComputeInput,
  onProgress: (phase: ComputePhase, fraction: number, stage: 'fit' | 'evaluate') => void,
): ComputeResult {
  const opts = { minPlayersPerChart: input.minPlayersPerChart };
  const fit = fitBpiV2(input.matrix, input.charts, {
    ...opts,
    onProgress: (p) => onProgress(p.phase, p.fraction, 'fit'),
  });
  let evaluation: ComputeResult['evaluation'] = null;
  if (input.evaluate && fit.fittedCharts > 0) {
    const { fit: _second, ...figures } = evaluateBpiV2(input.matrix, input.charts, {
      ...opts,
      onProgress: (p) => onProgress('evaluate', p.fraction, 'evaluate'),
    });
    evaluation = figures;
  }
  return { fit, evaluation };
}

/** Can this process run the worker's module? (compiled .js, or .ts with the swc-node require hook) */
function workerAvailable(): boolean {
  return __filename.endsWith('.js') || process.execArgv.some((a) => a.includes('@swc-node/register'));
}

/** computeBpiV2 in a worker thread when available (the matrix is copied to it once), else here. */
export function computeBpiV2Async(
  input: ComputeInput,
  onProgress: (phase: ComputePhase, fraction: number, stage: 'fit' | 'evaluate') => void,
): Promise<ComputeResult> {
  if (!workerAvailable()) {
    try {
      return Promise.resolve(computeBpiV2(input, onProgress));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  const file = path.join(__dirname, `bpi-v2.worker${path.extname(__filename)}`);
  return new Promise((resolve, reject) => {
    // eval: a worker's file must be .js; the require goes through the process's hooks (swc-node) when the sources are TypeScript
    const worker = new Worker(`require(${JSON.stringify(file)});`, { eval: true, workerData: input });
    let settled = false;
    worker.on(
      'message',
      (
        m:
          | { type: 'progress'; phase: ComputePhase; fraction: number; stage?: 'fit' | 'evaluate' }
          | { type: 'done'; result: ComputeResult }
          | { type: 'error'; message: string },
      ) => {
        if (m.type === 'progress') onProgress(m.phase, m.fraction, m.phase === 'evaluate' ? 'evaluate' : 'fit');
        else {
          settled = true;
          void worker.terminate();
          if (m.type === 'done') resolve(m.result);
          else reject(new Error(m.message));
        }
      },
    );
    worker.on('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`BPI V2 worker exited with code ${code}`));
    });
  });
}
