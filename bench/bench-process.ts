import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '..');

export interface BenchProcess {
  child: ChildProcess;
  pid: number;
  /** What the process printed (stdout and stderr go to a file, not through a pipe the load generator must drain). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a process whose output goes to logFile, and waits until it prints a line matching `ready`.
 * Answers the first capture group of `ready` with the process.
 */
export async function startBenchProcess(
  command: { args: string[]; env: Record<string, string>; logFile: string; ready: RegExp },
  timeoutMs = 120_000,
): Promise<{ process: BenchProcess; match: string }> {
  const fd = openSync(command.logFile, 'w');
  const child = spawn(process.execPath, command.args, {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...command.env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const output = () => readFileSync(command.logFile, 'utf8');
  let exitedWith: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedWith = { code, signal };
      resolve(exitedWith);
    }),
  );
  const handle: BenchProcess = {
    child,
    pid: child.pid ?? -1,
    output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = command.ready.exec(output());
    if (match) return { process: handle, match: match[1] ?? match[0] };
    if (exitedWith) throw new Error(`process exited before it was ready:\n${output()}`);
    if (Date.now() > deadline) {
      await handle.stop();
      throw new Error(`process not ready after ${timeoutMs} ms:\n${output()}`);
    }
    await sleep(100);
  }
}

/** Reads VmRSS and VmHWM (peak) of a live process from /proc, in bytes; null where /proc is not there. */
export function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
  } catch {
    return null;
  }
}

/** Samples a process's RSS while a case runs: the highest value seen is the case's peak. */
export function sampleRss(pid: number, everyMs = 100): { stop(): number | null } {
  let max: number | null = null;
  const take = () => {
    const memory = memoryOf(pid);
    if (memory && (max === null || memory.rss > max)) max = memory.rss;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return max;
    },
  };
}

/**
 * The machine's CPU time so far from /proc/stat (all cores, in clock ticks): in all, and stolen, the time a virtual
 * machine's cores were ready to run but the host ran something else. Null where /proc/stat is not there.
 */
export function machineCpuTicks(): { total: number; stolen: number } | null {
  try {
    const fields =
      readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    // user nice system idle iowait irq softirq steal (guest time is counted within user)
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    return fields.length >= 8 ? { total, stolen: fields[7] ?? 0 } : null;
  } catch {
    return null;
  }
}

/** The share of the machine's CPU time stolen by the host between two readings, or null. */
export function stolenShare(
  before: ReturnType<typeof machineCpuTicks>,
  after: ReturnType<typeof machineCpuTicks>,
): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (after.stolen - before.stolen) / (after.total - before.total);
}
