import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite is single-process: the process that opens a data dir must hold it alone. The lock file
 * holds the owner's pid; a stale lock (dead pid) is taken over.
 */
export class DataDirLockedError extends Error {}

export function acquireDataDirLock(dir: string, purpose: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'bpigraph.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }), {
        flag: 'wx',
      });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          const owner = JSON.parse(fs.readFileSync(file, 'utf8'));
          if (owner.pid === process.pid) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner: { pid?: number; purpose?: string } = {};
      try {
        owner = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        /* unreadable lock: treat as stale */
      }
      if (owner.pid && owner.pid !== process.pid && isAlive(owner.pid)) {
        throw new DataDirLockedError(
          `The embedded database in ${dir} is in use by process ${owner.pid} (${owner.purpose ?? 'unknown'}). ` +
            'PGlite allows one process at a time: stop that process first, or run against PostgreSQL with DATABASE_URL.',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
