import { existsSync } from 'node:fs';
import path from 'node:path';

/** The nearest directory at or above `start` that holds the project's package.json. */
export function projectRootAbove(start: string, exists: (file: string) => boolean = existsSync): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (exists(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json at or above ${start}.`);
  }
}
