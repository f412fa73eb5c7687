import { defineTask } from '../workers/task';
import { renderPng, type PngJob } from './png';

/**
 * SVG → PNG in the worker pool (src/workers): the pure renderer of png.ts on plain data. The
 * answer crosses threads as a Uint8Array (structured clone).
 */
export const pngTask = defineTask(__filename, 'png', (job: PngJob): Uint8Array => renderPng(job));
