import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database is one process's: a second process opening the same folder would corrupt it (docs/operations.md,
 * "The data folder's lock").
 *
 * The lock is a file numbered by generation, `secure-checkout.lock.<n>`, naming its holder; the highest number is the
 * lock. A stale one (its process gone) is never removed to be taken over: the next generation is created instead,
 * with an exclusive create, so of two processes taking over the same stale lock exactly one creates it, and the other
 * finds a live holder. (Check, remove and write let both win when they start together.) The highest number is never
 * removed: a released lock says so in its file.
 */
const PREFIX = 'secure-checkout.lock.';
/** The lock file of versions before generations: still honoured when it names a live process. */
const LEGACY_FILE = 'secure-checkout.pid';
const RELEASED = 'released';

interface Holder {
  pid: number;
  /** when the process started, as processStart reads it; null when it could not be read */
  started: string | null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When a process started, so that a process id reused by another program is told from the one that wrote the lock:
 * from /proc on Linux (with the boot's id: times are counted from boot), else from ps; null when neither answers.
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const starttime = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .at(22 - 3);
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (starttime) return `${boot}:${starttime}`;
  } catch {
    // no /proc: ask ps
  }
  const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
  const started = ps.status === 0 ? ps.stdout.trim() : '';
  return started === '' ? null : started;
}

/** The generations of lock files in the folder, highest first. */
function generations(folder: string): number[] {
  return readdirSync(folder)
    .filter((name) => name.startsWith(PREFIX) && /^\d{1,15}$/.test(name.slice(PREFIX.length)))
    .map((name) => Number(name.slice(PREFIX.length)))
    .sort((a, b) => b - a);
}

/** Who a lock file names: a holder, 'released', 'unreadable' (not a lock this server wrote), or null when it is gone. */
function readHolder(file: string): Holder | 'released' | 'unreadable' | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (text === RELEASED) return 'released';
  if (/^\d+$/.test(text)) return { pid: Number(text), started: null };
  try {
    const value = JSON.parse(text) as { pid?: unknown; started?: unknown };
    if (typeof value.pid === 'number' && Number.isInteger(value.pid)) {
      return { pid: value.pid, started: typeof value.started === 'string' ? value.started : null };
    }
  } catch {
    // not JSON
  }
  return 'unreadable';
}

/** Writes `text` to `file` only if it does not exist, whole or not at all (never a half-written lock). */
function createWhole(folder: string, file: string, text: string): boolean {
  const temporary = path.join(folder, `.secure-checkout.${process.pid}.${randomBytes(6).toString('hex')}`);
  writeFileSync(temporary, text, { mode: 0o600 });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

type Verdict = { free: true; stale: string | null } | { free: false; message: string };

/** Whether the lock `file`'s holder still holds the folder, and if not, what to say about the stale lock. */
function judge(file: string, holder: Holder | 'released' | 'unreadable', folder: string): Verdict {
  if (holder === 'released') return { free: true, stale: null };
  if (holder === 'unreadable') return { free: true, stale: 'it named no process' };
  const { pid, started } = holder;
  // This very process holds it already (a second database opened on the folder would corrupt it), or a previous
  // process with the same id wrote it (a container's process 1 after a restart).
  if (pid === process.pid) {
    if (started === processStart(pid)) {
      return {
        free: false,
        message:
          `This process already uses the embedded database in ${folder}: open it once, or give each database its ` +
          'own DATA_DIR.',
      };
    }
    return { free: true, stale: `pid ${pid} was a previous process` };
  }
  if (!isAlive(pid)) return { free: true, stale: `its process (pid ${pid}) is gone` };
  const now = processStart(pid);
  if (started !== null && now !== null) {
    if (now === started) {
      return {
        free: false,
        message:
          `Another Secure Checkout process (pid ${pid}) is using the embedded database in ${folder}. ` +
          'Stop it first, or give this one its own DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several.',
      };
    }
    return { free: true, stale: `pid ${pid} is now another program, started after the lock was written` };
  }
  return {
    free: false,
    message:
      `The lock ${file} names pid ${pid}, which is running, but whether it is a Secure Checkout process cannot be ` +
      'told (a process id is reused after a crash). If no Secure Checkout server uses this folder, the lock is stale: ' +
      'delete the file and start again. Otherwise stop that server first, or give this one its own DATA_DIR.',
  };
}

export interface DataFolderLock {
  release(): void;
  /** why a stale lock was taken over (its process is gone, or its pid now names another program); null if none was */
  staleTakenOver: string | null;
}

/** Takes the folder's lock, taking over a stale one; refuses, with what to do, when a live process holds it. */
export function lockDataFolder(folder: string): DataFolderLock {
  const legacy = path.join(folder, LEGACY_FILE);
  const legacyHolder = readHolder(legacy);
  if (legacyHolder !== null) {
    const verdict = judge(legacy, legacyHolder, folder);
    if (!verdict.free) throw new Error(verdict.message);
  }
  const me = JSON.stringify({ pid: process.pid, started: processStart(process.pid) });
  let staleTakenOver: string | null = null;
  // Each turn ends in the lock, a refusal, or news that another process changed the folder meanwhile.
  for (let turn = 0; turn < 100; turn++) {
    const top = generations(folder)[0] ?? 0;
    if (top > 0) {
      const file = path.join(folder, `${PREFIX}${top}`);
      const holder = readHolder(file);
      // Gone meanwhile (tidied away below a newer lock): look again.
      if (holder === null) continue;
      const verdict = judge(file, holder, folder);
      if (!verdict.free) throw new Error(verdict.message);
      staleTakenOver = verdict.stale;
    }
    const mine = top + 1;
    const file = path.join(folder, `${PREFIX}${mine}`);
    if (!createWhole(folder, file, me)) continue;
    // A higher generation made meanwhile is the lock, not this one (its maker judged a lock above this one stale).
    if ((generations(folder)[0] ?? 0) > mine) continue;
    // Below the lock, older generations mean nothing: tidy them away.
    for (const older of generations(folder).filter((n) => n < mine)) {
      rmSync(path.join(folder, `${PREFIX}${older}`), { force: true });
    }
    if (legacyHolder !== null) rmSync(legacy, { force: true });
    return {
      staleTakenOver:
        staleTakenOver === null ? null : `Took over the stale lock of ${folder}: ${staleTakenOver}.`,
      release() {
        // Kept, saying it is free: the highest generation is never removed.
        const temporary = path.join(folder, `.secure-checkout.${process.pid}.released`);
        writeFileSync(temporary, RELEASED);
        renameSync(temporary, file);
      },
    };
  }
  throw new Error(`Could not lock ${folder}: other processes kept changing its lock. Start again.`);
}
