import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataFolder, processStart } from './data-dir-lock.js';

// Real processes take the lock, as two servers started together on one DATA_DIR after a crash do.
let work: string;
let child: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'sc-lock-'));
  // The lock module as plain JavaScript, so that each process starts in milliseconds.
  await build({
    entryPoints: [fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url))],
    outfile: path.join(work, 'data-dir-lock.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  child = path.join(work, 'take-lock.mjs');
  // For each line `<folder> <time>` it reads: waits for that moment (to the microsecond, on the clock every process
  // shares), takes the folder's lock, and says whether it got it. A lock it got it holds until it exits.
  writeFileSync(
    child,
    `import { createInterface } from 'node:readline';
import { lockDataFolder } from './data-dir-lock.mjs';
const now = () => performance.timeOrigin + performance.now();
process.stdout.write('ready\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [folder, startAt] = line.split(' ');
  while (now() < Number(startAt));
  let verdict;
  try {
    lockDataFolder(folder);
    verdict = 'won';
  } catch (error) {
    verdict = 'refused: ' + error.message;
  }
  process.stdout.write(verdict + '\\n');
}
`,
  );
}, 60_000);

const running: ChildProcess[] = [];
afterAll(() => {
  for (const started of running) started.kill('SIGKILL');
});

/** A process id that named a process a moment ago and names none now. */
function deadPid(): number {
  const gone = spawnSync(process.execPath, ['-e', '']);
  return gone.pid ?? 999_999;
}

/** A process that takes locks when told to: `take` answers its verdict; `stop` ends it (its locks left stale). */
function startTaker() {
  const taker = spawn(process.execPath, [child], { stdio: ['pipe', 'pipe', 'inherit'] });
  running.push(taker);
  // Its first line says it is ready: the verdicts follow.
  const verdicts: string[] = [];
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const waiting: ((verdict: string) => void)[] = [
    () => {
      started();
    },
  ];
  let output = '';
  taker.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    let end: number;
    while ((end = output.indexOf('\n')) >= 0) {
      const verdict = output.slice(0, end);
      output = output.slice(end + 1);
      const next = waiting.shift();
      if (next) next(verdict);
      else verdicts.push(verdict);
    }
  });
  const exited = new Promise<void>((resolve) => taker.on('exit', () => resolve()));
  return {
    pid: taker.pid,
    ready,
    take(folder: string, startAt: number): Promise<string> {
      taker.stdin?.write(`${folder} ${startAt}\n`);
      const ready = verdicts.shift();
      return ready !== undefined ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    stop: async () => {
      taker.stdin?.end();
      await exited;
    },
  };
}

describe('the data folder lock', () => {
  it('is taken by exactly one of two processes starting together on a folder with a stale lock, 100 times out of 100', async () => {
    const wins: number[] = [];
    // Two processes, each taking the lock of a new folder at the same moment, 100 times.
    const takers = [startTaker(), startTaker()];
    await Promise.all(takers.map((taker) => taker.ready));
    for (let i = 0; i < 100; i++) {
      const folder = mkdtempSync(path.join(work, 'data-'));
      // A crashed server's lock: this version's, or one an earlier version left.
      if (i % 2 === 0) writeFileSync(path.join(folder, 'secure-checkout.pid'), String(deadPid()));
      else {
        writeFileSync(
          path.join(folder, 'secure-checkout.lock.1'),
          JSON.stringify({ pid: deadPid(), started: 'a start long ago' }),
        );
      }
      const startAt = performance.timeOrigin + performance.now() + 100;
      const verdicts = await Promise.all(takers.map((taker) => taker.take(folder, startAt)));
      wins.push(verdicts.filter((verdict) => verdict === 'won').length);
      for (const verdict of verdicts.filter((entry) => entry !== 'won')) {
        expect(verdict).toMatch(
          /^refused: Another Secure Checkout process \(pid \d+\) is using the embedded database/,
        );
      }
    }
    await Promise.all(takers.map((taker) => taker.stop()));
    expect(wins.filter((n) => n !== 1)).toEqual([]);
  }, 600_000);

  it('is taken over when its pid now names another program, which it says', async () => {
    const folder = mkdtempSync(path.join(work, 'data-'));
    const other = spawn('sleep', ['30']);
    running.push(other);
    const pid = other.pid ?? 0;
    expect(processStart(pid)).not.toBeNull();
    // The lock a server wrote before it crashed: its pid has since been given to `sleep`.
    writeFileSync(
      path.join(folder, 'secure-checkout.lock.1'),
      JSON.stringify({ pid, started: 'the crashed server’s start' }),
    );
    const lock = lockDataFolder(folder);
    expect(lock.staleTakenOver).toBe(
      `Took over the stale lock of ${folder}: pid ${pid} is now another program, started after the lock was written.`,
    );
    expect(readdirSync(folder)).toEqual(['secure-checkout.lock.2']);
    lock.release();
    // Released, the next process takes it without a word.
    const again = lockDataFolder(folder);
    expect(again.staleTakenOver).toBeNull();
    again.release();
    other.kill();
  });

  it('names the stale lock and what to do when its live pid cannot be told from a server', () => {
    const folder = mkdtempSync(path.join(work, 'data-'));
    const other = spawn('sleep', ['30']);
    running.push(other);
    // An earlier version's lock names only a pid: that pid is running, so whose it is cannot be known.
    const file = path.join(folder, 'secure-checkout.pid');
    writeFileSync(file, String(other.pid));
    expect(() => lockDataFolder(folder)).toThrow(
      `The lock ${file} names pid ${other.pid}, which is running, but whether it is a Secure Checkout process cannot ` +
        'be told (a process id is reused after a crash). If no Secure Checkout server uses this folder, the lock is ' +
        'stale: delete the file and start again. Otherwise stop that server first, or give this one its own DATA_DIR.',
    );
    other.kill();
  });

  it('refuses to be taken twice by one process until it is released', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sc-lock-twice-'));
    const lock = lockDataFolder(folder);
    expect(() => lockDataFolder(folder)).toThrow(/This process already uses the embedded database/);
    lock.release();
    const again = lockDataFolder(folder);
    expect(again.staleTakenOver).toBeNull();
    again.release();
  });

  it('refuses a second process while the first holds it', async () => {
    const folder = mkdtempSync(path.join(work, 'data-'));
    const holder = startTaker();
    await holder.ready;
    expect(await holder.take(folder, 0)).toBe('won');
    expect(() => lockDataFolder(folder)).toThrow(
      `Another Secure Checkout process (pid ${holder.pid}) is using the embedded database in ${folder}.`,
    );
    await holder.stop();
  });
});
