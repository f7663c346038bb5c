import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database is one process's: a second process opening the same folder would corrupt it. Takes the
 * folder's lock (a file with our pid), taking over a lock whose process is gone; returns the release function.
 */
export function lockDataFolder(folder: string): () => void {
  const file = path.join(folder, 'secure-checkout.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `Another Secure Checkout process (pid ${holder}) is using the embedded database in ${folder}. ` +
            'Stop it first, or give this one its own DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several.',
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${folder}.`);
}
