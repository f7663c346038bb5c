import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

async function readSecretFile(file: string): Promise<string> {
  const value = (await readFile(file, 'utf8')).trim();
  if (value === '') {
    throw new Error(
      `The secret file ${file} is empty: delete it to have a new secret made, or set the secret in the environment.`,
    );
  }
  return value;
}

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
    return { value: await readSecretFile(file), generated: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const value = generate();
  // Written whole to a file of our own, then linked into place: the name appears with its content or not at all.
  // (Created in place, another instance starting at the same moment could read it still empty.)
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, `${value}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, file);
    return { value, generated: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { value: await readSecretFile(file), generated: false };
  } finally {
    await unlink(draft).catch(() => {});
  }
}
