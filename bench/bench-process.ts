import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
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

/** Clock ticks per second of the CPU times in /proc (USER_HZ: 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The machine's CPU time so far from /proc/stat (all cores, in clock ticks): in all; busy (neither idle nor waiting
 * for the disk); and stolen, the time a virtual machine's cores were ready to run but the host ran something else.
 * Null where /proc/stat is not there.
 */
export function machineCpuTicks(): { total: number; busy: number; stolen: number } | null {
  try {
    const fields =
      readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    // user nice system idle iowait irq softirq steal (guest time is counted within user)
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const stolen = fields[7] ?? 0;
    return fields.length >= 8 ? { total, busy: total - idle - stolen, stolen } : null;
  } catch {
    return null;
  }
}

/**
 * The CPU time (user and system) a live process has used so far, in clock ticks; with `reapedChildren`, also that of
 * its children that have ended and been waited for. Null where it cannot be read.
 */
function processCpuTicks(pid: number | string, reapedChildren = false): number | null {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15,
    // cutime and cstime 16 and 17.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return reapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
  } catch {
    return null;
  }
}

/**
 * The CPU time all PostgreSQL processes on this machine have used so far (the server, its backends, WAL writer and
 * the rest), in clock ticks; null when none runs here (the database is elsewhere, or embedded in the server).
 * A backend that ends (a pooled connection closed after being idle) leaves /proc, and its time
 * moves to the postmaster's reaped-children time, which is counted too: without it, a case in which connections
 * opened earlier closed could show PostgreSQL using less than nothing (-0.1 ms per order at 100 orders/s in one run).
 */
function postgresCpuTicks(): number | null {
  let sum = 0;
  let found = false;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let comm: string;
      try {
        comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      } catch {
        continue; // ended meanwhile
      }
      if (comm !== 'postgres') continue;
      const ticks = processCpuTicks(entry, true);
      if (ticks !== null) {
        sum += ticks;
        found = true;
      }
    }
  } catch {
    return null;
  }
  return found ? sum : null;
}

/** CPU time used during a case, in milliseconds; null where it could not be read. */
export interface CaseCpu {
  /** the server process (with the embedded database, when that is the database) */
  server: number | null;
  /** PostgreSQL's processes on this machine; null for the embedded database (within the server) */
  database: number | null;
  /** this process: the load generator */
  loadGenerator: number;
  /** the whole machine, busy (what is not idle, waiting for the disk, or stolen) */
  machine: number | null;
}

/**
 * Starts counting the CPU time of a case: the server's (by pid), PostgreSQL's (with `database`: an embedded database
 * is counted within the server), this process's and the machine's; stop() also answers the share the host stole.
 */
export function countCpu(
  serverPid: number,
  options: { database: boolean },
): { stop(): { cpu: CaseCpu; stolen: number | null } } {
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  const since = (before: number | null, after: number | null) =>
    before === null || after === null ? null : ms(after - before);
  const server = processCpuTicks(serverPid);
  const database = options.database ? postgresCpuTicks() : null;
  const own = process.cpuUsage();
  const machine = machineCpuTicks();
  return {
    stop() {
      const used = process.cpuUsage(own);
      const machineNow = machineCpuTicks();
      const cpu = {
        server: since(server, processCpuTicks(serverPid)),
        database: database === null ? null : since(database, postgresCpuTicks()),
        loadGenerator: (used.user + used.system) / 1000,
        machine: since(machine?.busy ?? null, machineNow?.busy ?? null),
      };
      return { cpu, stolen: stolenShare(machine, machineNow) };
    },
  };
}

/** The share of the machine's CPU time stolen by the host between two readings, or null. */
export function stolenShare(
  before: ReturnType<typeof machineCpuTicks>,
  after: ReturnType<typeof machineCpuTicks>,
): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (after.stolen - before.stolen) / (after.total - before.total);
}
