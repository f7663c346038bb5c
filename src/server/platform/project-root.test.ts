import { describe, expect, it } from 'vitest';
import { projectRootAbove } from './project-root.js';

describe('projectRootAbove', () => {
  const files = new Set(['/work/app/package.json']);
  const exists = (file: string) => files.has(file);

  it('finds the same root from the built server and from the source', () => {
    expect(projectRootAbove('/work/app/dist/node/server', exists)).toBe('/work/app');
    expect(projectRootAbove('/work/app/src/server', exists)).toBe('/work/app');
  });

  it('says so when there is no package.json above', () => {
    expect(() => projectRootAbove('/elsewhere/src', exists)).toThrow(/No package.json/);
  });
});
