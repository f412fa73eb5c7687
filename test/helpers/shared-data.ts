import fs from 'node:fs';
import path from 'node:path';
import { describeIf } from './skip';

/** ../shared next to the repository (real data for tests; never copied into the repo). */
export const SHARED_DIR = path.resolve(__dirname, '../../../shared');

export function sharedFile(rel: string): string | null {
  const p = path.join(SHARED_DIR, rel);
  return fs.existsSync(p) ? p : null;
}

/** `describe` when the shared file exists, else a skipped describe with a clear message. */
export function describeWithShared(rel: string, name: string, fn: (file: string) => void): void {
  const file = sharedFile(rel);
  describeIf(file !== null, `${path.join(SHARED_DIR, rel)} is absent (real data lives in ../shared)`)(name, () =>
    fn(file ?? ''),
  );
}

export const readSharedJson = (file: string): any => JSON.parse(fs.readFileSync(file, 'utf8'));
