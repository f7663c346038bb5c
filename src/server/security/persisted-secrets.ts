import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A secret from configuration, or else one generated once and kept in the data folder (mode 0600), so restarts and
 * several instances sharing the folder agree on it. Two instances racing to create it both end up reading one file.
 */
export async function resolveSecret(
  configured: string | null,
  dataDir: string,
  fileName: string,
  generate: () => string = () => randomBytes(48).toString('base64url'),
): Promise<{ value: string; generated: boolean }> {
  if (configured !== null) return { value: configured, generated: false };
  const file = path.join(dataDir, fileName);
  try {
    return { value: (await readFile(file, 'utf8')).trim(), generated: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const value = generate();
  try {
    await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return { value, generated: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { value: (await readFile(file, 'utf8')).trim(), generated: false };
  }
}
